import { generateKeyBetween } from 'fractional-indexing';
import { badRequest, conflict } from '../graphql/errors.js';

/** An item with a fractional ordering key among its siblings. */
export type Ordered = { id: string; position: string };

export function byPosition(a: Ordered, b: Ordered): number {
  return a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function between(a: string | null, b: string | null): string {
  try {
    return generateKeyBetween(a, b);
  } catch {
    throw conflict('position: the siblings were reordered concurrently; try again');
  }
}

/**
 * The ordering key for an item placed among `siblings` (sorted, without the item itself): at the end
 * by default, or just before / after the sibling whose id is given. `field` names the pointer in
 * error messages. Keys are fractional, so no other row is renumbered.
 */
export function placeAmong(siblings: Ordered[], place: { before?: string | null; after?: string | null }, field = 'position'): string {
  const indexOf = (id: string, which: 'before' | 'after') => {
    const index = siblings.findIndex((s) => s.id === id);
    if (index < 0) throw badRequest(`${field}.${which}: "${id}" is not a sibling of the item`);
    return index;
  };
  if (place.before && place.after) {
    const after = indexOf(place.after, 'after');
    const before = indexOf(place.before, 'before');
    if (before !== after + 1) throw badRequest(`${field}: "after" and "before" must be adjacent siblings, in that order`);
    return between(siblings[after]!.position, siblings[before]!.position);
  }
  if (place.before) {
    const index = indexOf(place.before, 'before');
    return between(siblings[index - 1]?.position ?? null, siblings[index]!.position);
  }
  if (place.after) {
    const index = indexOf(place.after, 'after');
    return between(siblings[index]!.position, siblings[index + 1]?.position ?? null);
  }
  return between(siblings[siblings.length - 1]?.position ?? null, null);
}
