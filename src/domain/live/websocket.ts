import type { IncomingMessage, Server } from 'node:http';
import type { ApolloServerPlugin } from '@apollo/server';
import { getOperationAST, GraphQLError, parse, specifiedRules, validate, type GraphQLSchema } from 'graphql';
import type { Context as WsContext, SubscribePayload } from 'graphql-ws';
import { useServer, type Extra } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { inputProblemAt, problemMessage } from '../../kernel/nul.js';
import { DomainError } from '../../kernel/errors.js';
import { costOf } from '../../rate-limits/cost.js';
import { subjectOf } from '../../rate-limits/subject.js';
import type { AppDeps, Context, LiveSession } from '../../kernel/context.js';
import { documentLimits } from '../../graphql/document-limits.js';
import { domainErrorIn, logFailure, maskError } from '../../http/door-errors.js';
import { noNulLiterals } from '../../graphql/nul.js';
import { createContext } from '../../graphql/request-context.js';
import { enforceGuard, guardOf } from '../../graphql/schema.js';
import { LiveFeed } from './feed.js';
import { OVER_WEBSOCKET } from './resolvers.js';

/** Subscriptions one connection may hold at once (each holds a stream of at most MAX_PENDING_EVENTS). */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 50;
/** The largest message a client may send (a subscribe message: a document within GRAPHQL_MAX_TOKENS and its variables). */
const MAX_MESSAGE_BYTES = 256 * 1024;
/** How long a client may take to send connection_init after opening the socket. */
const CONNECTION_INIT_WAIT_MS = 10_000;
/** graphql-ws's close code for a refused token, as HTTP's 401 (4403 is its Forbidden, 4429 too many requests). */
const CLOSE_UNAUTHORIZED = 4401;
const CLOSE_TOO_MANY_REQUESTS = 4429;

type Connection = WsContext<Record<string, unknown> | undefined, Extra & { authorization?: string }>;

/** Over HTTP a subscription is refused before it runs (400): it takes the WebSocket door. */
export const subscriptionsOverWebSocket: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation }) {
        if (operation?.operation === 'subscription') {
          throw new GraphQLError(OVER_WEBSOCKET, {
            extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
          });
        }
      },
    };
  },
};

/** The token of a connection: `connectionParams.authorization` (browsers cannot set headers on a WebSocket), else the upgrade's header. */
function authorizationOf(params: Record<string, unknown> | undefined, request: IncomingMessage): string | undefined {
  const given = params?.authorization ?? params?.Authorization;
  return typeof given === 'string' ? given : request.headers.authorization;
}

const refusal = (code: 'BAD_REQUEST' | 'RATE_LIMITED', message: string) => [new DomainError(code, message)];

/**
 * The WebSocket door: GraphQL subscriptions at /graphql on the HTTP server's own port, in graphql-ws's
 * protocol (graphql-transport-ws). The token comes with connection_init and is checked then (a bad one
 * closes the socket with 4401) and again at each subscribe (which counts as a read against the token's
 * rate limit); documents are bounded as on /graphql. Only subscriptions run here: queries and
 * mutations take POST /graphql. `close()` completes every stream and closes every socket (1001).
 */
export function serveSubscriptions(server: Server, deps: AppDeps, schema: GraphQLSchema) {
  const feed = new LiveFeed(deps.orm, deps.events, deps.logger);
  const limits = documentLimits(schema, deps.config.graphql);
  const rules = [...specifiedRules, ...limits.validationRules, noNulLiterals];
  const sockets = new WebSocketServer({ server, path: '/graphql', maxPayload: MAX_MESSAGE_BYTES });

  const sessionFor = (authorization: string | undefined): LiveSession => {
    const session: LiveSession = {
      feed,
      async recheck(info, args) {
        const fresh = await createContext(deps, { authorization });
        fresh.live = session;
        await enforceGuard(info.schema, guardOf(info.schema, info.parentType.getFields()[info.fieldName]), undefined, args, fresh);
        return fresh;
      },
    };
    return session;
  };

  const masked = (errors: readonly GraphQLError[], logger = deps.logger) =>
    errors.map((error) => {
      logFailure(logger, error);
      return maskError(error.toJSON(), error);
    });

  const served = useServer<Record<string, unknown> | undefined, { authorization?: string }>(
    {
      schema,
      connectionInitWaitTimeout: CONNECTION_INIT_WAIT_MS,
      onConnect: async (ctx: Connection) => {
        const authorization = authorizationOf(ctx.connectionParams, ctx.extra.request);
        try {
          await createContext(deps, { authorization });
        } catch (error) {
          const domain = domainErrorIn(error);
          if (domain?.code !== 'UNAUTHENTICATED') throw error;
          // As on the HTTP doors: guessing tokens spends the client address's budget.
          const verdict = await deps.rateLimits.consume(subjectOf(undefined, ctx.extra.request.socket.remoteAddress), { rateClass: 'reads', points: 1 });
          if (verdict?.refused) ctx.extra.socket.close(CLOSE_TOO_MANY_REQUESTS, 'Too many requests');
          else ctx.extra.socket.close(CLOSE_UNAUTHORIZED, domain.message.slice(0, 120));
          return false;
        }
        ctx.extra.authorization = authorization;
        return true;
      },
      onSubscribe: async (ctx: Connection, _id, payload: SubscribePayload) => {
        if (Object.keys(ctx.subscriptions).length > MAX_SUBSCRIPTIONS_PER_CONNECTION) {
          return refusal('BAD_REQUEST', `At most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions per connection; complete one or open another connection`);
        }
        let document;
        try {
          document = parse(payload.query, { maxTokens: deps.config.graphql.maxTokens });
        } catch (error) {
          return [new DomainError('BAD_REQUEST', error instanceof GraphQLError ? error.message : 'Unreadable document')];
        }
        const invalid = validate(schema, document, rules);
        // Coded as Apollo codes them, so that they are answered as bad input (400), not masked.
        if (invalid.length)
          return invalid.map((error) => new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }));
        if (getOperationAST(document, payload.operationName)?.operation !== 'subscription') {
          return refusal('BAD_REQUEST', 'Only subscriptions run over WebSocket: send queries and mutations with POST /graphql');
        }
        const costRefusal = limits.costRefusal(document, payload.variables ?? {}, payload.operationName);
        if (costRefusal) return refusal('BAD_REQUEST', costRefusal);
        const problem = inputProblemAt(payload.variables ?? {});
        if (problem) return refusal('BAD_REQUEST', problemMessage(problem));
        let contextValue: Context;
        try {
          contextValue = await createContext(deps, { authorization: ctx.extra.authorization });
        } catch (error) {
          const domain = domainErrorIn(error);
          if (!domain) throw error;
          return [domain];
        }
        contextValue.live = sessionFor(ctx.extra.authorization);
        if (contextValue.viewer) {
          const verdict = await deps.rateLimits.consume(subjectOf(contextValue.viewer.tokenId, undefined), costOf(document, payload.operationName));
          if (verdict?.refused)
            return refusal(
              'RATE_LIMITED',
              `Rate limit exceeded: ${verdict.limit} reads per ${verdict.windowS} s for this token; retry in ${Math.max(1, verdict.resetS)} s`,
            );
        }
        return { schema, document, operationName: payload.operationName, variableValues: payload.variables, contextValue };
      },
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: masked(result.errors) } : undefined),
      onError: (_ctx, _id, _payload, errors) => masked(errors),
    },
    sockets,
  );

  return {
    feed,
    async close(): Promise<void> {
      feed.close();
      await served.dispose();
    },
  };
}
