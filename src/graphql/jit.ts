import { execute, getOperationAST, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import { afterPendingConnectionEvents, connectionFailureOf } from '../db/connection-errors.js';
import type { Context } from '../kernel/context.js';
import { renewContext } from './request-context.js';
import { readFromReplicas } from '../db/read-routing.js';
import { recordReadPosition } from '../db/statements.js';
import { domainErrorOf } from '../db/database-errors.js';
import { allowPrebuiltAnswers } from '../kernel/prebuilt-answers.js';

type GatewayInterface = ApolloServerOptionsWithGateway<BaseContext>['gateway'];

/**
 * Executes validated documents with graphql-jit: each document is compiled once into a function that
 * walks its selection set without graphql-js's generic per-field machinery. A document graphql-jit
 * cannot compile falls back to graphql-js `execute`, so behaviour never depends on the compiler.
 */
export type Executable = (document: DocumentNode, variables: Record<string, unknown> | undefined, context: unknown) => Promise<ExecutionResult>;

/** Compiles one document (with one operation, or the named one); null when graphql-jit cannot. */
export function compile(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): CompiledQuery | null {
  try {
    const compiled = compileQuery(schema, document, operationName ?? undefined);
    return isCompiledQuery(compiled) ? compiled : null;
  } catch {
    return null;
  }
}

/**
 * An error of the result as both doors expect it: what the database refused becomes its domain error,
 * and every error is a graphql-js GraphQLError with `extensions` (graphql-jit's own errors leave them
 * undefined when the thrown error had none, which Apollo cannot format: it then answers a bare
 * INTERNAL_SERVER_ERROR without calling formatError, so nothing was logged).
 */
function settled(error: GraphQLError): GraphQLError {
  const original = error.originalError;
  const domain = original && !(original instanceof GraphQLError) ? domainErrorOf(original) : undefined;
  if (!domain && error.extensions) return error;
  const rebuilt = new GraphQLError(domain?.message ?? error.message, { path: error.path, originalError: domain ?? original });
  // The locations graphql-jit computed (graphql-js derives them from nodes, which it does not keep).
  (rebuilt as { locations?: GraphQLError['locations'] }).locations = error.locations;
  return rebuilt;
}

const isQuery = (document: DocumentNode, operationName: string | null | undefined) => getOperationAST(document, operationName)?.operation === 'query';

/**
 * Executes a validated document for either door. A query that failed because its database connection
 * was terminated runs once more on a new context (a new EntityManager fork, so a new connection);
 * mutations never run twice, they may have committed. Database failures come back as domain errors.
 */
export async function run(
  schema: GraphQLSchema,
  compiled: CompiledQuery | null,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | undefined,
  context: Context,
): Promise<ExecutionResult> {
  const viaGraphqlJs = (contextValue: Context) =>
    execute({ schema, document, operationName: operationName ?? undefined, variableValues: variables, contextValue });
  /** Runs the compiled document, or the same document through graphql-js when it did not compile. */
  const runOnce = async (contextValue: Context): Promise<ExecutionResult> => {
    if (!compiled) return viaGraphqlJs(contextValue);
    allowPrebuiltAnswers(contextValue);
    const result = compiled.query(undefined, contextValue, variables ?? {});
    // Variables that do not coerce stop a compiled query before execution, as in graphql-js, but with
    // messages of graphql-jit's own: graphql-js then reports them, so both doors keep their messages.
    if (!('then' in result) && result.data === undefined && result.errors?.length) return viaGraphqlJs(contextValue);
    return result;
  };
  const query = isQuery(document, operationName);
  // A query's reads may go to a replica that is safe for them; a mutation's stay on the primary.
  if (query) readFromReplicas(context.em);
  let result = await runOnce(context);
  // Whatever the operation wrote, its user's next reads (on any instance) wait for a replica that has it.
  await recordReadPosition(context.em, context.viewer?.user.id);
  const terminated = result.errors?.some((error) => connectionFailureOf(error.originalError) === 'terminated');
  if (terminated && query) {
    context.logger.warn({ operation: operationName ?? undefined }, 'database connection terminated under a query; running it again');
    await afterPendingConnectionEvents();
    result = await runOnce(renewContext(context));
  }
  return result.errors ? { ...result, errors: result.errors.map(settled) } : result;
}

/**
 * A bounded least-recently-used cache of compiled documents, keyed by document text and operation
 * name. Only a cache: losing it costs a compilation (the process stays stateless).
 */
export class CompiledQueryCache {
  // Boxed: a document graphql-jit cannot compile is remembered as null, which the cache cannot hold.
  private readonly entries: LRUCache<string, { compiled: CompiledQuery | null }>;

  constructor(
    private readonly schema: GraphQLSchema,
    maxEntries = 500,
  ) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  get(source: string, document: DocumentNode, operationName: string | null | undefined): CompiledQuery | null {
    const key = `${operationName ?? ''}\n${source}`;
    let entry = this.entries.get(key);
    if (entry === undefined) this.entries.set(key, (entry = { compiled: compile(this.schema, document, operationName) }));
    return entry.compiled;
  }

  get size() {
    return this.entries.size;
  }
}

/** The error of a request whose `operationName` names no operation of its document. */
function unresolvedOperation(operationName: string | null | undefined): GraphQLError {
  const message =
    typeof operationName === 'string' ? `Unknown operation named "${operationName}"` : 'Must provide an operation name: the document has several operations';
  return new GraphQLError(message, { extensions: { code: 'BAD_REQUEST' } });
}

/**
 * Apollo Server's executor hook (the `gateway` option) serving a local schema: Apollo keeps parsing,
 * validation (depth limit included), the HTTP layer, error formatting and masking; only execution of
 * the validated document goes through graphql-jit.
 */
export function jitGateway(schema: GraphQLSchema, maxEntries?: number): GatewayInterface {
  const cache = new CompiledQueryCache(schema, maxEntries);
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => {};
    },
    async load() {
      return {
        executor: async (requestContext) => {
          const { document, source, operationName, request, context } = requestContext;
          // No operation of that name (GraphiQL sends the name of the query edited before): a 400
          // naming it, which Apollo expects from the executor rather than an empty result.
          if (!requestContext.operation) return { errors: [unresolvedOperation(request.operationName)] } as never;
          const compiled = cache.get(source, document, operationName);
          return run(schema, compiled, document, operationName, request.variables, context as Context) as never;
        },
      };
    },
    async stop() {},
  };
}
