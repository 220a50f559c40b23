import { generateNKeysBetween } from 'fractional-indexing';
import { badRequest, conflict } from './errors.js';

/** An item with a fractional ordering key among its siblings. */
export type Ordered = { id: string; position: string };

/** The order siblings are shown in: by position, then by id (which only matters for equal positions). */
export function byPosition(a: Ordered, b: Ordered): number {
  return a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** `n` ordered keys strictly between two distinct keys (null: no bound on that side). */
export function keysBetween(a: string | null, b: string | null, n: number): string[] {
  try {
    return generateNKeysBetween(a, b, n);
  } catch {
    // Only keys that are not fractional keys at all get here (equal neighbours are skipped by callers).
    throw conflict('position: the siblings were reordered concurrently; try again');
  }
}

/** The key strictly between two distinct keys (null: no bound on that side). */
export const keyBetween = (a: string | null, b: string | null): string => keysBetween(a, b, 1)[0];

/**
 * The ordering key for an item placed among `siblings` (sorted, without the item itself): at the end
 * by default, or just before / after the sibling whose id is given. `field` names the pointer in
 * error messages. Keys are fractional, so no other row is renumbered. Siblings that share a position
 * (written before placements were serialized) cannot have a key between them: the item then goes
 * next to the whole run of equal positions, on the side asked for, rather than failing.
 */
export function placeAmong(siblings: Ordered[], place: { before?: string | null; after?: string | null }, field = 'position'): string {
  const indexOf = (id: string, which: 'before' | 'after') => {
    const index = siblings.findIndex((s) => s.id === id);
    if (index < 0) throw badRequest(`${field}.${which}: "${id}" is not a sibling of the item`);
    return index;
  };
  /** The nearest position before (step -1) or after (step 1) index `i` that differs from its own. */
  const distinctFrom = (i: number, step: 1 | -1): string | null => {
    for (let j = i + step; j >= 0 && j < siblings.length; j += step) {
      if (siblings[j].position !== siblings[i].position) return siblings[j].position;
    }
    return null;
  };
  const beforeIndex = (index: number) => keyBetween(distinctFrom(index, -1), siblings[index].position);
  if (place.before && place.after) {
    const after = indexOf(place.after, 'after');
    const before = indexOf(place.before, 'before');
    if (before !== after + 1) throw badRequest(`${field}: "after" and "before" must be adjacent siblings, in that order`);
    return beforeIndex(before);
  }
  if (place.before) return beforeIndex(indexOf(place.before, 'before'));
  if (place.after) {
    const index = indexOf(place.after, 'after');
    return keyBetween(siblings[index].position, distinctFrom(index, 1));
  }
  return keyBetween(siblings[siblings.length - 1]?.position ?? null, null);
}
