/* What a master key given as text looks like (SECRET_KEY, the key file): the config checks it without loading keys. */

/** How to make a key, for messages. */
export const HOW_TO_MAKE_A_KEY = 'make one with `openssl rand -base64 32`';

/** What a valid key looks like, for messages. */
export const KEY_FORMAT = `must be 32 or more random bytes in hex or base64 (${HOW_TO_MAKE_A_KEY})`;

const MIN_KEY_BYTES = 32;

/** The bytes of a key given as hex or base64 (standard or URL-safe), or null when it is neither or too short. */
export function keyBytes(text: string): Buffer | null {
  const trimmed = text.trim();
  const readings = [
    /^(?:[0-9a-f]{2})+$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : null,
    /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) ? Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64') : null,
  ];
  return readings.find((bytes) => bytes && bytes.length >= MIN_KEY_BYTES) ?? null;
}

/** True when the text is a key this server accepts. */
export const isMasterKeyText = (text: string) => keyBytes(text) !== null;
