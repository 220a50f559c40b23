import { schemaBeside, type Area } from '../../../kernel/area.js';
import { Site, SiteAdaptiveSchema } from '../index.js';
import { siteLoaders } from '../index.js';
import { siteNavigationLists } from '../index.js';
import { siteResolvers } from './resolvers.js';
import { CreateSiteInput, UpdateSiteInput } from './inputs.js';
import { sitesRoutes } from './routes.js';
import { SiteReads } from './reads.js';

/**
 * Sites, their adaptive schema and published view. The loaders of a site's parts, which every site
 * area reads, are declared here (sites/loaders.ts).
 */
export const siteArea = {
  name: 'sites/site',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { CreateSiteInput, UpdateSiteInput },
  resolvers: siteResolvers,
  loaders: siteLoaders,
  // The navigation's pages, which the sections and site spaces areas read.
  lists: siteNavigationLists,
  entities: [Site, SiteAdaptiveSchema],
  reads: [SiteReads],
  routes: sitesRoutes,
} satisfies Area;
