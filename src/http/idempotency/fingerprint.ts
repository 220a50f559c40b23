import { createHash } from 'node:crypto';

/** JSON with every object's keys in order, so that the same body sent with its fields in another order is the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A body as JSON reads it (a route that takes bytes has them as a Buffer): bytes that are no JSON count
 * as they are. No body reads as `{}`, as the doors read it (docs/behaviour/conventions.md).
 */
function canonicalBody(body: unknown): string {
  if (body === undefined || (Buffer.isBuffer(body) && body.length === 0)) return '{}';
  if (!Buffer.isBuffer(body)) return canonicalJson(body);
  try {
    return canonicalJson(JSON.parse(body.toString('utf8')));
  } catch {
    return `bytes:${body.toString('base64')}`;
  }
}

/**
 * What "the same request" is for a key: SHA-256 of the method, the path with its query string, and
 * the canonical body (its JSON with object keys sorted and no whitespace between tokens).
 */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([method, path, canonicalBody(body)]))
    .digest('hex');
}
