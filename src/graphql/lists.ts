import type { EntityManager } from '@mikro-orm/postgresql';
import type { Policy } from '../auth/policy.js';
import { collectionLists } from '../domain/collections/lists.js';
import { memberSpaceCounts } from '../domain/members/space-counts.js';
import { siteNavigationLists } from '../domain/sites/published/navigation-lists.js';
import { shareLinkLists } from '../domain/sites/share-links/lists.js';
import { spaceLists } from '../domain/spaces/lists.js';

/**
 * The request's loaders of what the viewer's permissions filter in SQL: pages of lists, each read for
 * every parent of a GraphQL level at once (see db/pages.ts), and counts. Made with the policy, whose
 * filter they apply.
 */
export function createLists(em: EntityManager, policy: Policy) {
  return { ...spaceLists(em, policy), ...collectionLists(em, policy), ...shareLinkLists(em), ...siteNavigationLists(em), memberSpaceCounts: memberSpaceCounts(em, policy) };
}

export type Lists = ReturnType<typeof createLists>;
