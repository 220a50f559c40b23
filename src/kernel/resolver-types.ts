export type { Resolvers } from './schema-types.generated.js';
