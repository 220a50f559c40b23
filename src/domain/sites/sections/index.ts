import { schemaBeside, type Area } from '../../common/area.js';
import { SiteSection, SiteSectionGroup } from '../entities.js';
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
