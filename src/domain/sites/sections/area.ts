import { schemaBeside, type Area } from '../../../kernel/area.js';
import { SiteSection, SiteSectionGroup } from '../index.js';
import { siteSectionResolvers } from './resolvers.js';
import { siteSectionsRoutes } from './routes.js';
import { SiteSectionGroupReads, SiteSectionReads } from './reads.js';
import {
  AddSiteSectionGroupInput,
  AddSiteSectionInput,
  DuplicateSiteSpaceInput,
  SiteSectionGroupPositionInput,
  SiteSectionPositionInput,
  SortSiteStructureInput,
  UpdateSiteSectionGroupInput,
  UpdateSiteSectionInput,
} from './inputs.js';

/** Sections of sites and the groups that gather them; sorting a site's structure and duplicating its site spaces, which may add sections. */
export const siteSectionsArea = {
  name: 'sites/sections',
  typeDefs: schemaBeside(import.meta.url),
  inputs: {
    AddSiteSectionInput,
    UpdateSiteSectionInput,
    SiteSectionPositionInput,
    AddSiteSectionGroupInput,
    UpdateSiteSectionGroupInput,
    SiteSectionGroupPositionInput,
    SortSiteStructureInput,
    DuplicateSiteSpaceInput,
  },
  resolvers: siteSectionResolvers,
  entities: [SiteSectionGroup, SiteSection],
  reads: [SiteSectionReads, SiteSectionGroupReads],
  routes: siteSectionsRoutes,
} satisfies Area;
