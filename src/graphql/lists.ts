import type { EntityManager } from '@mikro-orm/postgresql';
import type { Policy } from '../auth/policy.js';
import type { Lists } from '../kernel/request-lists.js';
import { areas } from '../areas.js';

type Area = (typeof areas)[number];
type ListsOf<A> = A extends { lists: (...args: never[]) => infer L } ? L : never;
type Intersection<U> = (U extends unknown ? (all: U) => void : never) extends (all: infer I) => void ? I : never;
/** What the areas' factories make together; it must be every list the Lists type names. */
type Made = Intersection<ListsOf<Area>>;

/**
 * The request's loaders of what the viewer's permissions filter in SQL: pages of lists, each read for
 * every parent of a GraphQL level at once (see db/pages.ts), and counts. Made with the policy, whose
 * filter they apply, from the areas' factories in the order of src/areas.ts.
 */
export function createLists(em: EntityManager, policy: Policy): Lists {
  const lists = {} as Made;
  for (const area of areas) {
    if ('lists' in area) Object.assign(lists, area.lists(em, policy));
  }
  return lists;
}

export type { Lists };
