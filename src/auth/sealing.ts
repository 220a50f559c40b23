import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Keyring, MasterKey } from './master-key.js';

/*
 * A server secret at rest: `sealed:v1:<key id>:<base64url of IV ‖ ciphertext ‖ tag>`, AES-256-GCM under
 * a master key. The format version and the key id say which key opens it (and name the problem when
 * none does); they are authenticated with the secret's name, so a value moved to another row, or
 * relabelled with another key id, does not open. Values from before sealing (base64 keys, JSON) never
 * contain ':', so they cannot be mistaken for sealed ones.
 */

const PREFIX = 'sealed';
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a stored value is: clear text from before sealing, or sealed (in some format, under some key). */
export type StoredValue = { sealed: false } | { sealed: true; version: string; keyId: string; payload: string };

export function storedValueOf(value: string): StoredValue {
  if (!value.startsWith(`${PREFIX}:`)) return { sealed: false };
  const [, version = '', keyId = '', payload = ''] = value.split(':');
  return { sealed: true, version, keyId, payload };
}

const additionalData = (version: string, keyId: string, name: string) => Buffer.from(`${PREFIX}:${version}:${keyId}:${name}`, 'utf8');

/** The sealed form of the secret `name`'s text under `key`. */
export function seal(key: MasterKey, name: string, text: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(additionalData(VERSION, key.id, name));
  const ciphertext = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return `${PREFIX}:${VERSION}:${key.id}:${Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64url')}`;
}

/** Why a stored value does not open with these keys (one line naming the secret), or the text it seals. */
export function unseal(keyring: Keyring, name: string, value: string): { text: string; keyId: string } | { problem: string } {
  const stored = storedValueOf(value);
  if (!stored.sealed) return { problem: `"${name}" is stored in clear` };
  if (stored.version !== VERSION) return { problem: `"${name}" is sealed in format ${stored.version}, which this version of the server does not read` };
  const key = [keyring.current, ...keyring.previous].find((candidate) => candidate.id === stored.keyId);
  if (!key) return { problem: `"${name}" is sealed with key ${stored.keyId}, which is not configured` };
  const bytes = Buffer.from(stored.payload, 'base64url');
  try {
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('truncated');
    const decipher = createDecipheriv('aes-256-gcm', key.key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(additionalData(stored.version, stored.keyId, name));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    return { text, keyId: key.id };
  } catch {
    return { problem: `"${name}" does not open with key ${key.id}, which it names: the stored value was altered or belongs to another secret` };
  }
}
