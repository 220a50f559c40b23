import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import {
  getNamedType,
  getNullableType,
  getOperationAST,
  isListType,
  Kind,
  parse,
  typeFromAST,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { recordRefusal } from '../src/domain/audit/index.js';
import type { AppDeps, Context } from '../src/kernel/context.js';
import { createContext } from '../src/graphql/request-context.js';
import { domainErrorOf } from '../src/db/database-errors.js';
import { DomainError, ERROR_STATUS } from '../src/kernel/errors.js';
import { domainErrorIn, logFailure, statusOf } from '../src/http/door-errors.js';
import { compile, run } from '../src/graphql/jit.js';
import { builtWithoutNulls, leaveOutNullsIn, materialized, stringifyAnswer } from '../src/kernel/prebuilt-answers.js';
import { guardOf } from '../src/graphql/schema.js';
import { hasPlainWording, inputTypeAt, parseVariableError, plainType } from '../src/http/variable-errors.js';
import type { CompiledQuery } from 'graphql-jit';
import { inputProblemAt, problemMessage } from '../src/kernel/nul.js';
import { NOT_AN_OBJECT, verifyUtf8 } from '../src/http/body.js';
import { requestLogger, sendError, sendFailure } from '../src/http/responses.js';
import { factsOf, noteContext } from '../src/http/request-facts.js';
import { authenticationOf } from '../src/http/authenticated-request.js';
import { chargeFailedAuthentication, chargeRequest } from '../src/rate-limits/charge.js';
import { costOf, type Cost } from '../src/rate-limits/cost.js';
import { leaveOutNulls, nullFieldsOf, shapeOf, type NullFields } from './answer-shape.js';
import { bodyOf, IF_MATCH_VARIABLE, type Route } from './route.js';
import { parseEtagCondition } from '../src/kernel/etags.js';
import { routes } from './routes/index.js';

export type PreparedRoute = Route & {
  parsed: DocumentNode;
  /**
   * The document compiled by graphql-jit at its first call, then kept (null: it runs through graphql-js).
   * Not at start-up: the compiled code of every route would sit in memory, used or not (about 15 MB of
   * generated source alone for the 134 routes).
   */
  compiled: () => CompiledQuery | null;
  variables: Map<string, GraphQLInputType>;
  rootKey: string;
  /** The null fields its answers leave out (see answer-shape.ts). */
  nullFields: NullFields | undefined;
  /** The root field is @public: the operation answers without a token. */
  open: boolean;
  /** Whether the operation reads a JSON body, and whether it may be left out. */
  takesBody: ReturnType<typeof bodyOf>;
  /** What a call takes from its caller's rate limit. */
  cost: Cost;
  /** A mutation: its refusals go to the audit log. */
  mutation: boolean;
};

/** Parses and validates a route's document against the schema; a broken route stops start-up. */
export function prepare(schema: GraphQLSchema, route: Route): PreparedRoute {
  // Kept for the route's life; source positions only serve error locations, which REST answers leave out.
  const parsed = parse(route.document, { noLocation: true });
  const errors = validate(schema, parsed);
  if (errors.length) throw new Error(`Route ${route.operationId}: ${errors.map((e) => e.message).join('; ')}`);
  const operation = getOperationAST(parsed);
  const root = operation?.selectionSet.selections[0];
  if (!operation || operation.selectionSet.selections.length !== 1 || root?.kind !== Kind.FIELD) {
    throw new Error(`Route ${route.operationId}: the document must have one operation with one root field`);
  }
  const variables = new Map<string, GraphQLInputType>();
  for (const definition of operation.variableDefinitions ?? []) {
    variables.set(definition.variable.name.value, typeFromAST(schema, definition.type as never) as GraphQLInputType);
  }
  for (const [, name] of route.path.matchAll(/\{(\w+)\}/g)) {
    if (!variables.has(name)) throw new Error(`Route ${route.operationId}: no variable $${name} for the path parameter`);
  }
  const fragments = Object.fromEntries(
    parsed.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );
  const rootType = operation.operation === 'query' ? schema.getQueryType()! : schema.getMutationType()!;
  const rootShape = shapeOf(schema, operation.selectionSet, rootType, fragments);
  const rootKey = root.alias?.value ?? root.name.value;
  const open = guardOf(schema, rootType.getFields()[root.name.value] as never)?.kind === 'public';
  let shape = rootShape.get(rootKey)?.children ?? new Map();
  if (route.upsert) {
    if (!shape.has('created') || !shape.has(route.upsert.entity))
      throw new Error(`Route ${route.operationId}: an upsert selects created and ${route.upsert.entity}`);
    shape = shape.get(route.upsert.entity)!.children ?? new Map();
  }
  const takesBody = bodyOf(route, parsed);
  if (route.optionalBody && takesBody === 'none') throw new Error(`Route ${route.operationId}: optionalBody, but the route takes no body`);
  let compiled: CompiledQuery | null | undefined;
  const compiledOnce = () => (compiled === undefined ? (compiled = compile(schema, parsed)) : compiled);
  return {
    ...route,
    parsed,
    compiled: compiledOnce,
    variables,
    rootKey,
    nullFields: nullFieldsOf(shape),
    open,
    takesBody,
    cost: costOf(parsed),
    mutation: operation.operation === 'mutation',
  };
}

const prepared = new WeakMap<GraphQLSchema, readonly PreparedRoute[]>();

/** Every route prepared for `schema`, once: the router serves them, representations.ts reads resources' GETs with them. */
export function preparedRoutes(schema: GraphQLSchema): readonly PreparedRoute[] {
  let all = prepared.get(schema);
  if (!all) prepared.set(schema, (all = routes.map((route) => prepare(schema, route))));
  return all;
}

/** Turns a query-string value into the variable's GraphQL type, or throws a 400 naming the parameter. */
function coerceParameter(name: string, raw: unknown, type: GraphQLInputType): unknown {
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    const values = (Array.isArray(raw) ? raw : String(raw).split(',')).filter((v) => v !== '');
    return values.map((v) => coerceParameter(name, v, nullable.ofType));
  }
  if (Array.isArray(raw)) throw new DomainError('BAD_REQUEST', `${name}: must be given once`);
  const value = String(raw);
  switch (getNamedType(nullable).name) {
    case 'Int':
      if (!/^-?\d+$/.test(value)) throw new DomainError('BAD_REQUEST', `${name}: must be an integer`);
      return Number(value);
    case 'Float':
      if (value.trim() === '' || Number.isNaN(Number(value))) throw new DomainError('BAD_REQUEST', `${name}: must be a number`);
      return Number(value);
    case 'Boolean':
      if (value === 'true') return true;
      if (value === 'false') return false;
      throw new DomainError('BAD_REQUEST', `${name}: must be true or false`);
    default:
      return value;
  }
}

/**
 * Rewrites GraphQL's variable-coercion messages so that they name the REST field and say what it
 * expects in plain words (`title: expected a string`), given the route's variable types.
 */
export function restMessage(message: string, variables?: ReadonlyMap<string, GraphQLInputType>): string {
  const invalid = parseVariableError(message);
  if (invalid) {
    const { variable, path, detail } = invalid;
    const field = path ? path.replace(/^input\./, '') : variable === 'input' ? '' : variable;
    const prefix = field ? `${field}.` : '';
    const unknown = /^Field "(\w+)" is not defined by type "\w+"\./.exec(detail);
    if (unknown) return `${prefix}${unknown[1]}: unknown field`;
    const missing = /^Field "(\w+)" of required type "[^"]+" was not provided\./.exec(detail);
    if (missing) return `${prefix}${missing[1]}: is required`;
    const name = field || 'body';
    const variableType = variables?.get(variable);
    const type = variableType ? inputTypeAt(variableType, path ?? variable) : null;
    const isNull = /^Expected non-nullable type "[^"]+" not to be null\./.test(detail);
    if (type && hasPlainWording(type)) return `${name}: expected ${plainType(type)}${isNull ? ', not null' : ''}`;
    if (isNull) return `${name}: must not be null`;
    // Other scalars (DateTime, ...) word what they expect themselves.
    return `${name}: ${type ? detail.replace(/^Expected type "\w+"\. /, '') : detail}`;
  }
  const required = /^Variable "\$(\w+)" of (?:required|non-null) type "[^"]+" (?:was not provided|must not be null)\.$/.exec(message);
  if (required) return required[1] === 'input' ? 'body: a JSON object is required' : `${required[1]}: is required`;
  return message;
}

/**
 * No body was sent: no bytes at all (the JSON parser leaves `req.body` undefined) or an empty one
 * declared with a JSON type (which the parser reads as `{}`, and the bytes parser as an empty buffer).
 */
function bodyAbsent(req: Request): boolean {
  if (req.body === undefined || req.headers['content-length'] === '0') return true;
  return Buffer.isBuffer(req.body) && req.body.length === 0;
}

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);

function variablesOf(route: PreparedRoute, req: Request): Record<string, unknown> {
  // The one rule of both doors, here in REST's names: path and query parameters, body fields.
  // A body that is no object is refused below for that.
  const walkBody = route.body !== 'bytes' && isJsonObject(req.body);
  const problem = inputProblemAt(req.params) ?? inputProblemAt(req.query) ?? (walkBody ? inputProblemAt(req.body) : null);
  if (problem) throw new DomainError('BAD_REQUEST', problemMessage(problem));
  const variables: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(req.params)) variables[name] = Array.isArray(value) ? value.join('/') : value;
  for (const [name, value] of Object.entries(req.query)) {
    const type = route.variables.get(name);
    if (type && !(name in req.params) && name !== IF_MATCH_VARIABLE) variables[name] = coerceParameter(name, value, type);
  }
  const ifMatch = req.headers['if-match'];
  if (ifMatch !== undefined && route.method !== 'GET' && route.method !== 'POST') {
    if (!route.variables.has(IF_MATCH_VARIABLE))
      throw new DomainError('BAD_REQUEST', 'If-Match: this operation does not take it (see docs/behaviour/conditional-requests.md)');
    parseEtagCondition('If-Match', ifMatch);
    variables[IF_MATCH_VARIABLE] = ifMatch;
  }
  if (route.method === 'GET' || route.method === 'DELETE') return variables;
  if (bodyAbsent(req)) {
    if (route.takesBody === 'required') throw new DomainError('BAD_REQUEST', 'body: a JSON object is required');
    if (route.body === 'bytes') variables.body = Buffer.from('{}');
    if (route.body === 'input') variables.input = {};
    return variables;
  }
  if (route.body === 'bytes') {
    variables.body = req.body;
    return variables;
  }
  const body: unknown = req.body;
  if (!isJsonObject(body)) throw new DomainError('BAD_REQUEST', NOT_AN_OBJECT);
  if (route.body === 'input') {
    variables.input = body;
    return variables;
  }
  for (const [name, value] of Object.entries(body)) {
    if (!route.variables.has(name) || name in req.params || name === IF_MATCH_VARIABLE) throw new DomainError('BAD_REQUEST', `${name}: unknown field`);
    variables[name] = value;
  }
  return variables;
}

/**
 * The one pipeline of every REST operation: authenticate → variables → execute the route's document →
 * success status and body, or the contract's error body with the status of the first error. A token is
 * required unless the document's root field is @public.
 */
export function createRestRouter(deps: AppDeps, schema: GraphQLSchema, idempotency?: RequestHandler): Router {
  const router = express.Router();
  for (const route of preparedRoutes(schema)) {
    // A last parameter named …Path (a page's path) spans segments: clients send its slashes as they are.
    const path = route.path
      .replace(/^\/v1/, '')
      .replace(/\{(\w+Path)\}$/, '*$1')
      .replace(/\{(\w+)\}/g, ':$1');
    const parsers = route.body === 'bytes' ? [bytesParser(route.bodyLimit?.(deps.config) ?? deps.config.bodyLimit)] : [];
    const facts = { door: 'rest', operationId: route.operationId } as const;
    const noteRoute: RequestHandler = (_req, res, next) => (Object.assign(factsOf(res), facts), next());
    // A POST with an Idempotency-Key runs once (src/http/idempotency/): after its body is read, before it runs.
    const keyed = idempotency && route.method === 'POST' ? [idempotency] : [];
    router[route.method.toLowerCase() as 'get'](path, noteRoute, ...parsers, ...keyed, async (req: Request, res: Response) => {
      let ctx: Context | undefined;
      // A refused mutation is in the audit log, under the operation id, whatever refused it (the path names its target).
      const noteRefusal = (status: number, message: string) =>
        ctx && route.mutation ? recordRefusal(ctx, { operation: route.operationId, status, message, args: req.params }) : undefined;
      try {
        const context = createContext(deps, {
          authorization: req.headers.authorization,
          logger: requestLogger(req, deps.logger),
          authenticated: authenticationOf(res),
        });
        ctx = noteContext(res, await context.catch((error) => chargeFailedAuthentication(deps.rateLimits, res, route.cost, error)));
        // Counted before anything runs: a refused call changes nothing.
        await chargeRequest(deps.rateLimits, res, route.cost);
        if (!ctx.viewer && !route.open) return sendError(res, 401, 'Authentication required: send "Authorization: Bearer <token>"');
        leaveOutNullsIn(ctx);
        const result = await run(schema, route.compiled(), route.parsed, undefined, variablesOf(route, req), ctx);
        if (result.errors?.length) {
          const error = result.errors[0];
          const status = statusOf(error);
          logFailure(ctx.logger, error, { operation: route.operationId }, status === 500);
          const message = status === 500 ? 'Internal server error' : restMessage(error.message, route.variables);
          await noteRefusal(status, message);
          return sendError(res, status, message, domainErrorIn(error)?.headers);
        }
        if (route.status === 204) return res.status(204).end();
        let data = (result.data as Record<string, unknown>)[route.rootKey];
        let status: number = route.status;
        if (route.upsert) {
          const answer = data as Record<string, unknown>;
          if (answer.created) status = 201;
          data = answer[route.upsert.entity];
        }
        // A whole answer the database wrote for GraphQL (with its nulls) is parsed to leave them out.
        if (!builtWithoutNulls(data)) data = materialized(data);
        leaveOutNulls(data, route.nullFields);
        const location = status === 201 && (data as { urls?: { location?: string } } | null)?.urls?.location;
        if (location) res.location(location);
        return res.status(status).type('json').send(stringifyAnswer(data));
      } catch (error) {
        const refusal = domainErrorOf(error);
        if (refusal) await noteRefusal(ERROR_STATUS[refusal.code], refusal.message);
        return sendFailure(req, res, error, deps.logger, { operation: route.operationId });
      }
    });
  }
  return router;
}

/** The body's bytes, up to `limit` (413 above it, naming the limit). */
function bytesParser(limit: string): RequestHandler {
  const raw = express.raw({ type: ['application/json', '+json'], limit, verify: verifyUtf8 });
  return (req, res, next) =>
    raw(req, res, (error?: { type?: string }) => (error?.type === 'entity.too.large' ? sendError(res, 413, `Request body larger than ${limit}`) : next(error)));
}

/** Operations whose body goes to their document as bytes (`body: 'bytes'`): the JSON parser leaves them alone (matched regardless of case, as express routes). */
const bytesRoutes = routes
  .filter((route) => route.body === 'bytes')
  .map((route) => ({ method: route.method, path: new RegExp(`^${route.path.replace(/\{\w+\}/g, '[^/]+')}/?$`, 'i') }));
export const takesBodyBytes = (req: { method: string; path: string }) => bytesRoutes.some((route) => route.method === req.method && route.path.test(req.path));

export { routes };
