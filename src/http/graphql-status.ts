import type { ApolloServerPlugin } from '@apollo/server';
import type { Request } from 'express';
import type { Context } from '../kernel/context.js';
import { responseOfContext } from './request-facts.js';

/*
 * GraphQL over HTTP (https://graphql.github.io/graphql-over-http/) gives a document that fails before
 * it runs (it does not parse, does not validate or exceeds a limit, names no operation, or its
 * variables do not coerce) a 4xx only with its own media type, application/graphql-response+json. A
 * client that asks for application/json gets 200, the errors in the body: with that media type a 4xx
 * could come from any proxy on the way. A client that names neither (no Accept, or only a wildcard, as
 * curl and fetch send) keeps the 400, which tells it more.
 */

const GRAPHQL_RESPONSE_JSON = 'application/graphql-response+json';
const JSON_TYPE = 'application/json';

/** Whether the request asks for application/json itself, rather than GraphQL's media type or anything at all. */
export const prefersPlainJson = (req: Request): boolean => req.accepts([GRAPHQL_RESPONSE_JSON, JSON_TYPE]) === JSON_TYPE;

/** Answers 200 instead of 400 to a client that asked for application/json, once the request's document was read. */
export const documentErrorsAs200ForPlainJson: ApolloServerPlugin<Context> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response, source, contextValue }) {
        // Without a source (no query at all) the request itself is malformed: its 400 stays, whatever the
        // media type (the type says a source is always there: Apollo answers that case through this hook too).
        if (response.http.status !== 400 || source === undefined) return;
        const req = responseOfContext(contextValue)?.req;
        if (req && prefersPlainJson(req)) response.http.status = 200;
      },
    };
  },
};
