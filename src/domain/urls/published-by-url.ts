import { z } from 'zod';
import type { Context } from '../../kernel/context.js';
import { parseInput } from '../../kernel/validation.js';
import type { TokenScope } from '../../kernel/token-scope.js';
import { DEFAULT_READ, pageAtPath, spaceContent } from '../content/index.js';
import { siteSpacePublishedUrl } from '../sites/index.js';
import { issueViewerApiToken } from '../users/index.js';
import { parseUrl } from './addresses.js';
import { orNothing, readableSiteAddress } from './access.js';

/** How long the lookup's API token works: "short-lived", as 0.202.0 says. */
export const LOOKUP_TOKEN_SECONDS = 3600;

/** 0.202.0's SiteVisitorPayload: checked for its shape (it decides nothing here, see resolvePublishedUrl). */
const VisitorPayload = z.object({
  visitor: z
    .object({
      type: z.enum(['human', 'agent'], { error: 'must be human or agent' }).optional(),
      jwtToken: z.string({ error: 'must be a string' }).max(8192, { error: 'must be at most 8192 characters' }).optional(),
      unsignedClaims: z.record(z.string(), z.unknown(), { error: 'must be an object of claims' }).optional(),
    })
    .strict()
    // Left out, not null: 0.202.0's payload is no nullable field.
    .optional(),
});

/** A published URL resolved (0.202.0's PublishedSiteContent), and what the token it carries is limited to. */
export type PublishedLookup = {
  site: string;
  siteSection: string | null;
  siteSpace: string;
  space: string;
  organization: string;
  pathname: string;
  basePath: string;
  siteBasePath: string;
  complete: boolean;
  canonicalUrl: string;
  shareKey: string | null;
};

const pathOf = (segments: string[]) => `/${segments.map(encodeURIComponent).join('/')}${segments.length ? '/' : ''}`;

/**
 * A published URL of a site of this server resolved to its site, section, site space, space and page
 * path (site-addresses.ts), for a caller who may read them (access.ts): the page must exist in the
 * space's main content. `visitor` (0.202.0's payload) is checked but decides nothing: access is the
 * caller's, or the URL's share key's, and conditions are not evaluated when resolving.
 */
export async function resolvePublishedUrl(ctx: Context, raw: string, visitor?: unknown): Promise<PublishedLookup> {
  const url = parseUrl(raw);
  parseInput(VisitorPayload, { visitor });
  const place = await readableSiteAddress(ctx, url);
  const pathname = place.pagePath.join('/');
  if (pathname) await orNothing(pageAtPath(ctx, await spaceContent(ctx, place.space, DEFAULT_READ), pathname));
  const published = siteSpacePublishedUrl(place.site, place.section, place.siteSpace, ctx.config);
  return {
    site: place.site.id,
    siteSection: place.section?.id ?? null,
    siteSpace: place.siteSpace.id,
    space: place.space.id,
    organization: place.site.organization,
    pathname,
    basePath: pathOf([...place.siteSegments, ...place.levelSegments]),
    siteBasePath: pathOf(place.siteSegments),
    complete: place.complete,
    canonicalUrl: pathname ? `${published}/${pathname}` : published,
    shareKey: place.shareKey,
  };
}

/**
 * The lookup's API token: a token of the caller, limited to the site's organization (or to the
 * organization the caller's own token is limited to), capped at `read`, expiring in an hour (or when
 * the caller's token does, if sooner). It is listed among the caller's tokens and may be revoked.
 */
export async function lookupToken(ctx: Context, lookup: PublishedLookup): Promise<string> {
  const own = ctx.viewer!.scope;
  const hour = new Date(ctx.clock.now().getTime() + LOOKUP_TOKEN_SECONDS * 1000);
  const scope: TokenScope = {
    organization: own?.organization ?? lookup.organization,
    role: 'read',
    expiresAt: own?.expiresAt && own.expiresAt < hour ? own.expiresAt : hour,
  };
  return (await issueViewerApiToken(ctx, 'apiToken', `published content of site ${lookup.site}`, scope)).token;
}
