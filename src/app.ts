import { randomUUID } from 'node:crypto';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type ErrorRequestHandler } from 'express';
import { GraphQLError } from 'graphql';
import { pinoHttp } from 'pino-http';
import { createRestRouter, takesBodyBytes } from '../rest-facade/router.js';
import { documentLimits, tokenLimit } from './graphql/document-limits.js';
import { noNulLiterals, refuseNulVariables } from './graphql/nul.js';
import { jsonBody, requireGraphqlOperation, requireJsonBody, sendDoorError, unparsedBodyMessage } from './http/body.js';
import { requestLogger, sendError, sendFailure } from './http/responses.js';
import type { AppDeps, Context } from './kernel/context.js';
import { createContext } from './graphql/request-context.js';
import { domainErrorOf } from './db/database-errors.js';
import { ERROR_STATUS } from './kernel/errors.js';
import { logFailure, logRequestFailures, maskError } from './http/door-errors.js';
import { playgroundRouter } from './graphql/playground.js';
import { jitGateway } from './graphql/jit.js';
import { stringifyAnswer } from './kernel/prebuilt-answers.js';
import { buildSchema } from './graphql/schema.js';
import { subscriptionsOverWebSocket } from './domain/live/index.js';
import { samlRouter } from './domain/saml/index.js';
import { fileDownloadRouter, pdfRouter } from './domain/content/index.js';
import { logSerializers } from './kernel/logger.js';
import { healthCheck } from './http/health.js';
import { backupRouter } from './http/backup.js';
import { apiReferenceRouter } from '../rest-facade/api-reference.js';
import { factsOf, noteContext, recordGraphqlOperation } from './http/request-facts.js';
import { recordRefusedMutations } from './domain/audit/index.js';
import { documentErrorsAs200ForPlainJson } from './http/graphql-status.js';
import { requireTokenUnlessPublic } from './graphql/anonymous-requests.js';
import { metricsEndpoint, METRICS_PATH, servesOnMainPort } from './metrics/endpoint.js';
import type { ServerMetrics } from './metrics/registry.js';
import { measureRequests } from './metrics/requests.js';
import { chargeRefusedGraphqlToken, rateLimitPlugin } from './rate-limits/graphql-door.js';
import { corsPolicy } from './http/cors.js';
import { compressAnswers } from './http/compression.js';
import { noStoreByDefault, preconditionsBeforeCacheControl } from './http/caching.js';
import { allowedMethods, PLAIN_PATHS, restPaths } from './allowed-methods.js';
import { doorsIndex } from './http/index-page.js';
import { strongEtagOf } from './kernel/etags.js';
import { representationsOf } from '../rest-facade/representations.js';
import { honourIdempotencyKeys } from './http/idempotency/keys.js';
import { authenticationOf } from './http/authenticated-request.js';

/** Logs what formatError masks where the request's logger (with its request id) is known: formatError does not see it. */
const logFailures: ApolloServerPlugin<Context> = {
  async requestDidStart() {
    return {
      async didEncounterErrors({ errors, contextValue }) {
        logRequestFailures(contextValue.logger, errors);
      },
    };
  },
};

/**
 * The HTTP application: the index at /, /healthz, the GraphQL door (with its playground), the REST door
 * under /v1 and the browser-facing SAML endpoints under /saml; CORS, compression, caching headers and
 * 405s for all of them.
 */
export async function createApp(deps: AppDeps, lifecycle: { stopping(): boolean } = { stopping: () => false }, metrics?: ServerMetrics) {
  const schema = buildSchema(deps.areas);
  // Resources' ETags as their GETs answer them, for every context the doors make (REST, /graphql, WebSocket).
  deps.representations ??= representationsOf(schema);
  const app = express();
  app.disable('x-powered-by');
  // Every GET answer a strong ETag: a hash of the bytes it sends (representations.ts hashes the same way).
  app.set('etag', strongEtagOf);
  app.set('trust proxy', deps.config.trustProxy);
  if (metrics) app.use(measureRequests(metrics));
  app.use(
    pinoHttp({
      logger: deps.logger,
      genReqId: (req, res) => {
        const id = (typeof req.headers['x-request-id'] === 'string' && req.headers['x-request-id'].slice(0, 128)) || randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      // A 503 (database unavailable, starting, stopping) is no fault of the code and a line of its own says why:
      // a warning, without the error that pino-http makes up for a 5xx (its own stack, once per request of an outage).
      customLogLevel: (_req, res, err) => (err || (res.statusCode >= 500 && res.statusCode !== 503) ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
      customErrorObject: (_req, res, error, logged) =>
        res.statusCode === 503 && error.message === 'failed with status code 503' ? { ...logged, err: undefined } : logged,
      serializers: logSerializers,
      // Read as the request completes: what the door learnt (never a token, only its id).
      customProps: (_req, res) => {
        const { operationId, door, viewerId, tokenId } = factsOf(res as express.Response);
        return { operationId, door, viewerId, tokenId };
      },
    }),
  );

  app.use(corsPolicy(deps.config.corsOrigins));
  app.use(noStoreByDefault, preconditionsBeforeCacheControl);
  app.use(compressAnswers);
  app.use(allowedMethods([...PLAIN_PATHS, ...restPaths()]));

  app.get('/', doorsIndex(deps.config));
  app.get('/healthz', healthCheck(deps, lifecycle));
  if (metrics && servesOnMainPort(deps.config.metrics)) app.get(METRICS_PATH, metricsEndpoint(metrics, deps.config.metrics, deps.logger));

  app.use(['/v1', '/graphql'], requireJsonBody);
  const json = jsonBody(deps.config.bodyLimit);
  app.use((req, res, next) => (takesBodyBytes(req) ? next() : json(req, res, next)));

  const limits = documentLimits(schema, deps.config.graphql);

  const apollo = new ApolloServer<Context>({
    // The schema through Apollo's executor hook: Apollo parses, validates, formats and masks; the
    // validated document runs compiled by graphql-jit (cached per document text, bounded).
    gateway: jitGateway(schema),
    // Parts of an answer that the database built as JSON are written as they are (kernel/prebuilt-answers.ts).
    stringifyResult: (result) => `${stringifyAnswer(result)}\n`,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // The server's one shutdown path (server.ts) drains HTTP, then stops Apollo.
    stopOnTerminationSignals: false,
    validationRules: [...limits.validationRules, noNulLiterals],
    // One operation per request: a batch would multiply every limit below.
    allowBatchedHttpRequests: false,
    // A GET needs a header that a page of another origin cannot send without a CORS preflight: Apollo's
    // two, or a token (Authorization is no CORS-safelisted header, and browsers never send a Bearer
    // one on their own; a Basic one they might is refused 401 before anything runs).
    csrfPrevention: { requestHeaders: ['x-apollo-operation-name', 'apollo-require-preflight', 'authorization'] },
    formatError: (formatted, error) => maskError(formatted, error),
    // No HTTP caching of GraphQL answers (they depend on the token), so no per-field cache hints either.
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginCacheControlDisabled(),
      logFailures,
      recordGraphqlOperation,
      recordRefusedMutations,
      ...(limits.plugins as ApolloServerPlugin<Context>[]),
      refuseNulVariables,
      subscriptionsOverWebSocket,
      rateLimitPlugin(deps.rateLimits),
      requireTokenUnlessPublic,
      documentErrorsAs200ForPlainJson,
    ],
  });
  await apollo.start();
  app.use(playgroundRouter('/graphql'));
  const graphqlDoor = [
    requireGraphqlOperation,
    tokenLimit(deps.config.graphql.maxTokens),
    honourIdempotencyKeys(deps, 'graphql', metrics?.idempotentReplays),
    expressMiddleware(apollo, {
      context: async ({ req, res }) => {
        const logger = requestLogger(req, deps.logger);
        factsOf(res).door = 'graphql';
        try {
          const context = createContext(deps, { authorization: req.headers.authorization, logger, authenticated: authenticationOf(res) });
          return noteContext(res, await context.catch((error) => chargeRefusedGraphqlToken(deps.rateLimits, req, res, error)));
        } catch (error) {
          // Before any operation runs, a failure is the whole answer's: its status and headers are the response's.
          const failure = domainErrorOf(error);
          logFailure(logger, failure ?? error);
          if (!failure) throw error;
          throw new GraphQLError(failure.message, {
            originalError: failure,
            extensions: { code: failure.code, http: { status: ERROR_STATUS[failure.code], headers: new Map(Object.entries(failure.headers)) } },
          });
        }
      },
    }),
  ];
  // Express tags every answer it sends with a hash of its body (the strong ETag above) and answers a
  // matching If-None-Match with 304, which only a GET or HEAD is ever revalidated with: POSTs (mutations,
  // and most queries) go through an app that does not tag, the others on to the same door below it.
  const untaggedPosts = express();
  untaggedPosts.disable('etag');
  untaggedPosts.disable('x-powered-by');
  untaggedPosts.post('/', ...graphqlDoor);
  app.use('/graphql', untaggedPosts, ...graphqlDoor);

  app.use(apiReferenceRouter(schema, deps.config));
  app.use('/v1', createRestRouter(deps, schema, honourIdempotencyKeys(deps, 'rest', metrics?.idempotentReplays)));
  app.use('/saml', samlRouter(deps));
  app.use('/files', fileDownloadRouter(deps));
  app.use('/pdf', pdfRouter(deps));
  app.use(backupRouter(deps));
  app.use((_req, res) => sendError(res, 404, 'No such resource or operation'));

  const bodyErrors: ErrorRequestHandler = (error, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error?.type === 'entity.too.large') return sendDoorError(req, res, 'PAYLOAD_TOO_LARGE', `Request body larger than ${deps.config.bodyLimit}`);
    if (error?.type === 'entity.parse.failed') return sendDoorError(req, res, 'BAD_REQUEST', unparsedBodyMessage(error));
    if (typeof error?.status === 'number' && error.status >= 400 && error.status < 500) {
      return sendError(res, error.status, error.expose ? String(error.message) : 'Bad request');
    }
    return sendFailure(req, res, error, deps.logger);
  };
  app.use(bodyErrors);

  return { app, schema, stop: () => apollo.stop() };
}
