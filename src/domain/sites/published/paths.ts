import type { Context } from '../../../kernel/context.js';
import { badRequest } from '../../../kernel/errors.js';
import type { SpaceRow } from '../../spaces/index.js';

/** Longest path of a section or a site space (contract §8). */
export const PATH_MAX = 100;

/** A URL segment made of a title: lowercase ASCII letters and digits joined by hyphens, or `fallback`. */
export function slugOf(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents go, their letters stay
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, PATH_MAX)
    .replace(/^-+|-+$/g, '');
  return slug || fallback;
}

/** `base`, or `base-2`, `base-3`… whichever no sibling uses, within the path limit. */
export function uniquePath(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = base.slice(0, PATH_MAX - suffix.length).replace(/-+$/, '') + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The answer for a space named in a request that is missing, of another organization, or unreadable: they look alike, so it leaks nothing. */
export const noReadableSpace = (field: string, spaceId: string) => badRequest(`${field}: no space "${spaceId}" that you can read in the site's organization`);

/**
 * A space that may be published in a site of `organizationId`: live and of that organization. That the
 * caller reads it is the check `readsTheSpace` of the field's guard (auth/checks.ts).
 */
export async function publishableSpace(ctx: Context, organizationId: string, spaceId: string, field: string): Promise<SpaceRow> {
  const space = await ctx.loaders.space.load(spaceId);
  if (!space || space.organization !== organizationId) throw noReadableSpace(field, spaceId);
  if (space.deletedAt) throw badRequest(`${field}: space "${spaceId}" is deleted; restore it first`);
  return space;
}
