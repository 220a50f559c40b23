import { z } from 'zod';

/*
 * Each GraphQL input type is declared once: as the zod schema that parses it. An area lists its input
 * types on its manifest (`inputs`, by type name); the schema's SDL for them is printed from the zod
 * schema here, the services parse mutation input with the same schema (kernel/validation.ts), and the
 * REST reference shows its bounds (rest-facade/openapi/inputs.ts). zod rather than SDL is the source
 * because the rules live there (lengths, patterns, refinements with their own messages, unions of
 * shapes) and SDL has no words for them; the GraphQL structure follows from the zod types:
 *
 *   string, string formats, enums → String     boolean → Boolean     integer → Int, number → Float
 *   array → [T!] (or [T] when its items take null)     a named object (`inputType`) → that input type
 *   anything else (unions, records, unknown) → JSON    optional or nullable → nullable, else `!`
 *
 * Where the GraphQL type is not what zod's type implies (an ID, a GraphQL enum, a field GraphQL leaves
 * optional while zod gives the refusal), the field says so with `shownAs`. A field's `.describe(…)` is
 * its SDL description.
 */

type InputMeta = { name: string } | { type: string; nullable?: boolean };
const graphqlTypes = z.registry<InputMeta>();

/** A nested input object, shown as the input type `name` (declared wherever it is used; printed once). */
export function inputType<S extends z.ZodType>(name: string, schema: S): S {
  graphqlTypes.add(schema, { name });
  return schema;
}

/**
 * A field shown as the GraphQL type `type` (`ID`, `Role`, `[ID!]`), non-null as zod says unless
 * `nullable` says otherwise (a field GraphQL leaves optional so that the refusal is zod's message).
 */
export function shownAs<S extends z.ZodType>(type: string, schema: S, options: { nullable?: boolean } = {}): S {
  graphqlTypes.add(schema, { type, ...options });
  return schema;
}

/** The input types an area declares, by GraphQL name. */
export type InputTypes = Readonly<Record<string, z.ZodType>>;

/** The SDL of input types and of the named input objects they nest, each printed once. */
export function inputTypeDefs(inputs: InputTypes): string {
  const printed = new Map<string, string>();
  for (const [name, schema] of Object.entries(inputs)) printInput(name, schema, printed);
  return [...printed.values()].join('\n\n');
}

/** Input types and the named input objects they nest, by name (what the REST reference shows bounds of). */
export function inputTypesWithin(inputs: InputTypes): Map<string, z.ZodType> {
  const found = new Map<string, z.ZodType>();
  const visit = (schema: z.ZodType, name?: string) => {
    const meta = metaOf(schema);
    const named = name ?? (meta && 'name' in meta ? meta.name : undefined);
    if (named !== undefined) {
      if (found.has(named)) return;
      found.set(named, name !== undefined ? schema : declaration(schema));
    }
    const inner = unwrapped(schema);
    if (inner instanceof z.ZodObject) for (const field of fieldsOf(inner)) visit(field);
    else if (inner instanceof z.ZodArray) visit(inner.element as z.ZodType);
  };
  for (const [name, schema] of Object.entries(inputs)) visit(schema, name);
  return found;
}

function printInput(name: string, schema: z.ZodType, printed: Map<string, string>): void {
  if (printed.has(name)) return;
  const object = unwrapped(schema);
  if (!(object instanceof z.ZodObject)) throw new Error(`input type ${name}: expected a zod object`);
  printed.set(name, ''); // reserves the place (and ends a cycle) before the fields print nested types
  const fields = Object.entries(object.shape as Record<string, z.ZodType>).map(
    ([field, fieldSchema]) => `${description(fieldSchema, '  ', true)}  ${field}: ${fieldType(`${name}.${field}`, fieldSchema, printed)}`,
  );
  printed.set(name, `${description(declaration(schema), '')}input ${name} {\n${fields.join('\n')}\n}`);
}

function fieldsOf(object: z.ZodObject): z.ZodType[] {
  const shape: Record<string, z.ZodType> = object.shape;
  return Object.values(shape);
}

/** The SDL type of a field (or list item): nullable when zod takes null or absence. */
function fieldType(where: string, schema: z.ZodType, printed: Map<string, string>): string {
  const shown = metaOf(schema);
  const type = shown && 'type' in shown ? shown.type : namedType(where, schema, printed);
  const nullable = (shown && 'nullable' in shown ? shown.nullable : undefined) ?? takesNothing(schema);
  return nullable ? type : `${type}!`;
}

function namedType(where: string, schema: z.ZodType, printed: Map<string, string>): string {
  const meta = metaOf(schema);
  if (meta && 'name' in meta) {
    printInput(meta.name, schema, printed);
    return meta.name;
  }
  const inner = unwrapped(schema);
  if (inner instanceof z.ZodString || inner instanceof z.ZodStringFormat || inner instanceof z.ZodEnum) return 'String';
  if (inner instanceof z.ZodBoolean) return 'Boolean';
  if (inner instanceof z.ZodNumber) return inner.isInt ? 'Int' : 'Float';
  if (inner instanceof z.ZodLiteral) return typeof inner.value === 'boolean' ? 'Boolean' : 'String';
  if (inner instanceof z.ZodArray) return `[${fieldType(where, inner.element as z.ZodType, printed)}]`;
  if (inner instanceof z.ZodObject) throw new Error(`${where}: a nested input object needs a name (inputType)`);
  return 'JSON';
}

/** The schema under the wrappers that change neither its GraphQL type nor its name. */
function unwrapped(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let inner = wrapped(current); inner; inner = wrapped(current)) current = inner;
  return current;
}

/** Whether a field may be left out or sent as null (then it is nullable in GraphQL). */
function takesNothing(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success || schema.safeParse(null).success || isOptionalOrNullable(schema);
}

function isOptionalOrNullable(schema: z.ZodType): boolean {
  for (let current: z.ZodType | undefined = schema; current; current = wrapped(current)) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) return true;
  }
  return false;
}

/** The GraphQL meta of a schema or of the schema it wraps (`shownAs(…).optional()` keeps its type). */
function metaOf(schema: z.ZodType): InputMeta | undefined {
  let current: z.ZodType | undefined = schema;
  while (current) {
    const meta = graphqlTypes.get(current);
    if (meta) return meta;
    current = wrapped(current);
  }
  return undefined;
}

/** The schema a wrapper wraps (optional, nullable, default, readonly, a pipe's input), else undefined. */
function wrapped(schema: z.ZodType): z.ZodType | undefined {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault || schema instanceof z.ZodReadonly) {
    return schema.unwrap() as z.ZodType;
  }
  return schema instanceof z.ZodPipe ? (schema.in as z.ZodType) : undefined;
}

/**
 * The description of a schema or of the schema it wraps. A field's (`ofField`) is its own: the
 * description of a named input object it holds is the input type's, not the field's.
 */
function description(schema: z.ZodType, indent: string, ofField = false): string {
  for (let current: z.ZodType | undefined = schema; current; current = wrapped(current)) {
    if (ofField && isNamed(current)) return '';
    if (current.description) return `${indent}"""${current.description}"""\n`;
  }
  return '';
}

/** The named input object under a field's wrappers (whose description is the type's), else the schema. */
function declaration(schema: z.ZodType): z.ZodType {
  for (let current: z.ZodType | undefined = schema; current; current = wrapped(current)) if (isNamed(current)) return current;
  return schema;
}

function isNamed(schema: z.ZodType): boolean {
  const meta = graphqlTypes.get(schema);
  return meta !== undefined && 'name' in meta;
}
