import emojiRegex from 'emoji-regex';
import { z } from 'zod';

const singleEmoji = new RegExp(`^(?:${emojiRegex().source})$`);

/** The emoji spelled by hex code points ("1f389", "1f44d-1f3fd"), or null when they spell none. */
export function emojiOfCodePoints(value: string): string | null {
  if (!/^[0-9a-f]{4,6}(-[0-9a-f]{4,6})*$/i.test(value)) return null;
  const codePoints = value.split('-').map((hex) => parseInt(hex, 16));
  if (codePoints.some((cp) => cp > 0x10ffff)) return null;
  const decoded = String.fromCodePoint(...codePoints);
  return singleEmoji.test(decoded) ? decoded : null;
}

/** An emoji character (sequence) or its code points in hex, as the reference accepts ("1f389"). */
export const emoji = z
  .string()
  .max(50, { error: 'must be at most 50 characters' })
  .refine((value) => singleEmoji.test(value) || emojiOfCodePoints(value) !== null, {
    error: 'must be a single emoji or its hex code point',
  });
