import { randomUUID } from 'node:crypto';
import { constants, cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import sql, { type Sql } from 'sql-template-tag';
import { isBackedUp, newManifest, SNAPSHOTS_DIR, type BackupManifest } from './archive.js';

/** Says whether a file or directory (by its path relative to the data directory) is part of the database. */
export type FileFilter = (path: string) => boolean;

/**
 * Runs `use` while nothing changes the files of the database that `pglite` runs on `dataDir`, with
 * what it needs to take them as they are: a transaction to read the database in, and the filter of
 * the files that make the database at this instant.
 *
 * PGlite is one connection, and every statement of this process waits for the transaction that `use`
 * runs in (its query and transaction locks): the files do not change meanwhile, and a copy of them is
 * the state of the database at one instant, as a crash at that instant would leave it. Opening such a
 * copy replays the write-ahead log from the last checkpoint, so it holds every transaction committed
 * before, and none in part. A checkpoint first keeps the log to replay short; of the log's segment
 * files only those from the checkpoint's redo point to the current insert position are part of it
 * (the others are old ones PostgreSQL keeps to reuse, up to `min_wal_size`: 80 MB), as pg_basebackup
 * takes them.
 */
export async function whileStill<T>(pglite: PGlite, dataDir: string, use: (tx: Transaction, isPart: FileFilter) => Promise<T>): Promise<T> {
  await pglite.exec('checkpoint');
  return pglite.transaction(async (tx) => {
    const [wal] = (
      await tx.query<{ first: string; last: string }>(
        'select redo_wal_file as first, pg_walfile_name(pg_current_wal_insert_lsn()) as last from pg_control_checkpoint()',
      )
    ).rows;
    const { first, last } = wal;
    const isPart: FileFilter = (path) => {
      if (!isBackedUp(path.split('/')[0])) return false;
      const segment = /^pg_wal\/([0-9A-F]{24})$/.exec(path)?.[1];
      // Names of one timeline sort as their positions do.
      return segment === undefined || (segment >= first && segment <= last);
    };
    return use(tx, isPart);
  });
}

/** What a backup says of the embedded database it holds, read in the transaction its files are taken in. */
export async function describeDatabase(tx: Pick<Transaction, 'query'>, dataDir: string): Promise<BackupManifest> {
  const query = async <T>(statement: Sql) => (await tx.query<T>(statement.text, statement.values)).rows;
  const exists = async (table: string) => (await query<{ found: boolean }>(sql`select to_regclass(${table}) is not null as found`))[0].found;
  const migration = (await exists('mikro_orm_migrations'))
    ? ((await query<{ name: string }>(sql`select name from mikro_orm_migrations order by id desc limit 1`))[0]?.name ?? null)
    : null;
  // Sealed values name their key (sealing.ts): `sealed:<format>:<key id>:<payload>`.
  const masterKeys = (await exists('server_secret'))
    ? (await query<{ key: string }>(sql`select distinct split_part(value, ':', 3) as key from server_secret where value like 'sealed:%' order by 1`)).map(
        (row) => row.key,
      )
    : [];
  return newManifest({ postgres: readFileSync(join(dataDir, 'PG_VERSION'), 'utf8').trim(), migration, masterKeys });
}

/** Snapshots being written or sent by this process (a snapshot directory not among them is a leftover). */
const active = new Set<string>();

/**
 * A consistent copy of a running embedded database's files and what they hold; `dispose()` removes it.
 * `heldMs` is how long statements waited for the copy (the checkpoint before it not included).
 */
export type Snapshot = { dir: string; manifest: BackupManifest; heldMs: number; dispose(): void };

/**
 * Copies the files of the database that `pglite` runs on `dataDir`, as they are at one instant
 * (`whileStill`), into a new directory of `DATA_DIR/backup-snapshots`: statements wait only for the
 * copy, not while the backup is sent. PGlite's `dumpDataDir()` takes the same lock, but reads the
 * whole directory into memory and compresses it there (docs/backups.md). The copy sits beside the
 * data, on the disk that has room for it, and is a reflink where the file system has them.
 */
export async function snapshotDatabase(pglite: PGlite, dataDir: string): Promise<Snapshot> {
  const parent = join(dataDir, SNAPSHOTS_DIR);
  // Counted as active before it exists: another backup's clean-up never takes it for a leftover.
  const dir = join(parent, `snapshot-${randomUUID()}`);
  active.add(dir);
  const dispose = () => {
    active.delete(dir);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await mkdir(parent, { recursive: true, mode: 0o700 });
    removeLeftovers(parent);
    await mkdir(dir, { mode: 0o700 });
    let heldMs = 0;
    const manifest = await whileStill(pglite, dataDir, async (tx, isPart) => {
      const heldSince = performance.now();
      const filter = (source: string) => isPart(relative(dataDir, source));
      // Synchronous: every request of this process waits for the database meanwhile anyway, and it is
      // the faster copy (than fs.promises.cp; figures: docs/performance.md).
      for (const name of readdirSync(dataDir).filter((name) => isPart(name))) {
        cpSync(join(dataDir, name), join(dir, name), { recursive: true, filter, mode: constants.COPYFILE_FICLONE });
      }
      const described = await describeDatabase(tx, dataDir);
      heldMs = performance.now() - heldSince;
      return described;
    });
    return { dir, manifest, heldMs, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}

/** Removes snapshots that no backup of this process is sending (left by one that was killed). */
function removeLeftovers(parent: string) {
  for (const name of readdirSync(parent)) {
    const path = join(parent, name);
    if (!active.has(path)) rmSync(path, { recursive: true, force: true });
  }
}
