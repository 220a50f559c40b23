import { createReadStream, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import sql, { raw, type Sql } from 'sql-template-tag';
import { KEY_FILE, masterKeyOf } from '../auth/master-key.js';
import { DataDirectoryLocked, LOCK_FILE, lockDataDir } from '../db/data-dir-lock.js';
import { migrationsList } from '../db/migrations/index.js';
import { quote } from '../db/statements.js';
import { checkBackup, extractBackup, type BackupManifest } from './archive.js';

/** Refusal to restore, with a message saying why and what to do; nothing was written. */
export class RestoreRefused extends Error {
  override name = 'RestoreRefused';
}

/** The master keys the restored server will start with (as its start reads them: master-key.ts). */
export type RestoreKeys = {
  /** A key file to put into the new directory as its `secret.key` (the backed-up directory's own). */
  keyFile?: string;
  /** SECRET_KEY and SECRET_KEY_PREVIOUS, when the server is given its key that way. */
  secretKey?: string;
  previousSecretKeys: string[];
};

/** What a restore found in the directory it made. */
export type RestoreReport = {
  manifest: BackupManifest;
  counts: { users: number; organizations: number; spaces: number };
  /** Migrations of this version that the backup had not applied yet (the next start applies them). */
  pending: string[];
  /** Migrations in the backup that this version does not know: it comes from a newer version. */
  unknown: string[];
  /** The key file written into the directory, if any. */
  keyWritten?: string;
};

/**
 * Restores a backup (archive.ts) into `target`, a new data directory: absent or empty, and held by no
 * process (it is held by this one until done, so that no server starts on it half-written). The
 * archive is read through once before anything is written: a damaged or incomplete file, or one
 * whose server secrets the configured keys do not open, is refused with the target untouched. Then
 * its files are extracted, the key file copied in, and the database opened (PostgreSQL replays its
 * write-ahead log) and closed cleanly: the directory is ready for `npm start`. On a failure past the
 * check, what was written is removed again.
 */
export async function restoreBackup(file: string, target: string, keys: RestoreKeys): Promise<RestoreReport> {
  if (!existsSync(file)) throw new RestoreRefused(`${file} does not exist`);
  refuseUnlessEmpty(target);
  const available = keyIds(keys);
  const manifest = await checkBackup(createReadStream(file), (manifest) => {
    const missing = manifest.masterKeys.filter((id) => !available.ids.includes(id));
    if (missing.length) throw new RestoreRefused(missingKeys(missing, available.described));
  });

  const existed = existsSync(target);
  let lock;
  try {
    lock = lockDataDir(target, 'cli');
  } catch (error) {
    if (error instanceof DataDirectoryLocked) throw new RestoreRefused(error.message);
    throw error;
  }
  // Filled by someone between the check and the lock? Then it is theirs: refused, and left alone.
  if (readdirSync(target).some((name) => name !== LOCK_FILE)) {
    lock.release();
    throw new RestoreRefused(`${target} is not empty: restore into a new directory`);
  }
  try {
    await extractBackup(createReadStream(file), target);
    let keyWritten: string | undefined;
    if (keys.keyFile) {
      keyWritten = join(target, KEY_FILE);
      writeFileSync(keyWritten, readFileSync(keys.keyFile), { mode: 0o600, flag: 'wx' });
    }
    return { manifest, keyWritten, ...(await openRestored(target)) };
  } catch (error) {
    // The directory was new or empty: nothing of anyone else's is removed.
    if (existed) for (const name of readdirSync(target)) rmSync(join(target, name), { recursive: true, force: true });
    else rmSync(target, { recursive: true, force: true });
    throw error;
  } finally {
    lock.release();
  }
}

/** A target that exists must be an empty directory, or one where a server would not start (held by a process). */
function refuseUnlessEmpty(target: string) {
  if (!existsSync(target)) return;
  if (!statSync(target).isDirectory()) throw new RestoreRefused(`${target} is not a directory`);
  const entries = readdirSync(target);
  if (entries.includes(LOCK_FILE)) {
    // Its holder, if any, says more than "not empty" does.
    try {
      lockDataDir(target, 'cli').release();
    } catch (error) {
      if (error instanceof DataDirectoryLocked) throw new RestoreRefused(error.message);
      throw error;
    }
  }
  if (entries.length) throw new RestoreRefused(`${target} is not empty: restore into a new directory (an empty one, or one that does not exist)`);
}

/** The ids of the keys the restored server will have, and how to name them in a message. */
function keyIds(keys: RestoreKeys): { ids: string[]; described: string } {
  const current = keys.secretKey
    ? { id: masterKeyOf(keys.secretKey, 'SECRET_KEY').id, from: 'SECRET_KEY' }
    : keys.keyFile
      ? { id: masterKeyOf(readKeyText(keys.keyFile), keys.keyFile).id, from: keys.keyFile }
      : undefined;
  const previous = keys.previousSecretKeys.map((text) => masterKeyOf(text, 'SECRET_KEY_PREVIOUS').id);
  const described = [...(current ? [`${current.id} (${current.from})`] : []), ...previous.map((id) => `${id} (SECRET_KEY_PREVIOUS)`)];
  return {
    ids: [...(current ? [current.id] : []), ...previous],
    described: described.length ? `the keys given are ${described.join(', ')}` : 'no key was given',
  };
}

function readKeyText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new RestoreRefused(`the key file ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

const missingKeys = (missing: string[], described: string) =>
  `the backup's server secrets are sealed with master key ${missing.join(', ')}, and ${described}: ` +
  `give the key file of the backed-up data directory (its ${KEY_FILE}) with --key-file, or the key as SECRET_KEY ` +
  '(the server refuses to start without it: see docs/backups.md)';

/** Opens the restored database (recovery runs), reads what it holds, and closes it cleanly. */
async function openRestored(dir: string): Promise<Omit<RestoreReport, 'manifest' | 'keyWritten'>> {
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(dir);
  } catch (error) {
    throw new RestoreRefused(`the restored database does not open: ${(error as Error).message}`);
  }
  try {
    const query = async <T>(statement: Sql) => (await pglite.query<T>(statement.text, statement.values)).rows;
    const exists = async (table: string) => (await query<{ found: boolean }>(sql`select to_regclass(${table}) is not null as found`))[0].found;
    const count = async (table: string) =>
      (await exists(table)) ? Number((await query<{ n: string }>(sql`select count(*) as n from ${raw(quote(table))}`))[0].n) : 0;
    const migrations = (await exists('mikro_orm_migrations')) ? await query<{ name: string }>(sql`select name from mikro_orm_migrations`) : [];
    const applied = new Set(migrations.map((row) => row.name));
    const known = new Set(migrationsList.map((migration) => migration.name));
    return {
      counts: { users: await count('app_user'), organizations: await count('organization'), spaces: await count('space') },
      pending: [...known].filter((name) => !applied.has(name)),
      unknown: [...applied].filter((name) => !known.has(name)),
    };
  } finally {
    await pglite.close();
  }
}
