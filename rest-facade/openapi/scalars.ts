import type { JsonSchema } from './components.js';

/** The JSON of each scalar of the schema, as the REST door reads and writes it. */
export const SCALAR_SCHEMAS: Record<string, JsonSchema> = {
  ID: { type: 'string' },
  String: { type: 'string' },
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
  // Any JSON value: no constraint.
  JSON: {},
};

export function scalarSchema(name: string): JsonSchema {
  const schema = SCALAR_SCHEMAS[name];
  if (!schema) throw new Error(`OpenAPI: no JSON schema for the scalar ${name} (rest-facade/openapi/scalars.ts)`);
  return { ...schema };
}
