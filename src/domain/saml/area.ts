import { schemaBeside, type Area } from '../../kernel/area.js';
import { SamlConsumedAssertion, SamlProvider, SamlRequest } from './entities.js';
import { samlLoaders } from './loaders.js';
import { samlResolvers } from './resolvers.js';
import { CreateSAMLProviderInput, UpdateSAMLProviderInput } from './inputs.js';
import { samlRoutes } from './routes.js';

/** SAML single sign-on providers of organizations. */
export const samlArea = {
  name: 'saml',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { CreateSAMLProviderInput, UpdateSAMLProviderInput },
  resolvers: samlResolvers,
  loaders: samlLoaders,
  entities: [SamlProvider, SamlRequest, SamlConsumedAssertion],
  routes: samlRoutes,
} satisfies Area;
