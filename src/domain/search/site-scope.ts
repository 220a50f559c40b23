import { z } from 'zod';
import type { Context } from '../../kernel/context.js';
import { badRequest } from '../../kernel/errors.js';
import { byPosition } from '../../kernel/ordering.js';
import { parseInput } from '../../kernel/validation.js';
import type { SiteRow, SiteSpaceRow } from '../sites/index.js';

/*
 * Which spaces a site search looks in (0.202.0's SiteSearchScope, and the deprecated `mode` forms it
 * still accepts). A site's default content is the default site space of each section (a section
 * without one: its first), or for a site without sections its root default (else its first root site
 * space). This server keeps no language per site space, so `currentSiteSpace` matches no others.
 */

const id = z.string().min(1).max(64);
const Scope = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('default'), currentSiteSpace: id.optional(), restrictTo: z.enum(['currentSiteSpace', 'otherSiteSpaces']).optional() }).strict(),
  z.object({ mode: z.literal('specific'), siteSpaceIds: z.array(id).min(1).max(100) }).strict(),
  z.object({ mode: z.literal('all') }).strict(),
]);
const Input = z.object({
  query: z.unknown(),
  scope: Scope.optional(),
  mode: z.enum(['specific', 'current', 'all']).optional(),
  siteSpaceIds: z.array(id).min(1).max(100).optional(),
  siteSpaceId: id.optional(),
});
type SiteSearchScope = z.infer<typeof Scope>;

/** The scope the body asks for: `scope`, else the deprecated forms (`siteSpaceIds`, `mode: current` with `siteSpaceId`, `mode: all`). */
function scopeOf(input: z.infer<typeof Input>): SiteSearchScope {
  const { scope, mode, siteSpaceIds, siteSpaceId } = input;
  if (scope) {
    if (mode || siteSpaceIds || siteSpaceId) throw badRequest('scope: give either scope or the deprecated mode, not both');
    if (scope.mode === 'default' && scope.restrictTo && !scope.currentSiteSpace) throw badRequest('scope.restrictTo: needs scope.currentSiteSpace');
    return scope;
  }
  if (siteSpaceIds && (mode ?? 'specific') === 'specific' && !siteSpaceId) return { mode: 'specific', siteSpaceIds };
  if (mode === 'current' && siteSpaceId && !siteSpaceIds) return { mode: 'default', currentSiteSpace: siteSpaceId };
  if (mode === 'all' && !siteSpaceIds && !siteSpaceId) return { mode: 'all' };
  throw badRequest('scope: required (or the deprecated mode with its site spaces)');
}

/** The site's default content: one site space per section, or the root default. */
async function defaultSiteSpaces(ctx: Context, site: SiteRow, siteSpaces: SiteSpaceRow[]): Promise<SiteSpaceRow[]> {
  const sections = await ctx.loaders.sectionsBySite.load(site.id);
  const firstOf = (section: string | null, preferred: string | null) => {
    const candidates = siteSpaces.filter((s) => s.section === section).sort(byPosition);
    return candidates.find((s) => s.id === preferred) ?? candidates[0];
  };
  const chosen = sections.length
    ? sections.map((section) => firstOf(section.id, section.defaultSiteSpace ?? null))
    : [firstOf(null, site.defaultSiteSpace ?? null)];
  return chosen.filter((s): s is SiteSpaceRow => !!s);
}

/** The ids of the spaces a site search covers, from its body; a site space that is not the site's is a 400. */
export async function siteSearchSpaces(ctx: Context, site: SiteRow, body: unknown): Promise<string[]> {
  const scope = scopeOf(parseInput(Input, body ?? {}));
  const siteSpaces = await ctx.loaders.siteSpacesBySite.load(site.id);
  const ofSite = (field: string, ids: string[]) =>
    ids.map((siteSpaceId) => {
      const siteSpace = siteSpaces.find((s) => s.id === siteSpaceId);
      if (!siteSpace) throw badRequest(`${field}: no site space "${siteSpaceId}" in this site`);
      return siteSpace;
    });
  let chosen: SiteSpaceRow[];
  if (scope.mode === 'all') chosen = siteSpaces;
  else if (scope.mode === 'specific') chosen = ofSite('scope.siteSpaceIds', scope.siteSpaceIds);
  else {
    const current = scope.currentSiteSpace ? ofSite('scope.currentSiteSpace', [scope.currentSiteSpace]) : [];
    const defaults = await defaultSiteSpaces(ctx, site, siteSpaces);
    if (scope.restrictTo === 'currentSiteSpace') chosen = current;
    else if (scope.restrictTo === 'otherSiteSpaces') chosen = defaults.filter((s) => s.id !== scope.currentSiteSpace);
    else chosen = [...current, ...defaults];
  }
  return [...new Set(chosen.map((s) => s.space))];
}
