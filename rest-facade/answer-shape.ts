import {
  getNamedType,
  isNonNullType,
  Kind,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { getDirective } from '@graphql-tools/utils';
import { builtWithoutNulls, materialized } from '../src/kernel/prebuilt-answers.js';

/**
 * A route's answer is its GraphQL data with null fields left out, except @keepNull ones: the contract's
 * shapes leave out what is not set, and say null only where null means something.
 */

/** The response fields a document selects: which may be null, which keep a null, and what they select. */
export type Shape = Map<string, { keepNull: boolean; nullable: boolean; children?: Shape }>;

/** The shape of a selection set on `type`; a field selected again (in fragments, say) merges with the first. */
export function shapeOf(
  schema: GraphQLSchema,
  selectionSet: SelectionSetNode,
  type: GraphQLNamedType,
  fragments: Record<string, FragmentDefinitionNode>,
  into: Shape = new Map(),
): Shape {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const field = (type as GraphQLObjectType).getFields?.()[selection.name.value];
      if (!field) continue;
      const key = selection.alias?.value ?? selection.name.value;
      const known = into.get(key);
      const children = selection.selectionSet ? shapeOf(schema, selection.selectionSet, getNamedType(field.type), fragments, known?.children) : known?.children;
      into.set(key, {
        keepNull: !!known?.keepNull || !!getDirective(schema, field, 'keepNull')?.length,
        nullable: !!known?.nullable || !isNonNullType(field.type),
        children,
      });
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const on = selection.typeCondition ? schema.getType(selection.typeCondition.name.value)! : type;
      shapeOf(schema, selection.selectionSet, on, fragments, into);
    } else {
      const fragment = fragments[selection.name.value];
      shapeOf(schema, fragment.selectionSet, schema.getType(fragment.typeCondition.name.value)!, fragments, into);
    }
  }
  return into;
}

/** Where an answer's null fields to leave out can be: per object, those fields, and the fields to look inside. */
export type NullFields = { leaveOut: string[]; inside: [string, NullFields][] };

/** The null fields to leave out of answers of this shape; undefined when none can be null. */
export function nullFieldsOf(shape: Shape): NullFields | undefined {
  const leaveOut: string[] = [];
  const inside: [string, NullFields][] = [];
  for (const [key, field] of shape) {
    if (field.nullable && !field.keepNull) leaveOut.push(key);
    const nested = field.children && nullFieldsOf(field.children);
    if (nested) inside.push([key, nested]);
  }
  return leaveOut.length || inside.length ? { leaveOut, inside } : undefined;
}

/**
 * Leaves the null fields out of an execution result in place, as undefined, which JSON.stringify skips:
 * the body is then written straight from the result, without a copy of every object. The result is the
 * request's own (graphql-jit and graphql-js build a new object for each selection set they complete);
 * lists and leaf values (JSON scalars) are kept as they are, nulls in lists included.
 */
export function leaveOutNulls(value: unknown, fields: NullFields | undefined): void {
  if (!fields || value === null || typeof value !== 'object' || builtWithoutNulls(value)) return;
  if (Array.isArray(value)) {
    for (const item of value) leaveOutNulls(item, fields);
    return;
  }
  const object = value as Record<string, unknown>;
  for (const key of fields.leaveOut) if (object[key] === null) object[key] = undefined;
  // A part the database built as the GraphQL answer has its null fields, unless it was built for REST:
  // it is parsed to leave them out.
  for (const [key, nested] of fields.inside) if (!builtWithoutNulls(object[key])) leaveOutNulls((object[key] = materialized(object[key])), nested);
}
