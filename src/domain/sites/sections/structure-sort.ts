import type { Context } from '../../../kernel/context.js';
import { badRequest, notFound } from '../../../kernel/errors.js';
import { byPosition, placeAmong, type Ordered } from '../../../kernel/ordering.js';
import { parseInput } from '../../../kernel/validation.js';
import { SiteSpace, type SiteSectionEntity, type SiteSectionGroupEntity, type SiteSpaceEntity, type StructureChange } from '../index.js';
import { SortSiteStructureInput } from './inputs.js';
import { changeSite, groupIn, sectionIn, sectionsOfGroup, topLevelItems, type Layout } from './service.js';

type Pointer = { type: string; id: string };
type Kind = StructureChange['object'];
/** An item of one level of a site's structure, with what it is. */
type Sibling = Ordered & { kind: Kind };
type StructureRow = SiteSpaceEntity | SiteSectionEntity | SiteSectionGroupEntity;

/**
 * The item a pointer names in the site, and its level in order (the item included): a site space among
 * the site spaces of its section (or of the root level); a section inside a group among that group's
 * sections; a top-level section or a group among the site's top-level items. 404 for an item of no kind
 * this server keeps (external links), of another site, or none.
 */
async function itemAndLevel(layout: Layout, item: Pointer): Promise<{ row: StructureRow; level: Sibling[] }> {
  if (item.type === 'site-space') {
    const row = await layout.em.findOne(SiteSpace, { id: item.id, site: layout.site.id }, { refresh: true });
    if (!row) throw notFound('Site space');
    const level = await layout.em.find(SiteSpace, { site: layout.site.id, section: row.section ?? null }, { refresh: true });
    return { row, level: level.sort(byPosition).map((s) => ({ id: s.id, position: s.position, kind: 'site-space' })) };
  }
  if (item.type === 'site-section') {
    const row = sectionIn(layout.sections, item.id);
    if (!row.sectionGroup) return { row, level: topLevelItems(layout) };
    return { row, level: sectionsOfGroup(layout.sections, row.sectionGroup).map((s) => ({ id: s.id, position: s.position, kind: 'site-section' })) };
  }
  if (item.type === 'site-section-group') return { row: groupIn(layout.groups, item.id), level: topLevelItems(layout) };
  throw notFound('Site external link');
}

/** The sibling a position's pointer names: of the item's level, of the kind it says, not the item; else 400. */
function pointed(pointer: Pointer | undefined, field: string, level: Sibling[], item: Pointer): string | undefined {
  if (!pointer) return undefined;
  if (pointer.id === item.id || !level.some((s) => s.id === pointer.id && s.kind === pointer.type)) {
    throw badRequest(`${field}: ${pointer.type} "${pointer.id}" is not a sibling of the item at its level of the site's structure`);
  }
  return pointer.id;
}

/**
 * 0.202.0's sortSiteStructure: moves a site space, section or section group among the siblings of its
 * level (its section's site spaces, its group's sections, or the site's top-level sections and groups),
 * just before and/or after a sibling, or to the end of the level. Sorting changes no level: an item moves
 * into or out of a group by the group's operations. An item already where it is asked to go stays (no
 * new position, no event); else it takes a fractional key among the others (no other row changes) and the
 * move is announced as a `site.structure_changed` event. Under the site's lock, so concurrent moves of
 * one site happen one after the other, each on the order the previous left.
 */
export async function sortSiteStructure(ctx: Context, siteId: string, input: unknown): Promise<StructureRow> {
  const { item, position } = parseInput(SortSiteStructureInput, input);
  return changeSite(ctx, siteId, async (layout, changed) => {
    const { row, level } = await itemAndLevel(layout, item);
    const before = pointed(position?.before, 'position.before', level, item);
    const after = pointed(position?.after, 'position.after', level, item);
    const at = level.findIndex((s) => s.id === row.id);
    const inPlace = before || after ? (!before || level[at + 1]?.id === before) && (!after || level[at - 1]?.id === after) : at === level.length - 1;
    if (inPlace) return row;
    row.position = placeAmong(
      level.filter((s) => s.id !== row.id),
      { before, after },
    );
    changed({ object: level[at].kind, id: row.id, change: 'moved' });
    return row;
  });
}
