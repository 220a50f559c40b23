import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { getDirective, MapperKind, mapSchema } from '@graphql-tools/utils';
import { defaultFieldResolver, type GraphQLFieldConfig, type GraphQLSchema } from 'graphql';
import { ROLES } from '../auth/roles.js';
import type { GuardTarget, Need } from '../auth/policy.js';
import { areas } from '../areas.js';
import type { Context } from './context.js';
import { forbidden, unauthenticated } from '../domain/common/errors.js';
import { scalarResolvers } from './scalars.js';

/** The SDL every area builds on: directives, scalars, shared shapes and the root types. */
export const baseSchemaPath = join(dirname(fileURLToPath(import.meta.url)), 'base.graphql');

/** The schema's SDL: the base, then each area's schema.graphql in the order of src/areas.ts. */
export function schemaTypeDefs(): string[] {
  return [readFileSync(baseSchemaPath, 'utf8'), ...areas.map((area) => area.typeDefs)];
}

export type Guard =
  | { kind: 'public' }
  | { kind: 'authenticated' }
  | { kind: 'instanceAdmin' }
  | { kind: 'requires'; role: Need; on: GuardTarget; arg: string; within?: string; also?: string };

/** The guard a root field declares, or undefined when it declares none. */
export function guardOf(schema: GraphQLSchema, field: GraphQLFieldConfig<unknown, any>): Guard | undefined {
  if (getDirective(schema, field, 'public')?.length) return { kind: 'public' };
  if (getDirective(schema, field, 'authenticated')?.length) return { kind: 'authenticated' };
  if (getDirective(schema, field, 'instanceAdmin')?.length) return { kind: 'instanceAdmin' };
  const requires = getDirective(schema, field, 'requires')?.[0];
  if (requires) return { kind: 'requires', ...(requires as { role: Need; on: GuardTarget; arg: string; within?: string; also?: string }) };
  return undefined;
}

/** The value of a guard's argument: `arg` names a field argument, or a field of one (`input.organization`). */
function guardValue(args: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), args);
}

/** Wraps a root field's resolver so that its guard runs first. */
function guarded(schema: GraphQLSchema, field: GraphQLFieldConfig<unknown, Context>, name: string): GraphQLFieldConfig<unknown, Context> {
  const guard = guardOf(schema, field);
  if (!guard) throw new Error(`Root field ${name} declares no guard (@public, @authenticated, @instanceAdmin or @requires)`);
  if (guard.kind === 'public') return field;
  if (guard.kind === 'requires') {
    if (guard.role !== 'member' && !(ROLES as readonly string[]).includes(guard.role)) {
      throw new Error(`Root field ${name}: @requires role "${guard.role}" is not member or a content role`);
    }
    for (const arg of [guard.arg, guard.within]) {
      if (arg && !field.args?.[arg.split('.')[0]!]) throw new Error(`Root field ${name}: @requires names a missing argument "${arg}"`);
    }
  }
  const resolve = field.resolve ?? defaultFieldResolver;
  return {
    ...field,
    resolve: async (source, args, ctx, info) => {
      if (!ctx.viewer) throw unauthenticated();
      if (guard.kind === 'instanceAdmin' && !ctx.viewer.user.instanceAdmin) throw forbidden('Only instance administrators may do this');
      if (guard.kind === 'requires') {
        const scope = { within: guard.within ? args[guard.within] : undefined, shareKey: args.shareKey };
        await ctx.policy.require(guard.on, String(guardValue(args, guard.arg)), guard.role, scope);
      }
      return resolve(source, args, ctx, info);
    },
  };
}

/** The executable schema: SDL + every area's resolvers, with each root field behind its guard. */
export function buildSchema(): GraphQLSchema {
  const schema = makeExecutableSchema({
    typeDefs: schemaTypeDefs(),
    resolvers: [scalarResolvers, ...areas.map((area) => area.resolvers)] as never,
  });
  return mapSchema(schema, {
    [MapperKind.ROOT_FIELD]: (field, fieldName, typeName) => guarded(schema, field as GraphQLFieldConfig<unknown, Context>, `${typeName}.${fieldName}`),
  });
}
