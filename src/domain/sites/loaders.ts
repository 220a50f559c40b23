import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityName } from '@mikro-orm/core';
import sql from 'sql-template-tag';
import { columnOf, jsonTupleOf, readRows, rowsOf, rowsWhereIn, tableOf } from '../../db/statements.js';
import { countsStatement } from '../../db/row-counts.js';
import { batchLoader, groupLoader, Loader, rowLoader } from '../../kernel/loader.js';
import { ShareLink, Site, SiteAdaptiveSchema, SiteSection, SiteSectionGroup, SiteSpace, type SiteRow, type SiteSectionRow } from './entities.js';
import { viewerHoldsRoleIn } from '../../auth/visibility.js';
import type { Viewer } from '../../kernel/viewer.js';
import { answersByKey } from '../../db/answers-by-key.js';
import { readSiteStructures, type SiteStructureRows, type StructureShapes } from './published/structure.js';

const byPosition = { position: 'asc', id: 'asc' } as const;

export function siteLoaders(em: EntityManager, viewer: Viewer | null) {
  const siteSpacesBySection = groupLoader(
    (ids: string[]) => rowsWhereIn(em, SiteSpace, 'section', ids, byPosition),
    (s) => s.section!,
  );
  const sectionsByGroup = groupLoader(
    (ids: string[]) => rowsWhereIn(em, SiteSection, 'sectionGroup', ids, byPosition),
    (s) => s.sectionGroup!,
  );
  /**
   * Each site's default section: the one it names, else its first in navigation order (the `nav_key` the
   * database keeps), one index lookup per site.
   */
  const defaultSection = rowLoader(
    async (siteIds: string[]) => {
      const section = (property: string) => columnOf(em, SiteSection, property);
      const [{ rows }] = await readRows<{ rows: unknown[][] }>(
        em,
        sql`select coalesce(json_agg(d.row), '[]') as "rows" from unnest(${siteIds}::varchar[]) as k(id) cross join lateral (
        select ${jsonTupleOf(em, SiteSection, 'x')} as row from ${tableOf(em, SiteSection)} x join ${tableOf(em, Site)} s on s.id = x.${section('site')}
        where x.${section('site')} = k.id
        order by coalesce(x.id = s.${columnOf(em, Site, 'defaultSection')}, false) desc, x.${section('navKey')}, x.id limit 1) d`,
      );
      return rowsOf<SiteSectionRow>(em, SiteSection, rows);
    },
    (s) => s.site,
  );
  const siteSpaceCount = batchLoader(async (siteIds: string[]) => {
    const statement = countsStatement('site_spaces_of_site', siteIds);
    const counted = await readRows<{ key: string; count: string }>(em, statement);
    const bySite = new Map(counted.map((row) => [row.key, Number(row.count)]));
    return siteIds.map((id) => bySite.get(id) ?? 0);
  });

  /** Structures of sites as a selection asks for them, a loader per selection (published/structure.ts). */
  const structures = new Map<string, Loader<string, SiteStructureRows | null>>();
  const structureOf = (shapes: StructureShapes) => {
    let loader = structures.get(shapes.id);
    if (!loader)
      structures.set(
        shapes.id,
        (loader = rowLoader(
          (siteIds: string[]) => readSiteStructures(em, siteIds, shapes),
          (s) => s.site,
        )),
      );
    return loader;
  };
  // Lists are plain rows (never changed: changes load entities and clear these loaders afterwards).
  const bySite = <T extends { site: string }>(entity: EntityName<T>) =>
    groupLoader(
      (ids: string[]) => rowsWhereIn(em, entity, 'site', ids, byPosition as never),
      (row) => row.site,
    );
  return {
    /** A site's structure, read as `shapes` say (one statement per selection and level, whatever the site's size). */
    structureOf,
    /**
     * Sites as the database writes their answers, by selection (sites/site/reads.ts), each with its row
     * for the guard; answers only for sites the viewer holds a role in the organization of (the guard's rule).
     */
    siteAnswerOf: answersByKey<SiteRow>(em, 'Site', (site) => viewerHoldsRoleIn(viewer, sql`${site}.organization_id`)),
    /** Sites as plain rows (read by every site request); a change loads the site's entity itself. */
    site: rowLoader(
      (ids: string[]) => rowsWhereIn(em, Site, 'id', ids),
      (s) => s.id,
    ),
    /** Sections as plain rows (a change loads the section's entity itself). */
    siteSection: rowLoader(
      (ids: string[]) => rowsWhereIn(em, SiteSection, 'id', ids),
      (s) => s.id,
    ),
    /** Sections of each site by position (top-level and grouped sections share one ordering per parent). */
    sectionsBySite: bySite(SiteSection),
    /** Sections of each group by position. */
    sectionsByGroup,
    /** Section groups as plain rows. */
    siteSectionGroup: rowLoader(
      (ids: string[]) => rowsWhereIn(em, SiteSectionGroup, 'id', ids),
      (g) => g.id,
    ),
    groupsBySite: bySite(SiteSectionGroup),
    /** Site spaces as plain rows. */
    siteSpace: rowLoader(
      (ids: string[]) => rowsWhereIn(em, SiteSpace, 'id', ids),
      (s) => s.id,
    ),
    /** Site spaces of each site by position within their section (or root level). */
    siteSpacesBySite: bySite(SiteSpace),
    /** Site spaces of each section by position. */
    siteSpacesBySection,
    /** The number of each site's site spaces, which the database keeps. */
    siteSpaceCount,
    defaultSection,
    /** Site spaces that publish each space. */
    siteSpacesBySpace: groupLoader(
      (spaceIds: string[]) => em.find(SiteSpace, { space: { $in: spaceIds } }),
      (s) => s.space,
    ),
    shareLinkByKey: rowLoader(
      (keys: string[]) => em.find(ShareLink, { key: { $in: keys } }),
      (l) => l.key,
    ),
    adaptiveSchema: rowLoader(
      (siteIds: string[]) => em.find(SiteAdaptiveSchema, { site: { $in: siteIds } }),
      (a) => a.site,
    ),
  };
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof siteLoaders> {}
}
