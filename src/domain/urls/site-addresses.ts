import sql, { type Sql } from 'sql-template-tag';
import { readRows } from '../../db/statements.js';
import type { Context } from '../../kernel/context.js';
import type { SiteRow, SiteSectionRow, SiteSpaceRow } from '../sites/index.js';
import { segmentsBelow } from './addresses.js';

/**
 * Where a published URL lands in a site: the site (by `PUBLIC_URL/sites/<id>` or its custom hostname,
 * then its basename), its section and site space (each named by its path, or the default), and the
 * rest of the path, a page's.
 */
export type SiteAddress = {
  site: SiteRow;
  section: SiteSectionRow | null;
  siteSpace: SiteSpaceRow;
  /** The URL's segments that name the site (its prefix, basename included), the section and the site space. */
  siteSegments: string[];
  levelSegments: string[];
  /** The page path: the segments after the site space's. */
  pagePath: string[];
  /** True when the URL named the site space (and its section), so no further site segment can come. */
  complete: boolean;
};

/** How the URL names its site: by id under this server's public URL, or by a custom hostname. */
function siteKey(url: URL, publicUrl: string): { where: Sql; segments: string[]; prefix: string[] } | null {
  const below = segmentsBelow(url, publicUrl);
  if (below && below[0] === 'sites' && below.length >= 2) {
    const prefix = segmentsBelow(new URL(publicUrl), new URL(publicUrl).origin) ?? [];
    return { where: sql`s.id = ${below[1]}`, segments: below.slice(2), prefix: [...prefix, 'sites', below[1]] };
  }
  const all = segmentsBelow(url, url.origin);
  if (!all) return null;
  return { where: sql`s.hostname = ${url.host}`, segments: all, prefix: [] };
}

/**
 * The site a URL names, in one statement through the primary key or the hostname's index: among the
 * sites it may be, the one whose basename is the longest prefix of the path (a site without one
 * matches any path).
 */
async function siteOf(ctx: Context, url: URL): Promise<{ site: SiteRow; siteSegments: string[]; rest: string[] } | null> {
  const key = siteKey(url, ctx.config.publicUrl);
  if (!key) return null;
  const path = key.segments.join('/');
  const [found] = await readRows<{ id: string }>(
    ctx.em,
    sql`select s.id from site s where ${key.where}
      and (coalesce(s.basename, '') = '' or ${path} = s.basename or left(${path}, length(s.basename) + 1) = s.basename || '/')
      order by length(coalesce(s.basename, '')) desc, s.id limit 1`,
  );
  const site = found ? await ctx.loaders.site.load(found.id) : null;
  if (!site) return null;
  const basename = site.basename ? site.basename.split('/') : [];
  return { site, siteSegments: [...key.prefix, ...basename], rest: key.segments.slice(basename.length) };
}

/** A section named by the first segment, a site space by the second in it, or by the first at the root level: unique index, then one section's site spaces. */
async function levelsNamed(ctx: Context, siteId: string, [first, second]: string[]) {
  const [row] = await readRows<{ section: string | null; inSection: string | null; atRoot: string | null }>(
    ctx.em,
    sql`select
      (select x.id from site_section x where x.site_id = ${siteId} and x.path = ${first ?? ''}) as "section",
      (select p.id from site_section x join site_space p on p.section_id = x.id
        where x.site_id = ${siteId} and x.path = ${first ?? ''} and p.path = ${second ?? ''} order by p.position, p.id limit 1) as "inSection",
      (select p.id from site_space p where p.site_id = ${siteId} and p.section_id is null and p.path = ${first ?? ''}
        order by p.position, p.id limit 1) as "atRoot"`,
  );
  return row;
}

const defaultIn = (siteSpaces: readonly SiteSpaceRow[], named: string | null | undefined) => siteSpaces.find((s) => s.id === named) ?? siteSpaces[0] ?? null;

/**
 * Resolves a published URL to its place in a site, or null when it names no site space of this server
 * (another host, an unknown site, a basename that does not match, a site without site spaces). The
 * levels the URL leaves out are the defaults: the site's default section, the section's (or the root
 * level's) default site space. Access is not judged here.
 */
export async function siteAddress(ctx: Context, url: URL): Promise<SiteAddress | null> {
  const named = await siteOf(ctx, url);
  if (!named) return null;
  const { site, siteSegments, rest } = named;
  const levels = await levelsNamed(ctx, site.id, rest);
  let section: SiteSectionRow | null = null;
  let siteSpace: SiteSpaceRow | null = null;
  let used = 0;
  if (levels.section) {
    section = await ctx.loaders.siteSection.load(levels.section);
    siteSpace = levels.inSection
      ? await ctx.loaders.siteSpace.load(levels.inSection)
      : defaultIn(await ctx.loaders.siteSpacesBySection.load(levels.section), section?.defaultSiteSpace);
    used = levels.inSection ? 2 : 1;
  } else if (levels.atRoot) {
    siteSpace = await ctx.loaders.siteSpace.load(levels.atRoot);
    used = 1;
  } else {
    section = await ctx.loaders.defaultSection.load(site.id);
    const candidates = section
      ? await ctx.loaders.siteSpacesBySection.load(section.id)
      : (await ctx.loaders.siteSpacesBySite.load(site.id)).filter((s) => !s.section);
    siteSpace = defaultIn(candidates, section ? section.defaultSiteSpace : site.defaultSiteSpace);
  }
  if (!siteSpace) return null;
  return {
    site,
    section,
    siteSpace,
    siteSegments,
    levelSegments: rest.slice(0, used),
    pagePath: rest.slice(used),
    complete: used === (section ? 2 : 1),
  };
}
