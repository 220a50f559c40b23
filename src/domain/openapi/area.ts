import { schemaBeside, type Area } from '../../kernel/area.js';
import { OpenAPISpec, OpenAPISpecVersion } from './entities.js';
import { openAPIResolvers } from './resolvers.js';
import { CreateOpenAPISpecInput, PutOpenAPISpecInput, UpdateOpenAPISpecInput } from './inputs.js';
import { openAPIRoutes } from './routes.js';
import { openAPIJobHandlers } from './service.js';

/** OpenAPI specifications of organizations, processed by a job, and the versions their processings kept. */
export const openAPIArea = {
  name: 'openapi',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { CreateOpenAPISpecInput, PutOpenAPISpecInput, UpdateOpenAPISpecInput },
  resolvers: openAPIResolvers,
  entities: [OpenAPISpec, OpenAPISpecVersion],
  routes: openAPIRoutes,
  jobs: { ...openAPIJobHandlers },
} satisfies Area;
