import type { EntityManager } from '@mikro-orm/postgresql';
import { Revision } from '../src/domain/content/index.js';
import { Site, SiteSection, SiteSectionGroup, SiteSpace } from '../src/domain/sites/index.js';
import { Space } from '../src/domain/spaces/index.js';
import { newId } from '../src/kernel/ids.js';

/** The query a frontend sends for a whole site: structure, sections, site spaces and their spaces. */
export const SITE_TREE_QUERY = `query SiteTree($id: ID!) {
  site(id: $id) {
    id title siteSpaces published urls { published }
    defaultSiteSection { id }
    structure {
      type
      structure {
        ... on SiteSection {
          id title path default condition urls { published }
          siteSpaces { id path title default urls { published } space { id title emoji permissions { view edit comment admin } comments changeRequestsOpen } }
        }
        ... on SiteSectionGroup {
          id title
          sections { id title path siteSpaces { id path title space { id title permissions { view edit } comments changeRequestsOpen } } }
        }
      }
    }
    sections(limit: 1000) { count items { id title group { id } } }
    sectionGroups { count items { id title } }
  }
}`;

/**
 * Seeds a published site of `sections` sections with `perSection` site spaces each (a new space per
 * site space); sections 0, 2, 4… go one to each of the `groups` section groups.
 */
export async function seedSiteTree(em: EntityManager, organizationId: string, sections: number, perSection: number, groups: number, now = new Date()) {
  const key = (i: number) => `a${String(i).padStart(5, '0')}`;
  const site = em.create(Site, {
    id: newId(),
    organization: organizationId,
    type: 'basic',
    title: `Site of ${sections * perSection}`,
    hostname: null,
    basename: null,
    proxyOrigin: null,
    visibility: 'public',
    published: true,
    adaptiveContentEnabled: false,
    agentsContext: 'included',
    defaultSection: null,
    defaultSiteSpace: null,
    createdAt: now,
    updatedAt: now,
  });
  const groupRows = Array.from({ length: groups }, (_, g) =>
    em.create(SiteSectionGroup, {
      id: newId(),
      organization: organizationId,
      site: site.id,
      title: `Group ${g}`,
      icon: null,
      position: key(50_000 + g),
      createdAt: now,
    }),
  );
  for (let s = 0; s < sections; s++) {
    // Every other section of the first ones sits in a group, so that both kinds appear at every size.
    const group = s % 2 === 0 && s / 2 < groups ? groupRows[s / 2] : undefined;
    const section = em.create(SiteSection, {
      id: newId(),
      organization: organizationId,
      site: site.id,
      sectionGroup: group?.id ?? null,
      title: `Section ${s}`,
      description: null,
      path: `section-${s}`,
      condition: null,
      icon: null,
      defaultSiteSpace: null,
      position: key(s),
      createdAt: now,
    });
    if (s === 0) site.defaultSection = section.id;
    for (let v = 0; v < perSection; v++) {
      const spaceId = newId();
      const revision = em.create(Revision, { id: newId(), organization: organizationId, space: spaceId, parents: [], type: 'edits', createdAt: now });
      em.create(Space, {
        id: spaceId,
        organization: organizationId,
        parent: null,
        title: `Space ${s}.${v}`,
        emoji: null,
        visibility: 'public',
        editMode: 'live',
        defaultLevel: 'inherit',
        position: key(s * 1000 + v),
        revision: revision.id,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
      const siteSpace = em.create(SiteSpace, {
        id: newId(),
        organization: organizationId,
        site: site.id,
        section: section.id,
        space: spaceId,
        path: `v${v}`,
        condition: null,
        position: key(v),
        createdAt: now,
      });
      if (v === 0) section.defaultSiteSpace = siteSpace.id;
    }
  }
  await em.flush();
  return site.id;
}
