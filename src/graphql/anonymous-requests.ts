import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import {
  getDirectiveValues,
  getVariableValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentSpreadNode,
  type InlineFragmentNode,
  type SelectionSetNode,
} from 'graphql';
import { ERROR_STATUS, unauthenticated } from '../kernel/errors.js';
import type { Context } from '../kernel/context.js';
import { guardOf } from './schema.js';

/** Whether a selection stays in the operation under its @skip and @include, given coerced variables. */
function included(node: FieldNode | FragmentSpreadNode | InlineFragmentNode, variables: Record<string, unknown>): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
}

/** The names of the root fields an operation selects, through its fragments. */
function rootFieldNames(document: DocumentNode, selectionSet: SelectionSetNode, variables: Record<string, unknown>, spread = new Set<string>()): string[] {
  return selectionSet.selections.flatMap((selection): string[] => {
    if (!included(selection, variables)) return [];
    if (selection.kind === Kind.FIELD) return [selection.name.value];
    if (selection.kind === Kind.INLINE_FRAGMENT) return rootFieldNames(document, selection.selectionSet, variables, spread);
    if (spread.has(selection.name.value)) return [];
    spread.add(selection.name.value);
    const fragment = document.definitions.find((definition) => definition.kind === Kind.FRAGMENT_DEFINITION && definition.name.value === selection.name.value);
    return fragment?.kind === Kind.FRAGMENT_DEFINITION ? rootFieldNames(document, fragment.selectionSet, variables, spread) : [];
  });
}

/**
 * A request without a token runs only what is public: introspection (`__schema`, `__type`,
 * `__typename`) and root fields declared `@public`. Anything else is refused as a whole with 401, as a
 * bad token and the REST door do, before any field runs (rather than 200 with `data: null`). Answered
 * once the operation is resolved and charged to the client's rate limit, as REST charges it first.
 */
export const requireTokenUnlessPublic: ApolloServerPlugin<Context> = {
  async requestDidStart() {
    return {
      async responseForOperation({ contextValue, document, operation, schema, request }) {
        if (contextValue.viewer) return null;
        // Variables that do not coerce are execution's to report (400), before any field runs.
        const variables = getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {});
        if (!variables.coerced) return null;
        const rootType = schema.getRootType(operation.operation);
        const open = (name: string) => {
          const field = rootType?.getFields()[name];
          return name.startsWith('__') || (!!field && guardOf(schema, field)?.kind === 'public');
        };
        if (rootFieldNames(document, operation.selectionSet, variables.coerced).every(open)) return null;
        const { message, code } = unauthenticated();
        return {
          http: { status: ERROR_STATUS[code], headers: new HeaderMap() },
          body: { kind: 'single', singleResult: { errors: [{ message, extensions: { code, status: ERROR_STATUS[code] } }] } },
        };
      },
    };
  },
};
