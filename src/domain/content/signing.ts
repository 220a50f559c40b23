import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { serverSecret } from '../../auth/secrets.js';
import type { Clock } from '../../kernel/clock.js';

/*
 * Expiring signed URLs of this server (file downloads, PDF exports; src/http/ serves them): whoever holds one may fetch what
 * it names until it expires, without a token. The HMAC key is a server secret kept in the database.
 */

/** How long a signed URL works: until the end of the next full hour (so URLs stay stable within an hour). */
const URL_LIFETIME_MS = 60 * 60 * 1000;

// One signing key per database (tests run several servers in one process), read once.
const signingKeys = new WeakMap<object, Promise<Buffer>>();

function signingKey(em: EntityManager, clock: Clock): Promise<Buffer> {
  const owner = em.config;
  let key = signingKeys.get(owner);
  if (!key) {
    key = serverSecret(em.fork(), clock, 'file-download-urls');
    key.catch(() => signingKeys.delete(owner));
    signingKeys.set(owner, key);
  }
  return key;
}

const signature = (key: Buffer, subject: string, expires: number) => createHmac('sha256', key).update(`${subject}|${expires}`).digest('base64url');

/** The `expires` and `signature` query parameters that make a URL naming `subject` valid for a while. */
export async function signedQuery(em: EntityManager, clock: Clock, subject: string): Promise<string> {
  const expires = (Math.floor(clock.now().getTime() / URL_LIFETIME_MS) + 2) * URL_LIFETIME_MS;
  return `expires=${expires}&signature=${signature(await signingKey(em, clock), subject, expires)}`;
}

/** Why a signed URL's query does not grant `subject` (status and message), or null when it does. */
export async function signatureProblem(em: EntityManager, clock: Clock, subject: string, query: Record<string, unknown>): Promise<[number, string] | null> {
  const expires = Number(query.expires);
  const given = Buffer.from(String(query.signature ?? ''));
  if (!Number.isInteger(expires) || given.length === 0) return [400, 'expires and signature are required'];
  const expected = Buffer.from(signature(await signingKey(em, clock), subject, expires));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return [403, 'Invalid signature'];
  if (expires < clock.now().getTime()) return [403, 'This URL has expired'];
  return null;
}
