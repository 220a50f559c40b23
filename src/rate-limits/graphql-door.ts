import type { ApolloServerPlugin } from '@apollo/server';
import type { Request, Response } from 'express';
import type { Context } from '../kernel/context.js';
import { responseOfContext } from '../http/request-facts.js';
import { chargeFailedAuthentication, chargeRequest } from './charge.js';
import { costOf, costOfGraphqlRequest } from './cost.js';
import type { RateLimits } from './rate-limits.js';

/**
 * The GraphQL door's charge, once the operation is known (parsed, validated, resolved) and before it
 * executes: a refusal (a RATE_LIMITED DomainError) becomes the whole answer, 429 with Retry-After.
 */
export function rateLimitPlugin(rateLimits: RateLimits): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, document, operationName }) {
          const res = responseOfContext(contextValue);
          if (res) await chargeRequest(rateLimits, res, costOf(document, operationName));
        },
      };
    },
  };
}

/** A /graphql request whose token was refused, before Apollo parsed it: charged by its document's text. */
export const chargeRefusedGraphqlToken = (rateLimits: RateLimits, req: Request, res: Response, error: unknown) =>
  chargeFailedAuthentication(rateLimits, res, costOfGraphqlRequest(req), error);
