import { readFileSync } from 'node:fs';
import type { EntityManager, EntityName, Options } from '@mikro-orm/postgresql';
import type { AnyCheck } from './checks.js';
import type { Policy } from './policy.js';
import type { IResolvers } from '@graphql-tools/utils';
import type { InputTypes } from './input-types.js';
import type { Viewer } from './viewer.js';
import type { JobRun } from './jobs.js';
import type { Loaders } from './request-loaders.js';
import type { Route } from './rest-route.js';
import type { Config } from './config.js';
import type { ReadModel, ReadModelExtension } from './read-models.js';
import type { Clock } from './clock.js';

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
  /**
   * The area's GraphQL input types, by name: each declared once as the zod schema that parses it, from
   * which its SDL is printed (kernel/input-types.ts) and the REST reference shows its bounds.
   */
  inputs?: InputTypes;
  /** The area's resolvers, typed where they are written (`Resolvers`, generated from the SDL). */
  resolvers?: IResolvers;
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
  /**
   * How the area's GraphQL types map onto its tables (kernel/read-models.ts): the read path compiles a
   * request's selection of them into statements whose JSON the database builds.
   */
  reads?: readonly (ReadModel | ReadModelExtension)[];
  /** The MikroORM entities of the area's tables (a new one also needs a migration). */
  entities?: NonNullable<Options['entities']>;
  /**
   * The area's tables whose rows belong to a space and carry its organization id (`space` and
   * `organization` columns): they follow the space when it moves to another organization.
   */
  spaceOwned?: readonly EntityName<{ space: string; organization: string }>[];
  /**
   * What the area does when spaces or collections leave their organization (`moved` to another) or are
   * purged, before their rows move or cascade away: it lets go of what refers to them from outside.
   */
  contentLeaving?: (em: EntityManager, content: LeavingContent, why: 'moved' | 'purged') => Promise<void>;
  /**
   * What the area does when a space's live content appears or changes outside the area that owns the
   * content (a duplicate's copy, `created` for a new space): search schedules its indexing.
   */
  spaceContentChanged?: (em: EntityManager, clock: Clock, space: { id: string; organization: string }, created: boolean) => Promise<void>;
  /** The area's REST operations (see Route). */
  routes?: readonly Route[];
  /** The guard checks the area's fields name (`@requires(…, check: "…")`), beside the kernel's (kernel/checks.ts). */
  checks?: Readonly<Record<string, AnyCheck>>;
  /** Durable job kinds the area schedules, and their handlers. */
  jobs?: Record<string, AreaJobHandler>;
  /**
   * Starts the chains of the area's recurring (housekeeping) jobs: makes sure each has its next run
   * scheduled. Instances that run jobs call it at start (jobs/recurring.ts).
   */
  recurring?: (em: EntityManager, config: Config, now: Date) => Promise<void>;
};

/** A durable job's handler as an area declares it: its run also knows the server's areas (jobs/handlers.ts). */
export type AreaJobHandler = ((em: EntityManager, payload: Record<string, unknown>, now: Date, run: JobRun & { areas: readonly Area[] }) => Promise<void>) & {
  outsideTransaction?: boolean;
};

/** Spaces and collections (by id) leaving their organization or purged. */
export type LeavingContent = { spaces?: string[]; collections?: string[] };

/** Lets every area that holds references to this content let go of them (`Area.contentLeaving`), in the areas' order. */
export async function contentLeaves(areas: readonly Area[], em: EntityManager, content: LeavingContent, why: 'moved' | 'purged'): Promise<void> {
  for (const area of areas) await area.contentLeaving?.(em, content, why);
}

/** The schema.graphql beside an area's index module: `schemaBeside(import.meta.url)`. */
export function schemaBeside(moduleUrl: string): string {
  return readFileSync(new URL('./schema.graphql', moduleUrl), 'utf8');
}
