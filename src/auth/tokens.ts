import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'dp_';

/** A new API token secret: 256 random bits. Only its hash is ever stored. */
export function generateTokenSecret(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The secret of an `Authorization: Bearer <secret>` header, or null when absent; malformed → undefined. */
export function bearerSecret(header: string | undefined): string | null | undefined {
  if (header === undefined || header === '') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}
