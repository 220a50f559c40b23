import { schemaBeside, type Area } from '../../kernel/area.js';
import { urlResolvers } from './resolvers.js';
import { urlRoutes } from './routes.js';

/** What the URLs this server hands out name: app addresses, and sites' published URLs. */
export const urlsArea = {
  name: 'urls',
  typeDefs: schemaBeside(import.meta.url),
  resolvers: urlResolvers,
  routes: urlRoutes,
} satisfies Area;
