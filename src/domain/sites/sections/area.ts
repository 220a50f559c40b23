import { schemaBeside, type Area } from '../../../kernel/area.js';
import { SiteSection, SiteSectionGroup } from '../index.js';
import { siteSectionResolvers } from './resolvers.js';
import { siteSectionsRoutes } from './routes.js';

/** Sections of sites and the groups that gather them. */
export const siteSectionsArea = {
  name: 'sites/sections',
  typeDefs: schemaBeside(import.meta.url),
  resolvers: siteSectionResolvers,
  entities: [SiteSectionGroup, SiteSection],
  routes: siteSectionsRoutes,
} satisfies Area;
