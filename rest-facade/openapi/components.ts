/** A JSON Schema (OpenAPI 3.1 schemas are JSON Schema 2020-12). */
export type JsonSchema = Record<string, unknown>;

/**
 * The document's `components.schemas`, filled as the generator meets types. An input type or enum has
 * one schema per name; an object type gets one per distinct selection of its fields: the first keeps the
 * type's name, the others are numbered (`Space`, `Space2`), and equal selections share one entry.
 */
export class Components {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly byContent = new Map<string, string>();

  /** A reference to the schema named `name`, made by `make` the first time (and may refer to itself). */
  named(name: string, make: () => JsonSchema): JsonSchema {
    if (!(name in this.schemas)) {
      this.schemas[name] = {};
      this.schemas[name] = make();
    }
    return refTo(name);
  }

  /** A reference to `schema` under `typeName` or a numbered variant of it, shared by equal schemas. */
  variant(typeName: string, schema: JsonSchema): JsonSchema {
    const key = `${typeName}\u0000${JSON.stringify(schema)}`;
    let name = this.byContent.get(key);
    if (!name) {
      name = typeName;
      for (let n = 2; name in this.schemas; n++) name = `${typeName}${n}`;
      this.schemas[name] = schema;
      this.byContent.set(key, name);
    }
    return refTo(name);
  }
}

export const refTo = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** `schema` that also takes null. */
export function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string' && !schema.$ref) {
    const { enum: values, ...rest } = schema;
    return { ...rest, type: [schema.type, 'null'], ...(Array.isArray(values) ? { enum: [...values, null] } : {}) };
  }
  return { anyOf: [schema, { type: 'null' }] };
}
