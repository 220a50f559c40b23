import { readdirSync, type Stats } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Header, Pack, Parser, ReadEntry, Unpack } from 'tar';
import { z } from 'zod';
import { KEY_FILE } from '../auth/master-key.js';
import { ADMIN_TOKEN_FILE } from '../db/admin-token-file.js';
import { LOCK_FILE } from '../db/data-dir-lock.js';

/*
 * A backup of the embedded database is a gzipped tar of its data directory's files, the first entry
 * being `backup.json` (the manifest below). Standard `tar -xzf` reads it; `cli restore` checks it.
 */

/** Where a server holding the data directory sends a backup (GET, an instance administrator's token). */
export const BACKUP_PATH = '/admin/backup';

/** The archive's first entry: what the files are. */
export const MANIFEST_ENTRY = 'backup.json';

/** Where a server puts the snapshots of the backups it is sending, inside its data directory (never backed up itself). */
export const SNAPSHOTS_DIR = 'backup-snapshots';

const FORMAT = 'docs-platform-backup';
const VERSION = 1;

const Manifest = z.object({
  format: z.literal(FORMAT),
  version: z.literal(VERSION),
  createdAt: z.string(),
  /** PG_VERSION of the data directory: the PostgreSQL major version that wrote it. */
  postgres: z.string(),
  /** The last schema migration applied, if any. */
  migration: z.string().nullable(),
  /** Ids of the master keys that sealed the server secrets in it: restoring needs one of these keys. */
  masterKeys: z.array(z.string()),
});
export type BackupManifest = z.infer<typeof Manifest>;

export const newManifest = (facts: Omit<BackupManifest, 'format' | 'version' | 'createdAt'>): BackupManifest => ({
  format: FORMAT,
  version: VERSION,
  createdAt: new Date().toISOString(),
  ...facts,
});

/**
 * Files of the data directory that are not the database: the lock (a restored directory gets its own),
 * the admin CLI's token (the server that holds the directory writes a new one), the master key (kept
 * apart on purpose: see docs/backups.md), backups being sent, files being written (`*.tmp`, `*.new`),
 * and PostgreSQL's own files of the running process (`postmaster.*`, left out by pg_basebackup too).
 */
const NOT_BACKED_UP = new Set([LOCK_FILE, ADMIN_TOKEN_FILE, KEY_FILE, SNAPSHOTS_DIR, MANIFEST_ENTRY, 'postmaster.pid', 'postmaster.opts']);

export function isBackedUp(name: string): boolean {
  if (NOT_BACKED_UP.has(name)) return false;
  return !/\.(tmp|new)$/.test(name);
}

/** gzip level 1: the default (6) took far longer for little less size (figures: docs/performance.md). */
const GZIP_LEVEL = 1;

/**
 * The backup archive of the database files under `root` (a consistent copy of a data directory, or a
 * data directory that does not change while it is read), as a gzipped tar stream, read from disk as it
 * is consumed. `isPart` says which files (by path relative to `root`) are the database's.
 */
export function packBackup(root: string, manifest: BackupManifest, isPart: (path: string) => boolean = (path) => isBackedUp(path.split('/')[0])): Readable {
  const pack = new Pack({
    cwd: root,
    gzip: { level: GZIP_LEVEL },
    portable: true,
    strict: true,
    filter: (path) => path === MANIFEST_ENTRY || isPart(path.replace(/^\.\//, '')),
  });
  const body = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  const entry = new ReadEntry(new Header({ path: MANIFEST_ENTRY, type: 'File', size: body.length, mode: 0o600, mtime: new Date(manifest.createdAt) }));
  pack.add(entry);
  entry.end(body);
  for (const name of readdirSync(root)
    .filter((name) => isPart(name))
    .sort())
    pack.add(name);
  pack.end();
  return pack as unknown as Readable;
}

/** Refusal of a file that is no complete backup of this kind. */
export class BadBackup extends Error {
  override name = 'BadBackup';
}

/** Larger than any manifest: a first entry beyond this is not one (and is not read into memory). */
const MAX_MANIFEST_BYTES = 64 * 1024;

const notOurs = () => new BadBackup(`the archive does not start with ${MANIFEST_ENTRY}: not a backup of this server`);

/** The manifest of an archive's first entry, or a BadBackup saying why it is none. */
export function manifestOf(text: string): BackupManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BadBackup(`${MANIFEST_ENTRY} is not JSON`);
  }
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) {
    const format = (json as { format?: unknown; version?: unknown } | null) ?? {};
    if (format.format === FORMAT && format.version !== VERSION)
      throw new BadBackup(`backup format version ${String(format.version)} is not read by this version of the server`);
    throw new BadBackup(`${MANIFEST_ENTRY} is not the manifest of a backup of this server`);
  }
  return parsed.data;
}

/**
 * Reads a backup archive through to its end (gzip checksum, tar structure), checking that it starts
 * with its manifest and holds a data directory. `onManifest` sees the manifest as soon as it is read
 * and may throw to stop there. Nothing is written.
 */
export async function checkBackup(source: Readable, onManifest: (manifest: BackupManifest) => void = () => {}): Promise<BackupManifest> {
  let manifest: BackupManifest | undefined;
  let entries = 0;
  let hasVersionFile = false;
  let failure: unknown;
  const parser = new Parser({ strict: true });
  const fail = (error: unknown) => {
    failure ??= error;
    parser.abort(error instanceof Error ? error : new Error(String(error)));
  };
  parser.on('entry', (entry: ReadEntry) => {
    entries += 1;
    const name = entryName(entry.path);
    if (entries === 1) {
      if (entry.size > MAX_MANIFEST_BYTES) return fail(notOurs());
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => {
        try {
          if (name !== MANIFEST_ENTRY || entry.type !== 'File') throw notOurs();
          manifest = manifestOf(Buffer.concat(chunks).toString('utf8'));
          onManifest(manifest);
        } catch (error) {
          fail(error);
        }
      });
      return;
    }
    if (!manifest) fail(notOurs());
    if (name === 'PG_VERSION') hasVersionFile = true;
    entry.resume();
  });
  try {
    await pipeline(source, parser);
  } catch (error) {
    throw failure ?? new BadBackup(`the archive is damaged or incomplete (${(error as Error).message})`);
  }
  if (failure) throw failure;
  if (!manifest) throw new BadBackup('the file is empty or no tar archive');
  if (!hasVersionFile) throw new BadBackup('the archive holds no data directory (no PG_VERSION)');
  return manifest;
}

/**
 * Extracts a (checked) backup archive's database files into `dir`: tar keeps every path inside it, and
 * only files and directories are made (a data directory has nothing else; no link can point out).
 */
export async function extractBackup(source: Readable, dir: string): Promise<void> {
  const filter = (path: string, entry: ReadEntry | Stats) =>
    ['File', 'Directory'].includes((entry as ReadEntry).type) && isBackedUp(entryName(path).split('/')[0]);
  await pipeline(source, new Unpack({ cwd: dir, strict: true, filter }));
}

const entryName = (path: string) => path.replace(/^\.\//, '');
