import { closeSync, fchmodSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hkdfSync, randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Config } from '../kernel/config.js';
import type { Database } from '../kernel/database.js';
import type { Logger } from '../kernel/logger.js';
import { HOW_TO_MAKE_A_KEY, KEY_FORMAT, keyBytes } from '../kernel/key-text.js';

/*
 * The master key that seals the server secrets stored in the database (see sealing.ts). It is given
 * as SECRET_KEY: 32 or more random bytes, hex or base64 (`openssl rand -base64 32`). Passphrases are
 * not taken: nothing can tell how much entropy one has, and HKDF does not stretch a weak one. The
 * sealing key and the key's public id are both derived from it with HKDF-SHA256, so longer keys
 * work as well and the id reveals nothing of the key.
 */

/** The name of the key file of the embedded mode, in DATA_DIR. */
export const KEY_FILE = 'secret.key';

/** A master key: the AES-256 key that seals and its id, which sealed values name. */
export type MasterKey = { id: string; key: Buffer };

/**
 * The keys of this start: `current` seals, every key opens what it sealed. `source` says where the
 * current key came from (SECRET_KEY or the key file), `createdFile` that the key file was made now.
 */
export type Keyring = { current: MasterKey; previous: MasterKey[]; source: string; createdFile?: string };

/** Refusal to start because of the master key or what it seals, with a message saying what to do. */
export class MasterKeyError extends Error {
  override name = 'MasterKeyError';
}

/** The master key a key text gives; throws a MasterKeyError (without the text) when it is none. */
export function masterKeyOf(text: string, name: string): MasterKey {
  const bytes = keyBytes(text);
  if (!bytes) throw new MasterKeyError(`${name} ${KEY_FORMAT}`);
  const derive = (info: string, length: number) => Buffer.from(hkdfSync('sha256', bytes, Buffer.alloc(0), info, length));
  return { id: derive('server-secret key id', 6).toString('hex'), key: derive('server-secret sealing key v1', 32) };
}

/**
 * The keys to start with. SECRET_KEY when given (with SECRET_KEY_PREVIOUS); else, on a PostgreSQL
 * server, a refusal (every instance must share the key, so none may make its own); else the embedded
 * key file `DATA_DIR/secret.key`, made with mode 0600 on first start.
 */
export function loadKeyring(config: Config, database: Database, logger: Logger): Keyring {
  const previous = config.previousSecretKeys.map((text) => masterKeyOf(text, 'SECRET_KEY_PREVIOUS'));
  if (config.secretKey) return { current: masterKeyOf(config.secretKey, 'SECRET_KEY'), previous, source: 'SECRET_KEY' };
  if ('url' in database) {
    throw new MasterKeyError(`SECRET_KEY is required with DATABASE_URL: ${HOW_TO_MAKE_A_KEY} and give the same value to every instance`);
  }
  const file = join(database.dataDir, KEY_FILE);
  const existing = readKeyFile(file, logger);
  if (existing !== null) return { current: masterKeyOf(existing, file), previous, source: file };
  const created = createKeyFile(file);
  if (created) logger.info({ file }, 'created the master key that seals the server secrets; keep a copy with your backups: they cannot be restored without it');
  return { current: masterKeyOf(readKeyFile(file, logger)!, file), previous, source: file, ...(created ? { createdFile: file } : {}) };
}

/** The key file's text, or null when there is none. */
function readKeyFile(file: string, logger: Logger): string | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (statSync(file).mode & 0o077) logger.warn({ file }, 'the master key file can be read by other users: chmod 600 it');
  return text;
}

/**
 * Writes a new random key to `file`, mode 0600, whole or not at all: written and synced under a
 * temporary name, then linked to its name, which fails if another process made it first. False when
 * one did (its key is the one to use).
 */
function createKeyFile(file: string): boolean {
  mkdirSync(dirname(file), { recursive: true });
  // Named after this process: a leftover of a crashed one with the same pid may be overwritten.
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, `${randomBytes(32).toString('base64')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temporary);
  }
  const directory = openSync(dirname(file), 'r');
  try {
    fsyncSync(directory);
  } finally {
    closeSync(directory);
  }
  return true;
}

/** Removes a key file made at this start (when the start is refused, so that the next one is like this one). */
export function forgetCreatedKeyFile(keyring: Keyring) {
  if (keyring.createdFile) unlinkSync(keyring.createdFile);
}
