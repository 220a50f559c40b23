import fc from 'fast-check';
import {
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  isUnionType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { skippedBecause } from './reference-reader.js';
import type { ArgValue, Args, FieldSelection, SelectionSet } from './selection.js';

/**
 * Random selections over the schema, for fast-check: from a root field, a random subset of the fields
 * of each object type (leaves: columns, counts, permissions, URLs; objects and lists, recursively), at
 * most `maxDepth` objects with an id deep below the root, for every member type of a union a fragment
 * or none. A list field may be selected twice under two names with different arguments, as clients do
 * (`first: spaces(limit: 1) … all: spaces(limit: 1000)`).
 *
 * Arguments the walk supplies: `limit` (none, small, large, and out of range if asked), `nested` and
 * `default` (none, true, false). A field with another required argument is left out; so are `page` (its
 * cursors are the server's, handed out by an earlier answer) and `format` (the document format is the
 * content area's rendering of markdown), which keep their defaults. Fields the reference does not
 * compare are left out too (reference-reader.ts says why), and those the caller names (`leaveOut`).
 * A document holds one root field, sometimes two.
 */

/** A root field the selections start from, with its arguments (ids of the seeded data, and unknown ones) and how often it is chosen. */
export type RootField = { field: string; args: fc.Arbitrary<Args>; weight: number };

const absent = fc.constant(undefined);

/**
 * `limit`: mostly absent or small (pages end early), sometimes large, and now and then out of range (a
 * BAD_REQUEST) when `outOfRange`.
 */
export const pageLimit = (outOfRange: boolean): fc.Arbitrary<ArgValue | undefined> =>
  fc.oneof(
    { weight: 3, arbitrary: absent },
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 3 }) },
    { weight: 2, arbitrary: fc.constantFrom(50, 1000) },
    ...(outOfRange ? [{ weight: 1, arbitrary: fc.constantFrom(0, 1001) }] : []),
  );
export const flag: fc.Arbitrary<ArgValue | undefined> = fc.oneof({ weight: 2, arbitrary: absent }, { weight: 1, arbitrary: fc.boolean() });

/** The arguments given (absent ones dropped). */
export function argsOf(values: Record<string, ArgValue | undefined>): Args {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Args;
}

/** An object "with an id" (or a union of such) counts towards the depth; pages, URLs, permissions and the like do not. */
const isEntity = (type: GraphQLNamedType) => isObjectType(type) && 'id' in type.getFields();

/**
 * How often a field is chosen: leaves about one time in three, objects and lists a little more often, a
 * page's items mostly (they are what a list is for), a field with a guard of its own (`@requires`, such
 * as `Site.shareLinks`: its refusal nulls the whole answer for most viewers) rarely; a second copy rarely.
 */
type Often = 'leaf' | 'object' | 'items' | 'guarded';
const oftenFor = (field: GraphQLField<unknown, unknown>, leaf: boolean): Often =>
  field.astNode?.directives?.some((d) => d.name.value === 'requires') ? 'guarded' : leaf ? 'leaf' : field.name === 'items' ? 'items' : 'object';

function sometimes(selection: fc.Arbitrary<FieldSelection>, often: Often, twice: boolean): fc.Arbitrary<FieldSelection[]> {
  return fc.oneof(
    { weight: { leaf: 4, object: 3, items: 1, guarded: 12 }[often], arbitrary: fc.constant<FieldSelection[]>([]) },
    { weight: 2, arbitrary: selection.map((one) => [one]) },
    ...(twice ? [{ weight: 1, arbitrary: fc.tuple(selection, selection).map(([one, other]) => [one, { ...other, alias: `${other.field}2` }]) }] : []),
  );
}

export type SelectionOptions = {
  /** How many objects with an id deep below a root field the selections go. */
  maxDepth: number;
  /** Fields (`Type.field`) never chosen, with the reason. */
  leaveOut: Readonly<Record<string, string>>;
  /** Whether `limit` is sometimes out of range. */
  outOfRangeLimits: boolean;
};

export function randomSelections(schema: GraphQLSchema, { maxDepth, leaveOut, outOfRangeLimits }: SelectionOptions) {
  const memo = new Map<string, fc.Arbitrary<SelectionSet>>();
  /** The arguments the walk supplies by name; any other argument must be optional, and is left out. */
  const supplied: Readonly<Record<string, fc.Arbitrary<ArgValue | undefined>>> = { limit: pageLimit(outOfRangeLimits), nested: flag, default: flag };

  /** The field's arguments, or null when it needs one the walk cannot supply. */
  function argumentsFor(field: GraphQLField<unknown, unknown>): fc.Arbitrary<Args> | null {
    const given: Record<string, fc.Arbitrary<ArgValue | undefined>> = {};
    for (const arg of field.args) {
      if (supplied[arg.name]) given[arg.name] = supplied[arg.name];
      else if (isNonNullType(arg.type) && arg.defaultValue === undefined) return null;
    }
    return fc.record(given).map(argsOf);
  }

  /** A selection of the type's fields, with `depth` objects with an id above it. */
  function selectionOf(type: GraphQLNamedType, depth: number): fc.Arbitrary<SelectionSet> {
    const key = `${type.name}|${depth}`;
    let found = memo.get(key);
    if (!found) {
      found = isUnionType(type) ? unionSelection(type.getTypes(), depth) : objectSelection(type as GraphQLObjectType, depth);
      memo.set(key, found);
    }
    return found;
  }

  function unionSelection(members: readonly GraphQLObjectType[], depth: number): fc.Arbitrary<SelectionSet> {
    const fragments = members.map((member) => fc.option(selectionOf(member, depth).map((selection) => ({ on: member.name, selection }))));
    return fc.tuple(...fragments).map((chosen) => ({
      fields: [{ field: '__typename', args: {} }],
      fragments: chosen.filter((fragment) => fragment !== null),
    }));
  }

  function objectSelection(type: GraphQLObjectType, depth: number): fc.Arbitrary<SelectionSet> {
    const candidates: fc.Arbitrary<FieldSelection[]>[] = [sometimes(fc.constant({ field: '__typename', args: {} }), 'leaf', false)];
    for (const field of Object.values(type.getFields())) {
      if (skippedBecause(type.name, field.name) || leaveOut[`${type.name}.${field.name}`]) continue;
      const args = argumentsFor(field);
      if (!args) continue;
      const named = getNamedType(field.type);
      const twice = field.args.some((arg) => arg.name === 'limit');
      if (isLeafType(named)) {
        candidates.push(
          sometimes(
            args.map((given) => ({ field: field.name, args: given })),
            oftenFor(field, true),
            twice,
          ),
        );
        continue;
      }
      const below = isEntity(named) || isUnionType(named) ? depth + 1 : depth;
      if (below > maxDepth) continue;
      const selection = fc.tuple(args, selectionOf(named, below));
      candidates.push(
        sometimes(
          selection.map(([given, inner]) => ({ field: field.name, args: given, selection: inner })),
          oftenFor(field, false),
          twice,
        ),
      );
    }
    return fc.tuple(...candidates).map((chosen) => {
      const fields = chosen.flat();
      return { fields: fields.length ? fields : [{ field: '__typename', args: {} }], fragments: [] };
    });
  }

  /** A document of one root field, or two (named `r0`, `r1`), each with a random selection. */
  return function documents(roots: RootField[]): fc.Arbitrary<FieldSelection[]> {
    const queryFields = schema.getQueryType()!.getFields();
    const root = fc.oneof(
      ...roots.map(({ field, args, weight }) => {
        const named = getNamedType(queryFields[field].type);
        const arbitrary = fc
          .tuple(args, selectionOf(named, isEntity(named) ? 1 : 0))
          .map(([given, selection]): FieldSelection => ({ field, args: given, selection }));
        return { weight, arbitrary };
      }),
    );
    const oneOrTwo = fc.oneof({ weight: 3, arbitrary: root.map((one) => [one]) }, { weight: 1, arbitrary: fc.tuple(root, root) });
    return oneOrTwo.map((chosen) => chosen.map((selection, i) => ({ ...selection, alias: `r${i}` })));
  };
}
