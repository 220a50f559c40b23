import { schemaBeside, type Area } from '../../kernel/area.js';
import { OpenAPISpec } from './entities.js';
import { openAPIResolvers } from './resolvers.js';
import { CreateOpenAPISpecInput, PutOpenAPISpecInput } from './inputs.js';
import { openAPIRoutes } from './routes.js';
import { openAPIJobHandlers } from './service.js';

/** OpenAPI specifications of organizations, processed by a job. */
export const openAPIArea = {
  name: 'openapi',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { CreateOpenAPISpecInput, PutOpenAPISpecInput },
  resolvers: openAPIResolvers,
  entities: [OpenAPISpec],
  routes: openAPIRoutes,
  jobs: { ...openAPIJobHandlers },
} satisfies Area;
