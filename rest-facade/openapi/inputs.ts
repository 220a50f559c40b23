import {
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  valueFromAST,
  astFromValue,
  type GraphQLInputType,
} from 'graphql';
import { z } from 'zod';
import { areas } from '../../src/areas.js';
import { inputTypesWithin } from '../../src/kernel/input-types.js';
import { Components, orNull, type JsonSchema } from './components.js';
import { scalarSchema } from './scalars.js';

/**
 * GraphQL input types as JSON schemas: the structure from the GraphQL type (lists, enums, input objects,
 * which fields are non-null), the bounds from the zod schema that declares the input type (an area's
 * `inputs`, src/kernel/input-types.ts): lengths, ranges, allowed values,
 * whether null is taken, which fields are required.
 */
export function inputSchema(type: GraphQLInputType, components: Components): JsonSchema {
  const inner = getNullableType(type);
  if (isListType(inner)) {
    const item = inputSchema(inner.ofType, components);
    return { type: 'array', items: isNonNullType(inner.ofType) ? item : orNull(item) };
  }
  if (isScalarType(inner)) return scalarSchema(inner.name);
  if (isEnumType(inner)) return enumSchema(inner, components);
  if (isInputObjectType(inner)) {
    return components.named(inner.name, () => {
      const bounds = zodBounds(inner.name);
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const field of Object.values(inner.getFields())) {
        let schema = inputSchema(field.type, components);
        const bound = bounds?.properties[field.name];
        if (bound) schema = withBounds(schema, bound);
        if (field.description) schema = { ...schema, description: field.description };
        if (field.defaultValue !== undefined) schema = { ...schema, default: field.defaultValue };
        properties[field.name] = schema;
        const requiredByZod = bounds ? bounds.required.includes(field.name) : false;
        if ((isNonNullType(field.type) && field.defaultValue === undefined) || requiredByZod) required.push(field.name);
      }
      return {
        type: 'object',
        ...(inner.description ? { description: inner.description } : {}),
        properties,
        ...(required.length ? { required } : {}),
        additionalProperties: false,
      };
    });
  }
  throw new Error(`OpenAPI: unexpected input type ${String(type)}`);
}

/** An enum type, by name. */
export function enumSchema(
  type: { name: string; description?: string | null; getValues(): readonly { value: unknown }[] },
  components: Components,
): JsonSchema {
  return components.named(type.name, () => ({
    type: 'string',
    ...(type.description ? { description: type.description } : {}),
    enum: type.getValues().map((value) => value.value),
  }));
}

/** A variable's default value (`$limit: Int = 10`) as JSON. */
export function defaultOf(type: GraphQLInputType, literal: Parameters<typeof valueFromAST>[0]): unknown {
  if (!literal) return undefined;
  const value = valueFromAST(literal, type);
  return value === undefined || astFromValue(value, type) === null ? undefined : value;
}

/** The zod schemas of the areas' input types and the input objects they nest, by GraphQL name. */
const declaredInputs = new Map(areas.flatMap((area) => ('inputs' in area ? [...inputTypesWithin(area.inputs)] : [])));

type Bounds = { properties: Record<string, JsonSchema>; required: string[] };

/** The zod schema of an input type as JSON Schema, or undefined when the domain declares none. */
function zodBounds(typeName: string): Bounds | undefined {
  const schema = declaredInputs.get(typeName);
  if (!schema) return undefined;
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return { properties: (json.properties ?? {}) as Record<string, JsonSchema>, required: (json.required ?? []) as string[] };
}

/** What a zod field adds to a leaf: bounds of strings, numbers and lists, allowed values, null. */
const BOUND_KEYS = [
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'enum',
  'const',
];

function withBounds(schema: JsonSchema, zodField: JsonSchema): JsonSchema {
  const branches = Array.isArray(zodField.anyOf) ? (zodField.anyOf as JsonSchema[]) : [zodField];
  const nullable = branches.some((branch) => branch.type === 'null');
  const value = branches.filter((branch) => branch.type !== 'null');
  let bounded = schema;
  if (value.length === 1 && !schema.$ref) bounded = merge(schema, value[0]);
  return nullable ? orNull(bounded) : bounded;
}

function merge(schema: JsonSchema, zodField: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  for (const key of BOUND_KEYS) {
    const value = zodField[key];
    // zod states the safe-integer range of every integer: no bound worth showing.
    if (value === undefined || (typeof value === 'number' && Math.abs(value) === Number.MAX_SAFE_INTEGER)) continue;
    if (key === 'enum' && schema.type !== 'string') continue;
    out[key] = value;
  }
  if (schema.type === 'array' && zodField.type === 'array' && schema.items && zodField.items && !(schema.items as JsonSchema).$ref) {
    out.items = merge(schema.items as JsonSchema, zodField.items as JsonSchema);
  }
  return out;
}
