import { execute, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';

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

/** Runs a compiled document, or the same document through graphql-js when it did not compile. */
export async function run(
  schema: GraphQLSchema,
  compiled: CompiledQuery | null,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | undefined,
  context: unknown,
): Promise<ExecutionResult> {
  if (compiled) {
    const result = compiled.query(undefined, context, variables ?? {}) as ExecutionResult | Promise<ExecutionResult>;
    // Variables that do not coerce stop a compiled query before execution, as in graphql-js, but with
    // messages of graphql-jit's own: graphql-js then reports them, so both doors keep their messages.
    if (!('then' in result) && result.data === undefined && result.errors?.length) {
      return execute({ schema, document, operationName: operationName ?? undefined, variableValues: variables, contextValue: context });
    }
    return result;
  }
  return execute({ schema, document, operationName: operationName ?? undefined, variableValues: variables, contextValue: context });
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
        executor: (requestContext) => {
          const { document, source, operationName, request, context } = requestContext;
          const compiled = cache.get(source, document, operationName);
          return run(schema, compiled, document, operationName, request.variables, context) as never;
        },
      };
    },
    async stop() {},
  };
}
