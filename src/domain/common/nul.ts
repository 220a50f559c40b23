/** What a string holding U+0000 is told: PostgreSQL's text cannot hold that character. */
export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

/**
 * Where the first string holding U+0000 is in a JSON value (object keys included), as path parts, or
 * null when there is none. Every string a caller sends reaches PostgreSQL somewhere; this is the one
 * rule that keeps the character out, at the boundary of both doors.
 */
export function nulAt(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulAt(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...path, key];
      const found = nulAt(child, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}
