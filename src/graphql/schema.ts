import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { getDirective, MapperKind, mapSchema } from '@graphql-tools/utils';
import {
  defaultFieldResolver,
  getNamedType,
  isInputObjectType,
  type GraphQLField,
  type GraphQLFieldConfig,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { ROLES } from '../kernel/roles.js';
import { declaredAlternative, declaredCheck, guardRegistry, runsInGuard, type GuardedRequest, type GuardRegistry } from '../kernel/checks.js';
import type { GuardTarget, Need } from '../kernel/policy.js';
import type { Area } from '../kernel/area.js';
import type { Context } from '../kernel/context.js';
import { forbidden, unauthenticated } from '../kernel/errors.js';
import { isInstanceAdmin, refuseScopedMutation } from '../kernel/token-scope.js';
import { readsBeforeGuard } from '../kernel/resolvers.js';
import { scalarResolvers } from './scalars.js';
import { inputTypeDefs } from '../kernel/input-types.js';

/** The SDL every area builds on: directives, scalars, shared shapes and the root types. */
export const baseSchemaPath = join(dirname(fileURLToPath(import.meta.url)), 'base.graphql');

/** The schema's SDL: the base, then each area's schema.graphql in the order of the areas (src/areas.ts). */
export function schemaTypeDefs(areas: readonly Area[]): string[] {
  return [readFileSync(baseSchemaPath, 'utf8'), ...areas.flatMap((area) => (area.inputs ? [area.typeDefs, inputTypeDefs(area.inputs)] : [area.typeDefs]))];
}

/** The checks a schema's guards may name, by schema (the kernel's alone for a schema made without areas). */
const registries = new WeakMap<GraphQLSchema, GuardRegistry>();
export const registryOf = (schema: GraphQLSchema): GuardRegistry => registries.get(schema) ?? guardRegistry();

export type Guard =
  | { kind: 'public' }
  | { kind: 'authenticated'; scopedTokens?: boolean }
  | { kind: 'instanceAdmin' }
  | {
      kind: 'requires';
      role: Need;
      on: GuardTarget;
      arg: string;
      within?: string;
      /** Named checks (kernel/checks.ts, or an area's `checks`), in the order they run. */
      check?: string[];
      /** A named alternative of kernel/checks.ts that may stand in for the role. */
      or?: string;
      /** How a 403 names the operation ("this operation" unless given). */
      action?: string;
    };
type Requires = Extract<Guard, { kind: 'requires' }>;

/** How `arg` names a field of the parent object rather than an argument (a guard on a field of an object type). */
const PARENT = '$parent.';

/** The guard a field declares, or undefined when it declares none. */
export function guardOf(schema: GraphQLSchema, field: GraphQLFieldConfig<unknown, any> | GraphQLField<unknown, any>): Guard | undefined {
  if (getDirective(schema, field, 'public')?.length) return { kind: 'public' };
  const authenticated = getDirective(schema, field, 'authenticated')?.[0];
  if (authenticated) return { kind: 'authenticated', scopedTokens: !!authenticated.scopedTokens };
  if (getDirective(schema, field, 'instanceAdmin')?.length) return { kind: 'instanceAdmin' };
  const requires = getDirective(schema, field, 'requires')?.[0];
  if (requires) return { kind: 'requires', ...(requires as Omit<Requires, 'kind'>) };
  return undefined;
}

/** The value at `path` (`id`, `input.organization`) of a field's arguments, or of its parent object. */
function valueAt(from: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), from);
}

/** Whether the field takes an argument at `path`, following input object types (`input.parent`). */
function takesArgument(field: GraphQLFieldConfig<unknown, Context>, path: string): boolean {
  const [name, ...rest] = path.split('.');
  let type: GraphQLNamedType | undefined = field.args?.[name] ? getNamedType(field.args[name].type) : undefined;
  for (const key of rest) {
    const inner: GraphQLInputField | undefined = isInputObjectType(type) ? type.getFields()[key] : undefined;
    type = inner && getNamedType(inner.type);
  }
  return !!type;
}

/**
 * Refuses, at start-up, a `@requires` whose role is unknown, whose arguments the field lacks, or that
 * names a check or alternative that is not declared (kernel/checks.ts, an area's `checks`) for its target or whose arguments
 * the field lacks. `parentType` is set for a field of an object type: its target comes from the parent.
 */
function verifyRequires(
  registry: GuardRegistry,
  guard: Requires,
  field: GraphQLFieldConfig<unknown, Context>,
  name: string,
  parentType?: GraphQLObjectType,
): void {
  const refuse = (why: string): never => {
    throw new Error(`Field ${name}: @requires ${why}`);
  };
  if (guard.role !== 'member' && !(ROLES as readonly string[]).includes(guard.role)) refuse(`role "${guard.role}" is not member or a content role`);
  if (parentType) {
    if (!guard.arg.startsWith(PARENT) || !parentType.getFields()[guard.arg.slice(PARENT.length)])
      refuse(`on a field of ${parentType.name} needs arg "${PARENT}<a field of ${parentType.name}>"`);
    if (guard.within || guard.or) refuse('on a field of an object type takes neither within nor or');
  } else {
    for (const arg of [guard.arg, guard.within]) if (arg && !takesArgument(field, arg)) refuse(`names a missing argument "${arg}"`);
  }
  const verifyNamed = (kind: string, named: string, declared: { on: readonly string[]; reads: readonly string[] } | undefined) => {
    if (!declared) return refuse(`names the ${kind} "${named}", which neither kernel/checks.ts nor an area declares`);
    if (!declared.on.includes(guard.on)) refuse(`names the ${kind} "${named}", which does not judge a ${guard.on}`);
    for (const arg of declared.reads) if (!takesArgument(field, arg)) refuse(`names the ${kind} "${named}", which reads a missing argument "${arg}"`);
  };
  for (const checkName of guard.check ?? []) verifyNamed('check', checkName, declaredCheck(registry, checkName));
  if (guard.or) {
    const alternative = declaredAlternative(registry, guard.or);
    verifyNamed('alternative', guard.or, alternative && { on: Object.keys(alternative.description), reads: alternative.reads });
  }
}

/** Runs a `@requires` guard: the role (or its alternative) on the target, then the named checks the guard runs. */
async function runRequires(registry: GuardRegistry, guard: Requires, source: unknown, args: Record<string, unknown>, ctx: Context): Promise<void> {
  const fromParent = guard.arg.startsWith(PARENT);
  const request: GuardedRequest = { on: guard.on, id: String(fromParent ? valueAt(source, guard.arg.slice(PARENT.length)) : valueAt(args, guard.arg)), args };
  if (fromParent) {
    await ctx.policy.requireOnHeld(guard.on, request.id, guard.role, guard.action);
  } else {
    const alternative = guard.or ? declaredAlternative(registry, guard.or)! : undefined;
    await ctx.policy.require(guard.on, request.id, guard.role, {
      within: guard.within ? (args[guard.within] as string | null | undefined) : undefined,
      alternative: alternative && (() => alternative.opens(ctx, request)),
      action: guard.action,
    });
  }
  for (const checkName of guard.check ?? []) {
    const check = declaredCheck(registry, checkName)!;
    if (runsInGuard(check)) await check.run(ctx, request);
  }
}

/**
 * Runs a field's guard for `args` in `ctx` (nothing for a field without one, or a public one). Live
 * subscriptions run it again before each event they deliver, in a fresh context.
 */
export function enforceGuard(schema: GraphQLSchema, guard: Guard | undefined, source: unknown, args: Record<string, unknown>, ctx: Context): Promise<void> {
  return enforceGuardWith(registryOf(schema), guard, source, args, ctx);
}

async function enforceGuardWith(
  registry: GuardRegistry,
  guard: Guard | undefined,
  source: unknown,
  args: Record<string, unknown>,
  ctx: Context,
): Promise<void> {
  if (!guard || guard.kind === 'public') return;
  if (!ctx.viewer) throw unauthenticated();
  if (guard.kind === 'instanceAdmin' && !isInstanceAdmin(ctx.viewer))
    throw forbidden(
      ctx.viewer.user.instanceAdmin ? 'Only instance administrators may do this, with a token that is not limited' : 'Only instance administrators may do this',
    );
  if (guard.kind === 'requires') await runRequires(registry, guard, source, args, ctx);
}

/**
 * Wraps a field's resolver so that its guard runs first; a root field must declare one. A subscription's
 * guard runs when it is subscribed to (its resolver maps each event, which its stream checks itself).
 */
function guarded(
  schema: GraphQLSchema,
  registry: GuardRegistry,
  field: GraphQLFieldConfig<unknown, Context>,
  name: string,
  parentType?: GraphQLObjectType,
  mutation = false,
): GraphQLFieldConfig<unknown, Context> {
  const guard = guardOf(schema, field);
  if (!guard && parentType) return field;
  if (!guard) throw new Error(`Root field ${name} declares no guard (@public, @authenticated, @instanceAdmin or @requires)`);
  if (guard.kind === 'public') return field;
  if (guard.kind === 'requires') verifyRequires(registry, guard, field, name, parentType);
  else if (parentType) throw new Error(`Field ${name}: a field of an object type takes only @requires`);
  if (field.subscribe) {
    const subscribe = field.subscribe;
    return {
      ...field,
      subscribe: async (source, args, ctx, info) => {
        await enforceGuardWith(registry, guard, source, args, ctx);
        return subscribe(source, args, ctx, info);
      },
    };
  }
  const resolve = field.resolve ?? defaultFieldResolver;
  // What a limited token may not change, whatever its user may (kernel/token-scope.ts).
  const accountMutation = guard.kind === 'authenticated' ? !!guard.scopedTokens : null;
  if (readsBeforeGuard(field)) {
    if (mutation || parentType || guard.kind !== 'requires') throw new Error(`Field ${name}: only a root query field with @requires may read before its guard`);
    return {
      ...field,
      resolve: async (source, args: Record<string, unknown>, ctx, info) => {
        if (!ctx.viewer) throw unauthenticated();
        const read = await Promise.resolve()
          .then(() => resolve(source, args, ctx, info))
          .then(
            (value: unknown) => ({ value }),
            (error: unknown) => ({ error }),
          );
        // The guard decides on what was read (kernel/resolvers.ts readBeforeGuard): its refusal comes first.
        await enforceGuardWith(registry, guard, source, args, ctx);
        if ('error' in read) throw read.error;
        return read.value;
      },
    };
  }
  return {
    ...field,
    resolve: async (source, args, ctx, info) => {
      if (mutation) refuseScopedMutation(ctx.viewer, name.slice(name.indexOf('.') + 1), accountMutation);
      await enforceGuardWith(registry, guard, source, args, ctx);
      return resolve(source, args, ctx, info);
    },
  };
}

/**
 * Puts every root field behind its guard, and every field of an object type that declares `@requires`;
 * throws (the server refuses to start) on a root field without a guard or on a guard it cannot run.
 */
export function withGuards(schema: GraphQLSchema, registry: GuardRegistry = guardRegistry()): GraphQLSchema {
  const rootTypes = new Set([schema.getQueryType()?.name, schema.getMutationType()?.name, schema.getSubscriptionType()?.name]);
  const result = mapSchema(schema, {
    [MapperKind.ROOT_FIELD]: (field, fieldName, typeName) =>
      guarded(
        schema,
        registry,
        field as GraphQLFieldConfig<unknown, Context>,
        `${typeName}.${fieldName}`,
        undefined,
        typeName === schema.getMutationType()?.name,
      ),
    [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) =>
      rootTypes.has(typeName)
        ? field
        : guarded(schema, registry, field as GraphQLFieldConfig<unknown, Context>, `${typeName}.${fieldName}`, schema.getType(typeName) as GraphQLObjectType),
  });
  registries.set(result, registry);
  return result;
}

/** The executable schema: SDL + every area's resolvers, with each root field behind its guard. */
export function buildSchema(areas: readonly Area[]): GraphQLSchema {
  const schema = makeExecutableSchema({
    typeDefs: schemaTypeDefs(areas),
    resolvers: [scalarResolvers, ...areas.map((area) => area.resolvers)] as never,
    // The schema's AST lives as long as the server: source positions of its ~40k tokens (~4 MB) serve nobody.
    noLocation: true,
  });
  return withGuards(schema, guardRegistry(areas));
}
