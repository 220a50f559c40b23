import type { EntityManager } from '@mikro-orm/postgresql';
import type { Policy } from '../auth/policy.js';
import { collectionLists } from '../domain/collections/lists.js';
import { shareLinkLists } from '../domain/sites/share-links.js';
import { spaceLists } from '../domain/spaces/lists.js';

/**
 * The request's list loaders: pages of lists whose rows the viewer's permissions filter, each read in
 * SQL for every parent of a GraphQL level at once (see db/pages.ts). Made with the policy, whose
 * filter they apply.
 */
export function createLists(em: EntityManager, policy: Policy) {
  return { ...spaceLists(em, policy), ...collectionLists(em, policy), ...shareLinkLists(em) };
}

export type Lists = ReturnType<typeof createLists>;
