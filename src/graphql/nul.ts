import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type ValidationRule } from 'graphql';
import { inputProblemAt, problemMessage, unstorable } from '../kernel/nul.js';

/** String literals of a GraphQL document must hold what PostgreSQL can store (variables are checked by `refuseUnstorableVariables`). */
export const noNulLiterals: ValidationRule = (context) => ({
  StringValue(node) {
    const problem = unstorable(node.value);
    if (problem) context.reportError(new GraphQLError(`String literal: ${problem}`, { nodes: [node] }));
  },
});

/**
 * Refuses a GraphQL request whose variables hold a string PostgreSQL cannot store (U+0000, a lone
 * surrogate) or nest too deep: 400 naming the variable's path. Runs before the variables are coerced.
 */
export const refuseNulVariables: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ request }) {
        const problem = inputProblemAt(request.variables ?? {});
        if (problem) throw new GraphQLError(problemMessage(problem), { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
      },
    };
  },
};
