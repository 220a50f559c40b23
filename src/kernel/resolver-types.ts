import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from './context.js';

/** A field resolver: parent value, arguments, request context. */
export type Resolver<Parent = unknown, Args = any> = (parent: Parent, args: Args, ctx: Context, info: GraphQLResolveInfo) => unknown;

/** A map of type name → field name → resolver, as @graphql-tools/schema takes it. */
export type Resolvers = Record<string, Record<string, Resolver<any> | unknown>>;
