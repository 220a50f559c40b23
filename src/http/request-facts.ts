import type { ApolloServerPlugin } from '@apollo/server';
import type { Response } from 'express';
import { Kind } from 'graphql';
import type { Context } from '../kernel/context.js';

/**
 * What a request turned out to be, learnt by the door that serves it: the REST router knows its route,
 * the GraphQL door the operation it resolved. The request's log line, its metrics and its rate limit
 * read them from here, so that no door reports for itself.
 */
export type RequestFacts = {
  /** REST: the contract's operation id. GraphQL: the operation's name, when it has one. */
  operationId?: string;
  /** Which door: `rest` or `graphql` (unset for plain HTTP routes). */
  door?: 'rest' | 'graphql';
  /** The authenticated user (never the token). */
  viewerId?: string;
  /** The API token's id, when a token authenticated the request. */
  tokenId?: string;
};

declare global {
  namespace Express {
    interface Locals {
      facts?: RequestFacts;
    }
  }
}

/** The facts of the request `res` answers, made empty on first use. */
export function factsOf(res: Response): RequestFacts {
  res.locals.facts ??= {};
  return res.locals.facts;
}

/**
 * A GraphQL request's context leads to its response (Apollo's plugins see the context, not the
 * response). Apollo hands plugins and resolvers a shallow copy of the context the door made, so the
 * link is an own enumerable property, which the copy keeps (a map keyed by the context would not).
 */
const RESPONSE = Symbol('response');
type LinkedContext = Context & { [RESPONSE]?: Response };

/** Records the viewer a context authenticated, and ties the context to the response; answers the context. */
export function noteContext(res: Response, ctx: Context): Context {
  const facts = factsOf(res);
  if (ctx.viewer) {
    facts.viewerId = ctx.viewer.user.id;
    facts.tokenId = ctx.viewer.tokenId;
  }
  (ctx as LinkedContext)[RESPONSE] = res;
  ctx.origin.door = facts.door;
  ctx.origin.clientIp = res.req.ip;
  if (facts.door === 'rest') ctx.origin.operation = facts.operationId;
  return ctx;
}

/** The response of the request a GraphQL context serves (undefined for contexts made outside HTTP). */
export const responseOfContext = (ctx: Context): Response | undefined => (ctx as LinkedContext)[RESPONSE];

/** The facts of the request a GraphQL context serves (undefined for contexts made outside HTTP). */
export const factsOfContext = (ctx: Context): RequestFacts | undefined => {
  const res = responseOfContext(ctx);
  return res && factsOf(res);
};

/** Records the operation a GraphQL request resolved to. */
export const recordGraphqlOperation: ApolloServerPlugin<Context> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ contextValue, operationName, operation }) {
        const facts = factsOfContext(contextValue);
        if (facts && operationName) facts.operationId = operationName;
        // The events a mutation records name it by what it calls (an operation's name is the client's choice).
        if (operation?.operation === 'mutation') {
          contextValue.origin.operation = operation.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : [])).join(',');
        }
      },
    };
  },
};
