import { getOperationAST, parse, type DocumentNode } from 'graphql';
import type { Route } from '../src/kernel/rest-route.js';

/** The Route type is data the areas declare (src/domain/<area>/routes.ts); what serves routes is here. */
export type { Route };

/**
 * The variable a write's document takes its `If-Match` header in (the mutation's `ifMatch` argument):
 * only from the header, never from the body or the query.
 */
export const IF_MATCH_VARIABLE = 'ifMatch';

/**
 * Whether a route takes a JSON body, derived from its document: a POST, PUT or PATCH whose document has
 * variables beyond its path parameters reads them from the body, which must then be sent unless the
 * route says `optionalBody`. GET and DELETE take none.
 */
export function bodyOf(route: Route, parsed: DocumentNode = parse(route.document)): 'required' | 'optional' | 'none' {
  if (route.method === 'GET' || route.method === 'DELETE') return 'none';
  const pathParameters = new Set([...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]));
  const variables = getOperationAST(parsed)?.variableDefinitions ?? [];
  const fromBody = variables.filter(
    (definition) => !pathParameters.has(definition.variable.name.value) && definition.variable.name.value !== IF_MATCH_VARIABLE,
  );
  if (!fromBody.length) return 'none';
  return route.optionalBody ? 'optional' : 'required';
}
