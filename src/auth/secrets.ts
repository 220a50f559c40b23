import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import type { Clock } from '../kernel/clock.js';
import type { Orm } from '../kernel/database.js';
import { executeReturning } from '../db/statements.js';
import { ServerSecret } from './entities.js';
import type { Logger } from '../kernel/logger.js';
import { forgetCreatedKeyFile, MasterKeyError, type Keyring } from './master-key.js';
import { seal, storedValueOf, unseal } from './sealing.js';

/*
 * Server-wide secrets (the integration-secrets key, the SAML signing key, the download-URL signing
 * key, the visitor-claims key), made on first use and shared by every instance through the
 * `server_secret` table, where each is sealed under the master key (sealing.ts, master-key.ts).
 */

// The keys of each database's server (tests run several in one process), set once its values are sealed.
const keyrings = new WeakMap<object, Keyring>();

function keyringOf(em: EntityManager): Keyring {
  const keyring = keyrings.get(em.config);
  if (!keyring) throw new Error('Server secrets are read after the start has sealed them (sealStoredSecrets)');
  return keyring;
}

function opened(keyring: Keyring, name: string, value: string): string {
  const result = unseal(keyring, name, value);
  if ('problem' in result) throw new Error(`Server secret ${result.problem}`);
  return result.text;
}

/**
 * The stored text of a named server secret, made by `generate` on first use. Concurrent first uses
 * race on the primary key and all end up with the stored value.
 */
export async function storedSecret(em: EntityManager, clock: Clock, name: string, generate: () => string | Promise<string>): Promise<string> {
  const keyring = keyringOf(em);
  const existing = await em.findOne(ServerSecret, { name });
  if (existing) return opened(keyring, name, existing.value);
  await em
    .createQueryBuilder(ServerSecret)
    .insert({ name, value: seal(keyring.current, name, await generate()), createdAt: clock.now() })
    .onConflict('name')
    .ignore()
    .execute();
  return opened(keyring, name, (await em.findOneOrFail(ServerSecret, { name }, { refresh: true })).value);
}

/** A named 256-bit secret, created on first use. */
export async function serverSecret(em: EntityManager, clock: Clock, name: string): Promise<Buffer> {
  return Buffer.from(await storedSecret(em, clock, name, () => randomBytes(32).toString('base64')), 'base64');
}

/** Arbitrary advisory-lock key (with the schema's hash): instances starting at once seal in turn. */
const SEALING_LOCK = 734_112_908;

/**
 * Brings every stored secret under the current key before anything reads one: values in clear (stored
 * before sealing) are sealed, values sealed under a previous key are re-sealed. A value that no
 * configured key opens refuses the start, naming the problem, and nothing changes: a new secret made
 * over it would break every integration and SAML provider that trusts the old one. Instances starting
 * at once take turns on an advisory lock, so each value is sealed once.
 */
export async function sealStoredSecrets(orm: Orm, keyring: Keyring, logger: Logger): Promise<void> {
  const { sealed, resealed } = await orm.em.fork().transactional(async (tx) => {
    await executeReturning(tx, sql`select pg_advisory_xact_lock(${SEALING_LOCK}, hashtext(current_schema()))`);
    const sealed: string[] = [];
    const resealed: string[] = [];
    const problems: string[] = [];
    for (const row of await tx.find(ServerSecret, {}, { orderBy: { name: 'asc' } })) {
      if (!storedValueOf(row.value).sealed) {
        row.value = seal(keyring.current, row.name, row.value);
        sealed.push(row.name);
        continue;
      }
      const result = unseal(keyring, row.name, row.value);
      if ('problem' in result) problems.push(result.problem);
      else if (result.keyId !== keyring.current.id) {
        row.value = seal(keyring.current, row.name, result.text);
        resealed.push(row.name);
      }
    }
    if (problems.length) {
      // The next start, with the key restored, finds things as this one did.
      forgetCreatedKeyFile(keyring);
      throw new MasterKeyError(refusal(keyring, problems));
    }
    return { sealed, resealed };
  });
  if (sealed.length || resealed.length) logger.info({ sealed, resealed, key: keyring.current.id }, 'sealed the server secrets under the current master key');
  keyrings.set(orm.config, keyring);
}

/** Why the start is refused and what to do, on one line. */
function refusal(keyring: Keyring, problems: string[]): string {
  const previous = keyring.previous.length ? ` and SECRET_KEY_PREVIOUS gives ${keyring.previous.map((key) => key.id).join(', ')}` : '';
  const lost = keyring.createdFile
    ? `; ${keyring.createdFile} did not exist: restore the key file backed up with this database (or give its key as SECRET_KEY)`
    : '; start with the key they were sealed with as SECRET_KEY (or as SECRET_KEY_PREVIOUS, to re-seal them under a new SECRET_KEY)';
  return `Server secrets in the database do not open: ${problems.join('; ')}. The current key is ${keyring.current.id} (${keyring.source})${previous}${lost}`;
}
