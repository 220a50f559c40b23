import type { QueryResolvers } from './schema-types.generated.js';

export type { Resolvers } from './schema-types.generated.js';

/** The resolver function of a root query field (not the object form). */
export type QueryResolverFn<K extends keyof QueryResolvers> = Extract<NonNullable<QueryResolvers[K]>, (...args: never[]) => unknown>;
