/**
 * Every DataLoader of one request, by name (made by src/graphql/loaders.ts from the areas' factories).
 * Each area adds its own loaders to this interface in its loaders.ts:
 *
 *   declare module './request-loaders.js' { interface Loaders extends ReturnType<typeof spaceLoaders> {} }
 *
 * so the type follows the areas without a hand-kept list, and the domain, which reads loaders through
 * its context, does not import the list of areas (which imports the domain).
 */
export interface Loaders {}
