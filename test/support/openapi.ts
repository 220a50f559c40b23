import { createRequire } from 'node:module';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * The public references prepared for ajv, so that contract tests can validate response bodies against
 * the reference schema of each operation: OpenAPI 3.0.3 of `@gitbook/api@0.130.0` (the contract's, whose
 * functions this module exports as they are) and of `@gitbook/api@0.202.0`, the current client
 * (`currentReference`, installed as `gitbook-api-0.202`).
 */

type Schema = Record<string, any>;
type Operation = { operationId?: string; responses?: Record<string, any> };

type Spec = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, Schema> };
};

const require = createRequire(import.meta.url);

const COMBINATIONS = ['allOf', 'anyOf', 'oneOf'] as const;

/**
 * Turns one OpenAPI 3.0 schema into JSON Schema that ajv understands:
 * - `nullable: true` becomes `anyOf: [<schema without nullable>, {type: 'null'}]`;
 * - `discriminator` is dropped (an annotation for code generators; oneOf/anyOf still validate);
 * - `$ref: '#/components/…'` points into the registered components document.
 * `member` is true for a direct branch of allOf/anyOf/oneOf (see `dropUndeclaredRequired`).
 */
function prepareSchema(specId: string, input: unknown, member = false): unknown {
  if (Array.isArray(input)) return input.map((item) => prepareSchema(specId, item));
  if (input === null || typeof input !== 'object') return input;
  const { nullable, discriminator: _discriminator, ...rest } = input as Schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) out[key] = `${specId}${value}`;
    else if ((key === 'properties' || key === 'patternProperties') && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, prepareSchema(specId, sub)]));
    } else if ((COMBINATIONS as readonly string[]).includes(key) && Array.isArray(value)) {
      out[key] = value.map((sub) => prepareSchema(specId, sub, true));
    } else if (key === 'enum' || key === 'required' || key === 'example' || key === 'examples' || key === 'default') {
      out[key] = value;
    } else out[key] = prepareSchema(specId, value);
  }
  dropUndeclaredRequired(out, member);
  return nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
}

/**
 * Reference defects: some schemas list in `required` a name that they never declare in `properties`,
 * e.g. `Space` requires `type` (a property it never declares, so its type and meaning are unknown)
 * and getOrganizationsForEmailDomain's response requires the misspelt `organizaitons`. Such a name
 * cannot be meant, so it is dropped — but only where nothing else could supply it: the schema has
 * `properties`, no allOf/anyOf/oneOf of its own, no additionalProperties schema, and it is not itself
 * a branch of a combination (whose siblings or parent may declare the name).
 */
function dropUndeclaredRequired(schema: Schema, member: boolean) {
  if (member || !Array.isArray(schema.required) || !schema.properties || typeof schema.properties !== 'object') return;
  if (COMBINATIONS.some((key) => key in schema)) return;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return;
  const declared = schema.required.filter((name: string) => name in schema.properties);
  if (declared.length === schema.required.length) return;
  if (declared.length) schema.required = declared;
  else delete schema.required;
}

const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

/** A top-level property of a reference request body: required by every variant, nullable anywhere it is declared. */
export type BodyProperty = { required: boolean; nullable: boolean };

/** The reference's `requestBody` of an operation: whether it is required and its top-level properties. */
export type ReferenceBody = { required: boolean; properties: Map<string, BodyProperty> };

/** One reference: its operations, response schemas and request bodies, validated with ajv. `specId` names its components. */
function referenceOf(spec: Spec, specId: string) {
  const components = {
    $id: specId,
    components: {
      schemas: Object.fromEntries(Object.entries(spec.components.schemas).map(([name, schema]) => [name, prepareSchema(specId, schema)])),
    },
  };

  // Reference defect: PlainObject declares no `type`, so a string value matches both the PlainObject and the
  // string branch of its own values' oneOf, and no map with a string value could validate. It means an object.
  const plainObject = components.components.schemas.PlainObject as Schema | undefined;
  if (plainObject) plainObject.type = 'object';

  // Reference defect: a page edit's `attributes` is oneOf the document, group and link attributes, whose
  // properties are all optional and overlap (title, emoji, slug), so an edit of a title matches two of
  // them and no edit could validate. The page's type says which applies: any one of them must match.
  const pageEdited = components.components.schemas.RevisionSemanticChangePageEdited as
    { properties?: { attributes?: { oneOf?: unknown[]; anyOf?: unknown[] } } } | undefined;
  const editedAttributes = pageEdited?.properties?.attributes;
  if (editedAttributes?.oneOf) {
    editedAttributes.anyOf = editedAttributes.oneOf;
    delete editedAttributes.oneOf;
  }

  // strict: false because the reference carries OpenAPI annotations (example, deprecated, x-…) unknown to JSON Schema.
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  // The reference's custom formats: any string is accepted.
  ajv.addFormat('emoji', { type: 'string', validate: () => true });
  ajv.addFormat('icon', { type: 'string', validate: () => true });
  ajv.addSchema(components);

  const operations = new Map<string, Operation>();
  for (const item of Object.values(spec.paths)) {
    for (const operation of Object.values(item)) {
      if (operation && typeof operation === 'object' && operation.operationId) operations.set(operation.operationId, operation);
    }
  }

  /** Whether the reference has an operation of that id (the REST extras beyond it have none). */
  const inReference = (operationId: string): boolean => operations.has(operationId);

  /** The reference operation of that id, or throws. */
  function referenceOperation(operationId: string): Operation {
    const operation = operations.get(operationId);
    if (!operation) throw new Error(`No operation ${operationId} in the reference`);
    return operation;
  }

  /** The 2xx statuses the reference declares for an operation. */
  function referenceSuccessStatuses(operationId: string): number[] {
    return Object.keys(referenceOperation(operationId).responses ?? {})
      .filter((status) => /^2\d\d$/.test(status))
      .map(Number);
  }

  /** The raw (unprepared) JSON response schema of an operation for a status, or undefined when it has no body. */
  function responseSchema(operationId: string, status: number): Schema | undefined {
    let response = referenceOperation(operationId).responses?.[String(status)];
    if (!response) throw new Error(`The reference has no ${status} response for ${operationId}`);
    while (typeof response.$ref === 'string') {
      const name = response.$ref.replace('#/components/responses/', '');
      response = spec.components.responses[name];
      if (!response) throw new Error(`Unresolvable response ${name} of ${operationId}`);
    }
    return response.content?.['application/json']?.schema;
  }

  const validators = new Map<string, ValidateFunction | null>();

  /**
   * Validates a response body against the reference schema of `operationId` for `status`; returns ajv's
   * errors, empty when the body conforms. A status without a JSON body in the reference expects none.
   */
  function validateResponse(operationId: string, status: number, body: unknown): ErrorObject[] {
    const key = `${operationId} ${status}`;
    if (!validators.has(key)) {
      const schema = responseSchema(operationId, status);
      validators.set(key, schema ? ajv.compile(prepareSchema(specId, schema) as Schema) : null);
    }
    const validate = validators.get(key);
    if (!validate) {
      const empty = body === undefined || body === null || body === '';
      return empty ? [] : [{ instancePath: '', schemaPath: '', keyword: 'body', params: {}, message: 'must be empty (no JSON body in the reference)' }];
    }
    return validate(body) ? [] : [...(validate.errors ?? [])];
  }

  const resolve = (schema: Schema | undefined): Schema | undefined => {
    let current = schema;
    while (typeof current?.$ref === 'string')
      current = current.$ref
        .split('/')
        .slice(1)
        .reduce((node: any, key: string) => node?.[key], spec);
    return current;
  };

  /** A schema accepts null: `nullable: true` on it, or on a branch of its oneOf/anyOf, or on every part of its allOf. */
  function acceptsNull(input: Schema | undefined): boolean {
    const schema = resolve(input);
    if (!schema) return false;
    if (schema.nullable === true) return true;
    if ((schema.oneOf ?? schema.anyOf)?.some(acceptsNull)) return true;
    return Array.isArray(schema.allOf) && schema.allOf.length > 0 && schema.allOf.every(acceptsNull);
  }

  /**
   * Collects the top-level properties of a body schema. A property is required when the schema or one of
   * its allOf parts requires it (a oneOf/anyOf branch requiring it makes it required only in that branch).
   */
  function collectProperties(input: Schema | undefined, into: Map<string, BodyProperty>, always: boolean) {
    const schema = resolve(input);
    if (!schema) return;
    for (const part of schema.allOf ?? []) collectProperties(part, into, always);
    for (const branch of schema.oneOf ?? schema.anyOf ?? []) collectProperties(branch, into, false);
    for (const [name, property] of Object.entries<Schema>(schema.properties ?? {})) {
      const known = into.get(name) ?? { required: false, nullable: false };
      into.set(name, {
        required: known.required || (always && (schema.required ?? []).includes(name)),
        nullable: known.nullable || acceptsNull(property),
      });
    }
  }

  /** The reference's request body of an operation, or undefined when it declares none. */
  function referenceBody(operationId: string): ReferenceBody | undefined {
    const body = resolve((referenceOperation(operationId) as Schema).requestBody);
    if (!body) return undefined;
    const properties = new Map<string, BodyProperty>();
    collectProperties(body.content?.['application/json']?.schema, properties, true);
    return { required: body.required === true, properties };
  }

  return { inReference, referenceOperation, referenceSuccessStatuses, responseSchema, validateResponse, referenceBody };
}

/** ajv errors as readable lines, for assertion messages. */
export function formatErrors(errors: ErrorObject[]): string {
  return errors.map((e) => `${e.instancePath || '(root)'} ${e.message}${Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`).join('\n');
}

/** The contract's reference, `@gitbook/api@0.130.0`. */
export const { inReference, referenceOperation, referenceSuccessStatuses, responseSchema, validateResponse, referenceBody } = referenceOf(
  require('@gitbook/api/spec/openapi.json') as Spec,
  'gitbook-openapi',
);

/** The current client's reference, `@gitbook/api@0.202.0`. */
export const currentReference = referenceOf(require('gitbook-api-0.202/spec/openapi.json') as Spec, 'gitbook-openapi-0.202');
