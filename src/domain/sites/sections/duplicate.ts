import type { Context } from '../../../kernel/context.js';
import { conflict, notFound } from '../../../kernel/errors.js';
import { newId } from '../../../kernel/ids.js';
import { placeAmong } from '../../../kernel/ordering.js';
import { parseInput } from '../../../kernel/validation.js';
import { copySpace, Space } from '../../spaces/index.js';
import { attachSpace } from '../site-spaces/index.js';
import { SiteSection, SiteSpace, slugOf, uniquePath, type SiteSpaceRow } from '../index.js';
import { DuplicateSiteSpaceInput } from './inputs.js';
import { changeSite, sectionIn, sectionsOfGroup, topLevelItems, truncated } from './service.js';

const COPY_SUFFIX = ' (copy)';

/**
 * 0.202.0's duplicateSiteSpace: a full copy of the site space's space (as duplicateSpace makes it: right
 * after the original in its collection or organization, with its main content and its `space.created`
 * event), published where the original is. The copy of a section's only site space goes into a new
 * section right after that one (in its group, if any), titled like it with " (copy)", with its icon,
 * description and condition, whose default it is; any other copy is a variant of the same section (or
 * of the site's root level) right after the original, with its condition. Everything happens under the
 * site's lock, as every change of a site's structure (so paths and positions cannot collide), and is
 * announced as adding sections and site spaces is. `draft: true` is refused: nothing is a draft here.
 */
export async function duplicateSiteSpace(ctx: Context, siteId: string, siteSpaceId: string, input: unknown): Promise<SiteSpaceRow> {
  parseInput(DuplicateSiteSpaceInput, input ?? {});
  return changeSite(ctx, siteId, async (layout, changed) => {
    const { em, site } = layout;
    const original = await em.findOne(SiteSpace, { id: siteSpaceId, site: siteId }, { refresh: true });
    if (!original) throw notFound('Site space');
    const space = await em.findOne(Space, { id: original.space }, { refresh: true });
    if (!space) throw notFound('Space');
    if (space.deletedAt) throw conflict('Space is deleted: restore it first');
    const copy = await copySpace(ctx, em, space);

    const variants = await em.count(SiteSpace, { site: siteId, section: original.section ?? null });
    if (original.section && variants === 1) {
      const section = sectionIn(layout.sections, original.section);
      const siblings = section.sectionGroup ? sectionsOfGroup(layout.sections, section.sectionGroup) : topLevelItems(layout);
      const title = truncated(section.title, 128 - COPY_SUFFIX.length) + COPY_SUFFIX;
      const added = em.create(SiteSection, {
        id: newId(),
        organization: site.organization,
        site: site.id,
        sectionGroup: section.sectionGroup ?? null,
        title,
        description: section.description,
        path: uniquePath(slugOf(title, 'section'), new Set(layout.sections.map((s) => s.path))),
        condition: section.condition,
        icon: section.icon,
        defaultSiteSpace: null,
        position: placeAmong(siblings, { after: section.id }),
        createdAt: ctx.clock.now(),
      });
      changed({ object: 'site-section', id: added.id, change: 'added' });
      const siteSpace = await attachSpace(em, ctx.clock, site, added, copy, { condition: original.condition });
      changed({ object: 'site-space', id: siteSpace.id, change: 'added' });
      return siteSpace;
    }
    const section = original.section ? sectionIn(layout.sections, original.section) : null;
    const siteSpace = await attachSpace(em, ctx.clock, site, section, copy, { after: original.id, condition: original.condition });
    changed({ object: 'site-space', id: siteSpace.id, change: 'added' });
    return siteSpace;
  });
}
