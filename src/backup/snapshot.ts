import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { constants, cp, mkdir } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { isBackedUp, newManifest, SNAPSHOTS_DIR, type BackupManifest } from './archive.js';

/** What a backup says of the embedded database it holds (read from the database, before its files are taken). */
export async function describeDatabase(pglite: PGlite, dataDir: string): Promise<BackupManifest> {
  const exists = async (table: string) => (await pglite.query<{ found: boolean }>('select to_regclass($1) is not null as found', [table])).rows[0]!.found;
  const migration = (await exists('mikro_orm_migrations'))
    ? ((await pglite.query<{ name: string }>('select name from mikro_orm_migrations order by id desc limit 1')).rows[0]?.name ?? null)
    : null;
  // Sealed values name their key (sealing.ts): `sealed:<format>:<key id>:<payload>`.
  const masterKeys = (await exists('server_secret'))
    ? (await pglite.query<{ key: string }>(`select distinct split_part(value, ':', 3) as key from server_secret where value like 'sealed:%' order by 1`)).rows.map((row) => row.key)
    : [];
  return newManifest({ postgres: readFileSync(join(dataDir, 'PG_VERSION'), 'utf8').trim(), migration, masterKeys });
}

/** Snapshots being written or sent by this process (a snapshot directory not among them is a leftover). */
const active = new Set<string>();

/** A consistent copy of a running embedded database's files, removed by `dispose()`. */
export type Snapshot = { dir: string; dispose(): void };

/**
 * Copies the files of the database that `pglite` runs on `dataDir` into a new directory of
 * `DATA_DIR/backup-snapshots`, consistently: PGlite is one connection whose every statement runs under
 * its query lock, so nothing writes the files while this holds it, and the copy is the state of the
 * database at one instant, as after a crash at that instant: opening it replays the write-ahead log,
 * which holds every committed transaction. A checkpoint first keeps that replay short. Statements wait
 * while the files are copied (the same lock as PGlite's `dumpDataDir()`, which would read the whole
 * directory into memory instead, see docs/backups.md); the copy is a reflink where the file system
 * has them. The copy sits beside the data, on the disk that has room for it.
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
    await pglite.exec('checkpoint');
    await pglite.runExclusive(async () => {
      for (const name of readdirSync(dataDir).filter(isBackedUp)) {
        await cp(join(dataDir, name), join(dir, name), { recursive: true, mode: constants.COPYFILE_FICLONE, preserveTimestamps: true });
      }
    });
    return { dir, dispose };
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
