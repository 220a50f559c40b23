/**
 * Every permission-filtered list and count of one request, by name (made by src/graphql/lists.ts from
 * the areas' `lists` factories). Each area adds its own to this interface beside its factory:
 *
 *   declare module './request-lists.js' { interface Lists extends ReturnType<typeof spaceLists> {} }
 *
 * so the type follows the areas without a hand-kept list, and the domain, which reads lists through
 * its context, does not import the list of areas (which imports the domain).
 */
export interface Lists {}
