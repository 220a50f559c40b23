import type { GraphQLSchema } from 'graphql';
import type { Representations } from '../src/kernel/context.js';
import { strongEtagOf } from '../src/kernel/etags.js';
import { stringifyAnswer } from '../src/kernel/prebuilt-answers.js';
import { run } from '../src/graphql/jit.js';
import { statusOf } from '../src/http/door-errors.js';
import { leaveOutNulls } from './answer-shape.js';
import { preparedRoutes, type PreparedRoute } from './router.js';

/**
 * Resources' representations as the REST door's GETs answer them: a resource's ETag is the hash of the
 * very bytes its GET sends (the router's path: the route's document, nulls left out, the answer
 * written as the router writes it), so the tag a GraphQL `etag` field gives or an `If-Match` is
 * compared with inside a transaction is the one the GET answers, and changes exactly when that answer would.
 */
export function representationsOf(schema: GraphQLSchema): Representations {
  let gets: Map<string, PreparedRoute> | undefined;
  const getRoute = (operationId: string): PreparedRoute => {
    gets ??= new Map(
      preparedRoutes(schema)
        .filter((route) => route.method === 'GET')
        .map((route) => [route.operationId, route]),
    );
    const route = gets.get(operationId);
    if (!route) throw new Error(`No GET operation ${operationId} gives a representation`);
    return route;
  };
  return {
    async etagOf(ctx, operationId, variables) {
      const route = getRoute(operationId);
      const result = await run(schema, route.compiled(), route.parsed, undefined, variables, ctx);
      if (result.errors?.length) {
        if (statusOf(result.errors[0]) === 404) return null;
        throw result.errors[0];
      }
      const data = (result.data as Record<string, unknown>)[route.rootKey];
      leaveOutNulls(data, route.nullFields);
      return strongEtagOf(stringifyAnswer(data));
    },
  };
}
