import type { EntityManager } from '@mikro-orm/postgresql';
import type { GraphQLResolveInfo } from 'graphql';
import sql, { empty, join, type Sql } from 'sql-template-tag';
import type { Context } from '../../../kernel/context.js';
import { answerIfBuilt, levelRows, listOf, shapeOf, type Shape } from '../../../db/read-shapes.js';
import { prebuilt } from '../../../kernel/prebuilt-answers.js';
import { batchKeys, columnOf, readRows, tableOf } from '../../../db/statements.js';
import type { ShapeLike } from '../../../kernel/read-models.js';
import { SiteSection, SiteSectionGroup, SiteSpace, type SiteSectionGroupRow, type SiteSectionRow, type SiteSpaceRow } from '../entities.js';

/** What each kind of item of a site's structure is read as: the selection's fragments on that type. */
export type StructureShapes = { readonly section: Shape; readonly group: Shape; readonly siteSpace: Shape; readonly id: string };

/**
 * The shapes of the structure's items that the field being resolved asks for at `path` (its `structure`
 * list): as the answer when the database can build all three.
 */
export function structureShapes(ctx: Context, info: GraphQLResolveInfo, path: readonly string[]): StructureShapes {
  const rows = ['SiteSection', 'SiteSectionGroup', 'SiteSpace'].map((type) => shapeOf(ctx.em, ctx.areas, info, type, path));
  const answers = rows.map((shape) => answerIfBuilt(ctx, shape));
  const [section, group, siteSpace] = answers.every((shape) => shape.answers) ? answers : rows;
  return { section, group, siteSpace, id: `${section.id}|${group.id}|${siteSpace.id}` };
}

/**
 * A site's structure as its items (and what is nested under them) are asked: `topLevel` is its top-level
 * sections and groups by position, `siteSpaces` its root-level site spaces by position, which are its
 * structure when it has no section.
 */
export type SiteStructureRows = {
  site: string;
  hasSections: boolean;
  // Rows with the columns the selection's fields read (the read model sees to it), typed as the rows they stand for.
  topLevel: (SiteSectionRow | SiteSectionGroupRow)[];
  siteSpaces: SiteSpaceRow[];
};

/**
 * The statement of the structures of the sites that `keys` names (a from item `k(id)`): a row per site,
 * its `hasSections`, `topLevel` and `siteSpaces` as JSON (text when the shapes are answers). The Site read
 * model nests it under a site (sites/site/reads.ts), `readSiteStructures` reads it for a batch of sites.
 */
export function siteStructuresStatement(
  em: EntityManager,
  keys: Sql,
  shapes: { readonly section: ShapeLike; readonly group: ShapeLike; readonly siteSpace: ShapeLike },
): Sql {
  const site = (entity: string) => columnOf(em, entity, 'site');
  const section = shapes.section.place('x');
  const group = shapes.group.place('xg');
  const siteSpace = shapes.siteSpace.place('xs');
  const levels = [...section.ctes, ...group.ctes, ...siteSpace.ctes];
  // Each root level is read site by site through the index on its site (as the planner would not
  // always choose for a small table of many tenants' rows).
  const bySite = (rows: Sql) => sql`select r.* from ${keys} cross join lateral (${rows} offset 0) r`;
  return sql`with ${levelRows('x')} as (${bySite(sql`select x.* from ${tableOf(em, SiteSection)} x
        where x.${site('SiteSection')} = k.id and x.${columnOf(em, SiteSection, 'sectionGroup')} is null`)}),
      ${levelRows('xg')} as (${bySite(sql`select xg.* from ${tableOf(em, SiteSectionGroup)} xg where xg.${site('SiteSectionGroup')} = k.id`)}),
      ${levelRows('xs')} as (${bySite(sql`select xs.* from ${tableOf(em, SiteSpace)} xs
        where xs.${site('SiteSpace')} = k.id and xs.${columnOf(em, SiteSpace, 'section')} is null`)}),
      ${levels.length ? sql`${join(levels, ', ')},` : empty}
      top as (select t.site, ${listOf(shapes.section, sql`t.item`, sql`t.position, t.id`)} as items from (
        select x.${site('SiteSection')} as site, x.position, x.id, ${section.object} as item from ${levelRows('x')} x ${section.joins}
        union all
        select xg.${site('SiteSectionGroup')}, xg.position, xg.id, ${group.object} from ${levelRows('xg')} xg ${group.joins}
      ) t group by 1),
      roots as (select xs.${site('SiteSpace')} as site, ${listOf(shapes.siteSpace, siteSpace.object, sql`xs.position, xs.id`)} as items
        from ${levelRows('xs')} xs ${siteSpace.joins} group by 1)
    select k.id as "site",
      exists(select 1 from ${tableOf(em, SiteSection)} x where x.${site('SiteSection')} = k.id) as "hasSections",
      coalesce(top.items, '[]') as "topLevel", coalesce(roots.items, '[]') as "siteSpaces"
    from ${keys} left join top on top.site = k.id left join roots on roots.site = k.id`;
}

/**
 * Reads the structures of sites in one statement, each item with what its selection nests under it
 * (a section's site spaces and their spaces, a group's sections…): each kind of item is a level of its
 * own, read through the index on its table's site, and what the items nest is read by level under them
 * (db/read-shapes.ts).
 */
export async function readSiteStructures(em: EntityManager, siteIds: readonly string[], shapes: StructureShapes): Promise<SiteStructureRows[]> {
  const statement = siteStructuresStatement(em, batchKeys(siteIds), shapes);
  const answers = shapes.section.answers;
  const rows = await readRows<SiteStructureRows>(
    em,
    answers ? sql`select "site", "hasSections", "topLevel"::text, "siteSpaces"::text from (${statement}) read` : statement,
    { keepPlan: true },
  );
  if (answers) {
    // The items' answers as the database wrote them, into the response as they are.
    for (const row of rows) {
      row.topLevel = prebuilt(row.topLevel as unknown as string, shapes.section.nullsLeftOut);
      row.siteSpaces = prebuilt(row.siteSpaces as unknown as string, shapes.siteSpace.nullsLeftOut);
    }
    return rows;
  }
  for (const row of rows) {
    // Sections carry their path, groups have none (as SiteStructureItem tells them apart).
    for (const item of row.topLevel) ('path' in item ? shapes.section : shapes.group).hydrate(item);
    for (const item of row.siteSpaces) shapes.siteSpace.hydrate(item);
  }
  return rows;
}
