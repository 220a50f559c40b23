import { closeSync, createReadStream, createWriteStream, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { KEY_FILE } from '../auth/master-key.js';
import { BACKUP_PATH, checkBackup, packBackup, SNAPSHOTS_DIR, type BackupManifest } from '../backup/archive.js';
import { describeDatabase, whileStill } from '../backup/snapshot.js';
import { loadConfig } from '../kernel/config.js';
import { DataDirectoryLocked, lockDataDir } from '../db/data-dir-lock.js';
import { serverAccess, serverHolding, unreachable, type ServerAccess } from './server-access.js';
import type { CliIo } from './io.js';

const MB = 1024 * 1024;

/**
 * `backup <file>`: a backup of the embedded database (DATA_DIR) into `file`, through the server that
 * holds the directory (GET /admin/backup) or, when no process holds it, from the directory itself,
 * which the CLI then holds. The file appears whole or not at all: written under a temporary name,
 * read through (checksums, structure), then renamed. Prints the file's path.
 */
export async function backupCommand(file: string, io: CliIo): Promise<void> {
  const config = loadConfig(io.env);
  if (config.databaseUrl) throw new Error(pgDumpAdvice(config.databaseSchema));
  const dataDir = resolve(config.dataDir);
  if (!existsSync(join(dataDir, 'PG_VERSION')))
    throw new Error(`${dataDir} holds no embedded database (no PG_VERSION): set DATA_DIR to the server's data directory`);
  const target = resolve(file);
  const inside = relative(dataDir, target);
  if (!inside.startsWith('..') && !isAbsolute(inside)) throw new Error(`${target} is inside DATA_DIR (${dataDir}): write the backup elsewhere`);
  const partial = `${target}.${process.pid}.partial`;
  const started = performance.now();
  try {
    const route = await writeBackup(dataDir, partial, io.env);
    const manifest = await checkBackup(createReadStream(partial));
    // On disk before it has its name, and the name on disk before it is reported.
    fsyncPath(partial);
    renameSync(partial, target);
    fsyncPath(dirname(target));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    io.stderr.write(`backed up ${dataDir} (${route}) into ${target}: ${(statSync(target).size / MB).toFixed(1)} MB in ${seconds} s\n`);
    io.stderr.write(`${keyReminder(manifest, dataDir)}\n`);
    io.stdout.write(`${target}\n`);
  } finally {
    rmSync(partial, { force: true });
  }
}

function fsyncPath(path: string) {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes the backup into `path`; says how it was taken. */
async function writeBackup(dataDir: string, path: string, env: NodeJS.ProcessEnv): Promise<string> {
  let lock;
  try {
    lock = lockDataDir(dataDir, 'cli');
  } catch (error) {
    if (!(error instanceof DataDirectoryLocked)) throw error;
    const access = serverAccess(serverHolding(error), dataDir, env);
    await download(access, path);
    return `through ${access.server}`;
  }
  try {
    // This process holds the directory: its files are read straight into the archive, as they are at one instant.
    rmSync(join(dataDir, SNAPSHOTS_DIR), { recursive: true, force: true });
    const pglite = await PGlite.create(dataDir);
    try {
      await whileStill(pglite, dataDir, async (tx, isPart) => {
        const manifest = await describeDatabase(tx, dataDir);
        await pipeline(packBackup(dataDir, manifest, isPart), createWriteStream(path, { mode: 0o600 }));
      });
    } finally {
      await pglite.close();
    }
    return 'no server held it';
  } finally {
    lock.release();
  }
}

/** Downloads the backup from the server's GET /admin/backup into `path`. */
async function download(access: ServerAccess, path: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${access.url}${BACKUP_PATH}`, { headers: { authorization: `Bearer ${access.token}` } });
  } catch (error) {
    throw unreachable(access, error);
  }
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    const message = body?.error?.message ?? `HTTP ${response.status}`;
    if (response.status === 401) throw new Error(`${access.server} refused the token in ${access.tokenSource}: ${message}`);
    throw new Error(`${access.server} refused the backup: ${message}`);
  }
  try {
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), createWriteStream(path, { mode: 0o600 }));
  } catch (error) {
    throw new Error(`the backup from ${access.server} broke off: ${(error as Error).message}`);
  }
}

/** What to keep beside the backup: the master key is not in it (docs/backups.md says why). */
function keyReminder(manifest: BackupManifest, dataDir: string): string {
  const keys = manifest.masterKeys.length
    ? `its server secrets are sealed with master key ${manifest.masterKeys.join(', ')}`
    : 'it holds no sealed server secrets yet';
  return `the master key is not in the backup (${keys}): keep a copy of ${join(dataDir, KEY_FILE)} (or SECRET_KEY) apart from it; restoring needs it`;
}

/** What to do instead on a PostgreSQL server. */
function pgDumpAdvice(schema: string | undefined): string {
  const schemaOption = schema ? ` --schema='${schema}'` : '';
  return (
    'DATABASE_URL is set: `cli backup` backs up the embedded database only. Back up a PostgreSQL server with its own tools, e.g. ' +
    `pg_dump --format=custom --no-owner${schemaOption} --file=<file> "$DATABASE_URL", and keep SECRET_KEY apart (docs/backups.md)`
  );
}
