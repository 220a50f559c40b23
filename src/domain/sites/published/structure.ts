import type { EntityManager } from '@mikro-orm/postgresql';
import type { GraphQLResolveInfo } from 'graphql';
import sql from 'sql-template-tag';
import type { Context } from '../../../kernel/context.js';
import { answerIfBuilt, shapeOf, type Shape } from '../../../db/read-shapes.js';
import { prebuilt } from '../../../kernel/prebuilt-answers.js';
import { columnOf, readRows, tableOf } from '../../../db/statements.js';
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
 * Reads the structures of sites in one statement, each item with what its selection nests under it
 * (a section's site spaces and their spaces, a group's sections…), through the indexes on each table's site.
 */
export async function readSiteStructures(em: EntityManager, siteIds: readonly string[], shapes: StructureShapes): Promise<SiteStructureRows[]> {
  const site = (entity: string) => columnOf(em, entity, 'site');
  const statement = sql`select k.id as "site",
      exists(select 1 from ${tableOf(em, SiteSection)} x where x.${site('SiteSection')} = k.id) as "hasSections",
      (select coalesce(json_agg(t.item order by t.position, t.id), '[]') from (
        select x.position, x.id, ${shapes.section.object('x')} as item from ${tableOf(em, SiteSection)} x
          where x.${site('SiteSection')} = k.id and x.${columnOf(em, SiteSection, 'sectionGroup')} is null
        union all
        select x.position, x.id, ${shapes.group.object('x')} from ${tableOf(em, SiteSectionGroup)} x where x.${site('SiteSectionGroup')} = k.id
      ) t) as "topLevel",
      (select coalesce(json_agg(${shapes.siteSpace.object('x')} order by x.position, x.id), '[]') from ${tableOf(em, SiteSpace)} x
        where x.${site('SiteSpace')} = k.id and x.${columnOf(em, SiteSpace, 'section')} is null) as "siteSpaces"
    from unnest(${siteIds}::varchar[]) as k(id)`;
  const answers = shapes.section.answers;
  const rows = await readRows<SiteStructureRows>(
    em,
    answers ? sql`select "site", "hasSections", "topLevel"::text, "siteSpaces"::text from (${statement}) read` : statement,
  );
  if (answers) {
    // The items' answers as the database wrote them, into the response as they are.
    for (const row of rows) {
      row.topLevel = prebuilt(row.topLevel as unknown as string);
      row.siteSpaces = prebuilt(row.siteSpaces as unknown as string);
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
