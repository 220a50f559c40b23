import type { ApolloServerPlugin } from '@apollo/server';
import type { RequestHandler } from 'express';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { MaxTokensParserWLexer } from '@escape.tech/graphql-armor-max-tokens';
import { GraphQLError, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import { LRUCache } from 'lru-cache';
import type { Config } from '../kernel/config.js';
import { DEFAULT_PAGE_SIZE } from '../kernel/pagination.js';
import { prefersPlainJson } from '../http/graphql-status.js';

/*
 * Bounds on the documents sent to /graphql, checked before anything runs, each refusal a 400 naming its
 * limit (GRAPHQL_MAX_*): tokens (counted while parsing, so an oversized document is dropped before it
 * becomes a tree), aliases, directives, depth (GraphQL Armor's rules), and the cost of the answer.
 * The REST door's own documents stay far below every one of them (a test holds them to it).
 */

/** A 400 for the whole request: thrown before execution, it sets the HTTP status of the answer. */
const refusal = (message: string) => new GraphQLError(message, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });

/**
 * A field's cost: itself, plus its selections as many times as it can answer them — a list field's
 * `limit` (the default page size when not given), once for any other field. So a document's cost is
 * about the number of values its answer can hold, which is what a request costs the server.
 */
const pageEstimator: ComplexityEstimator = ({ field, args, childComplexity }) => {
  const pages = field.args.some((arg) => arg.name === 'limit');
  const times = pages ? (typeof args.limit === 'number' ? args.limit : DEFAULT_PAGE_SIZE) : 1;
  return 1 + childComplexity * times;
};

/** The cost of a document with its variables (see pageEstimator). */
export function documentCost(schema: GraphQLSchema, query: DocumentNode, variables: Record<string, unknown>, operationName?: string | null) {
  return getComplexity({ schema, query, variables, operationName: operationName ?? undefined, estimators: [pageEstimator] });
}

/**
 * Refuses a document with more tokens than `maxTokens` before Apollo parses it (Apollo answers an error
 * thrown while parsing as its own failure, 500): the lexer stops at the limit, so the refusal costs what
 * the limit's worth of document costs, whatever was sent.
 */
export function tokenLimit(maxTokens: number): RequestHandler {
  // Documents already found within the limit (clients send the same few documents again and again), by
  // their text; only a cache, bounded by the texts' total length.
  const withinLimit = new LRUCache<string, true>({ maxSize: 4_000_000, sizeCalculation: (_, query) => query.length || 1 });
  return (req, res, next) => {
    const query = req.method === 'GET' ? req.query.query : (req.body as { query?: unknown } | undefined)?.query;
    if (typeof query !== 'string' || withinLimit.has(query)) return next();
    try {
      new MaxTokensParserWLexer(query, { n: maxTokens }).parseDocument();
      withinLimit.set(query, true);
    } catch (error) {
      // Syntax errors are the parser's to report, as usual; only the limit is refused here.
      if (error instanceof GraphQLError && /Token limit/.test(error.message)) {
        // A document error like any other: 200 for a client that asked for application/json (graphql-status.ts).
        return res.status(prefersPlainJson(req) ? 200 : 400).json({ errors: [{ message: error.message, extensions: { code: 'BAD_REQUEST', status: 400 } }] });
      }
    }
    return next();
  };
}

/**
 * Costs of the documents /graphql receives, remembered by document (Apollo hands out the same parsed
 * document for the same text) and variables: computing one walks the whole document with its types,
 * which is a fair share of a small request. Only a cache: a document's entry goes with the document.
 */
class DocumentCosts {
  private readonly byDocument = new WeakMap<DocumentNode, LRUCache<string, number>>();

  constructor(private readonly schema: GraphQLSchema) {}

  of(document: DocumentNode, variables: Record<string, unknown>, operationName: string | null | undefined): number {
    const key = `${operationName ?? ''}|${JSON.stringify(variables)}`;
    // Large variables (a mutation's input) are not worth keeping: computed each time.
    if (key.length > 2_000) return documentCost(this.schema, document, variables, operationName);
    let known = this.byDocument.get(document);
    if (!known) this.byDocument.set(document, (known = new LRUCache({ max: 50 })));
    let cost = known.get(key);
    if (cost === undefined) known.set(key, (cost = documentCost(this.schema, document, variables, operationName)));
    return cost;
  }
}

/**
 * The validation rules and plugins that bound /graphql's documents (tokens: `tokenLimit`, before them),
 * and the cost check itself for the WebSocket door.
 */
export function documentLimits(
  schema: GraphQLSchema,
  limits: Config['graphql'],
): {
  validationRules: ValidationRule[];
  plugins: ApolloServerPlugin[];
  /** Why a valid document is refused for its cost, or undefined (also for variables that do not fit the operation: execution reports them). */
  costRefusal(document: DocumentNode, variables: Record<string, unknown>, operationName: string | null | undefined): string | undefined;
} {
  const { validationRules } = new ApolloArmor({
    blockFieldSuggestion: { enabled: false },
    // Both are here, differently: tokens before Apollo (Armor's own throws from a hook that Apollo answers
    // 500), cost by the answer's size.
    maxTokens: { enabled: false },
    costLimit: { enabled: false },
    maxAliases: { n: limits.maxAliases },
    maxDepth: { n: limits.maxDepth, flattenFragments: true },
    maxDirectives: { n: limits.maxDirectives },
  }).protect();

  const costs = new DocumentCosts(schema);
  const costRefusal = (document: DocumentNode, variables: Record<string, unknown>, operationName: string | null | undefined) => {
    let cost: number;
    try {
      cost = costs.of(document, variables, operationName);
    } catch {
      return undefined;
    }
    if (cost <= limits.maxCost) return undefined;
    return `Query cost limit of ${limits.maxCost} exceeded: the answer could hold ${cost} values; ask for smaller pages (limit) or fewer fields`;
  };
  const bounded: ApolloServerPlugin = {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, operationName }) {
          const refused = costRefusal(document, request.variables ?? {}, operationName);
          if (refused) throw refusal(refused);
        },
      };
    },
  };
  return { validationRules: validationRules, plugins: [bounded], costRefusal };
}
