import type { EntityManager } from '@mikro-orm/postgresql';
import type { Area } from '../kernel/area.js';
import type { Policy } from '../kernel/policy.js';
import type { Lists } from '../kernel/request-lists.js';

/**
 * The request's loaders of what the viewer's permissions filter in SQL: pages of lists, each read for
 * every parent of a GraphQL level at once (see db/pages.ts), and counts. Made with the policy, whose
 * filter they apply, from the areas' factories in their order (src/areas.ts checks that together they
 * make every list the Lists type names).
 */
export function createLists(areas: readonly Area[], em: EntityManager, policy: Policy): Lists {
  const lists = {};
  for (const area of areas) {
    if (area.lists) Object.assign(lists, area.lists(em, policy));
  }
  return lists as Lists;
}

export type { Lists };
