import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type ValidationRule } from 'graphql';
import { NUL_MESSAGE, nulAt } from '../domain/common/nul.js';

/** String literals of a GraphQL document must not hold U+0000 (variables are checked by `refuseNulVariables`). */
export const noNulLiterals: ValidationRule = (context) => ({
  StringValue(node) {
    if (node.value.includes('\u0000')) context.reportError(new GraphQLError(`String literal: ${NUL_MESSAGE}`, { nodes: [node] }));
  },
});

/** Refuses a GraphQL request whose variables hold U+0000 anywhere: 400 naming the variable's path. */
export const refuseNulVariables: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ request }) {
        const path = nulAt(request.variables ?? {});
        if (path) throw new GraphQLError(`${path.join('.')}: ${NUL_MESSAGE}`, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
      },
    };
  },
};
