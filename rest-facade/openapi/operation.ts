import {
  getOperationAST,
  isNonNullType,
  Kind,
  parse,
  typeFromAST,
  getNamedType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE } from '../../src/kernel/pagination.js';
import type { Config } from '../../src/kernel/config.js';
import { describedArguments } from '../../src/kernel/validation.js';
import { guardOf } from '../../src/graphql/schema.js';
import { bodyOf, IF_MATCH_VARIABLE, type Route } from '../route.js';
import { type Components, type JsonSchema } from './components.js';
import { errorResponse } from './errors.js';
import { ETAG, IF_NONE_MATCH, NOT_MODIFIED } from './revalidation.js';
import { defaultOf, inputSchema } from './inputs.js';
import type { SelectionSchemas } from './selection.js';

/** The bounds of a paged list's `limit` (`pageSize` of src/kernel/pagination.ts). */
const PAGE_LIMIT: JsonSchema = { minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE };

/** What the generator needs of the world beyond one route. */
export type OperationContext = {
  schema: GraphQLSchema;
  components: Components;
  selections: SelectionSchemas;
  config: Config;
  tag?: string;
};

/** Every POST takes an optional idempotency key (docs/behaviour/idempotency.md). */
const IDEMPOTENCY_KEY_PARAMETER: JsonSchema = {
  name: 'Idempotency-Key',
  in: 'header',
  description:
    'Runs the request once: the same request again with the key, by the same user within 24 hours, replays the first success ' +
    '(with `Idempotency-Replayed: true`); another request with the key answers 422, one sent while the first runs 409.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
};

type Variable = { name: string; type: GraphQLInputType; required: boolean; default?: unknown; description?: string; bounds?: JsonSchema };

/** The header a conditional write takes (docs/behaviour/conditional-requests.md). */
const IF_MATCH_PARAMETER: JsonSchema = {
  name: 'If-Match',
  in: 'header',
  description:
    "Write only if the resource's current ETag (the `ETag` its GET answers this caller) is one of these entity tags (strong comparison: " +
    'a `W/` tag never matches), or if it exists (`*`); else 412 and nothing is written. Optional: without it the write happens.',
  schema: { type: 'string', examples: ['"3q2-7wYJ0xYm1nBQaP6H8Mhv3Vw"', '*'] },
};

/**
 * One route as an OpenAPI operation: path and query parameters and the JSON body from the document's
 * variables (as the router maps them), the success response from the document's selection, the
 * failures it can answer, and whether it needs a token (not when its root field is `@public`).
 */
export function operationOf(route: Route, context: OperationContext): JsonSchema {
  const { schema } = context;
  const parsed = parse(route.document);
  const operation = getOperationAST(parsed)!;
  const root = operation.selectionSet.selections[0];
  if (root.kind !== Kind.FIELD) throw new Error(`OpenAPI: ${route.operationId}: the root selection is not a field`);
  const rootType = operation.operation === 'query' ? schema.getQueryType()! : schema.getMutationType()!;
  const rootField = rootType.getFields()[root.name.value];
  const open = guardOf(schema, rootField as never)?.kind === 'public';
  const variables = variablesOf(operation, schema, rootField);
  const pathNames = new Set([...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]));
  const takesBody = bodyOf(route, parsed);

  const parameters: JsonSchema[] = [];
  for (const name of pathNames) {
    const variable = variables.find((v) => v.name === name)!;
    parameters.push({ name, in: 'path', required: true, schema: parameterSchema(variable, context) });
  }
  const conditional = variables.some((variable) => variable.name === IF_MATCH_VARIABLE);
  if (conditional) parameters.push(IF_MATCH_PARAMETER);
  const rest = variables.filter((variable) => !pathNames.has(variable.name) && variable.name !== IF_MATCH_VARIABLE);
  if (takesBody === 'none') {
    for (const variable of rest) {
      parameters.push({
        name: variable.name,
        in: 'query',
        ...(variable.required ? { required: true } : {}),
        ...(variable.description ? { description: variable.description } : {}),
        schema: parameterSchema(variable, context),
      });
    }
  }

  if (route.method === 'POST') parameters.push(IDEMPOTENCY_KEY_PARAMETER);
  if (route.method === 'GET') parameters.push(IF_NONE_MATCH);

  const fragments = Object.fromEntries(
    parsed.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );
  const responses: Record<string, JsonSchema> = { ...successResponses(route, rootField.type, root, fragments, context) };
  // Every GET answers an ETag, and 304 to an If-None-Match that names it (the router's JSON answers).
  if (route.method === 'GET' && responses['200']) {
    responses['200'] = { ...responses['200'], headers: { ETag: ETAG } };
    responses['304'] = NOT_MODIFIED;
  }
  const failures = new Set([400, 401, 429, 500, 503]);
  if (!open) failures.add(403);
  if (pathNames.size) failures.add(404);
  if (operation.operation === 'mutation') failures.add(409);
  if (takesBody !== 'none') [413, 415].forEach((status) => failures.add(status));
  if (conditional) failures.add(412);
  if (route.method === 'POST') [409, 422].forEach((status) => failures.add(status));
  for (const status of [...failures].sort()) responses[String(status)] = errorResponse(status);

  return {
    operationId: route.operationId,
    ...(context.tag ? { tags: [context.tag] } : {}),
    ...(rootField.description ? { description: rootField.description } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(takesBody !== 'none' ? { requestBody: requestBodyOf(route, rest, takesBody === 'required', context) } : {}),
    responses,
    // A token is optional on @public operations (it may widen what they answer), required elsewhere.
    ...(open ? { security: [{}, { bearerAuth: [] }] } : {}),
  };
}

function variablesOf(operation: OperationDefinitionNode, schema: GraphQLSchema, rootField: GraphQLField<unknown, unknown>): Variable[] {
  // The root field's argument each variable feeds, for its description.
  const argumentOf = new Map<string, string>();
  const root = operation.selectionSet.selections[0];
  if (root?.kind === Kind.FIELD) {
    for (const argument of root.arguments ?? []) if (argument.value.kind === Kind.VARIABLE) argumentOf.set(argument.value.name.value, argument.name.value);
  }
  return (operation.variableDefinitions ?? []).map((definition) => {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType;
    const argument = rootField.args.find((arg) => arg.name === argumentOf.get(name));
    const fallback = defaultOf(type, definition.defaultValue) ?? argument?.defaultValue;
    const paged = argument?.name === 'limit' && rootField.args.some((arg) => arg.name === 'page');
    const bounds = paged ? PAGE_LIMIT : argument && describedArguments.get(`${rootField.name}.${argument.name}`);
    return {
      name,
      type,
      required: isNonNullType(type) && fallback === undefined,
      ...(bounds ? { bounds } : {}),
      ...(fallback !== undefined ? { default: fallback } : {}),
      ...(argument?.description ? { description: argument.description } : {}),
    };
  });
}

function parameterSchema(variable: Variable, context: OperationContext): JsonSchema {
  const schema = inputSchema(variable.type, context.components);
  return { ...schema, ...variable.bounds, ...(variable.default !== undefined ? { default: variable.default } : {}) };
}

function requestBodyOf(route: Route, variables: Variable[], required: boolean, context: OperationContext): JsonSchema {
  let schema: JsonSchema;
  if (route.body === 'bytes') schema = route.bodySchema?.(context.config) ?? {};
  else if (route.body === 'input') schema = inputSchema(variables.find((v) => v.name === 'input')!.type, context.components);
  else {
    // One body field per variable that is not in the path (the router's default mapping).
    schema = {
      type: 'object',
      properties: Object.fromEntries(
        variables.map((variable) => [
          variable.name,
          { ...parameterSchema(variable, context), ...(variable.description ? { description: variable.description } : {}) },
        ]),
      ),
      additionalProperties: false,
    };
    const names = variables.filter((variable) => variable.required).map((variable) => variable.name);
    if (names.length) schema.required = names;
  }
  return { required, content: { 'application/json': { schema } } };
}

function successResponses(
  route: Route,
  type: GraphQLOutputType,
  root: FieldNode,
  fragments: Record<string, FragmentDefinitionNode>,
  context: OperationContext,
): Record<string, JsonSchema> {
  if (route.status === 204) return { '204': { description: 'Done (no body).' } };
  let answered = { type, selection: root };
  if (route.upsert) {
    // The root field answers {created, <entity>}; the body is the entity.
    const entity = root.selectionSet?.selections.find((s) => s.kind === Kind.FIELD && (s.alias?.value ?? s.name.value) === route.upsert!.entity);
    if (entity?.kind !== Kind.FIELD) throw new Error(`OpenAPI: ${route.operationId}: the upsert selects no ${route.upsert.entity}`);
    answered = { type: (getNamedType(type) as GraphQLObjectType).getFields()[entity.name.value].type, selection: entity };
  }
  const answer = context.selections.valueSchema(answered.type, answered.selection.selectionSet, fragments);
  const content = { 'application/json': { schema: answer } };
  // The router sets Location on a 201 from the body's urls.location.
  const location = hasLocation(answer, context.components)
    ? { headers: { Location: { description: 'The URL of the created resource.', schema: { type: 'string', format: 'uri' } } } }
    : {};
  const responses: Record<string, JsonSchema> = {};
  if (route.status === 201 || route.upsert) responses['201'] = { description: 'Created.', ...location, content };
  if (route.status === 200) responses['200'] = { description: route.upsert ? 'Updated.' : 'OK.', content };
  return responses;
}

/** Whether an answer's schema has `urls.location` (following references into the components). */
function hasLocation(answer: JsonSchema, components: Components): boolean {
  const resolve = (schema: JsonSchema | undefined): JsonSchema | undefined =>
    typeof schema?.$ref === 'string' ? components.schemas[schema.$ref.split('/').pop()!] : schema;
  const properties = (schema: JsonSchema | undefined) => resolve(schema)?.properties as Record<string, JsonSchema> | undefined;
  return !!properties(properties(answer)?.urls)?.location;
}
