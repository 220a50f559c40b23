import { readFileSync } from 'node:fs';
import type { EntityManager, Options } from '@mikro-orm/postgresql';
import type { Policy } from '../auth/policy.js';
import type { Viewer } from '../auth/viewer.js';
import type { Resolvers } from './resolver-types.js';
import type { JobHandler } from '../jobs/queue.js';
import type { Loaders } from './request-loaders.js';
import type { Route } from './rest-route.js';

/**
 * An area of the domain, as its folder declares it (`src/domain/<area>/index.ts`). src/areas.ts lists
 * the areas; the schema, the request's loaders and lists, the ORM's entities, the REST route table and
 * the job handlers are all made from that list, so adding an area touches its folder and that list only.
 */
export type Area = {
  /** The area's folder under src/domain/. */
  name: string;
  /** The area's SDL (its schema.graphql): its types, and its root fields as `extend type Query` / `extend type Mutation`. */
  typeDefs: string;
  resolvers?: Resolvers;
  /**
   * The area's DataLoaders for one request. `all` is the request's whole set, filled area by area in
   * the order of src/areas.ts: a factory may take loaders of the areas listed before it as they are,
   * and reads those of later areas only once a batch runs.
   */
  loaders?: (em: EntityManager, viewer: Viewer | null, all: Loaders) => object;
  /**
   * The area's permission-filtered pages of lists and counts for one request, made with the policy
   * whose filter they apply in SQL (see db/pages.ts).
   */
  lists?: (em: EntityManager, policy: Policy) => object;
  /** The MikroORM entities of the area's tables (a new one also needs a migration). */
  entities?: NonNullable<Options['entities']>;
  /** The area's REST operations (see Route). */
  routes?: readonly Route[];
  /** Durable job kinds the area schedules, and their handlers. */
  jobs?: Record<string, JobHandler>;
};

/** The schema.graphql beside an area's index module: `schemaBeside(import.meta.url)`. */
export function schemaBeside(moduleUrl: string): string {
  return readFileSync(new URL('./schema.graphql', moduleUrl), 'utf8');
}
