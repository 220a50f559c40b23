import { siteSpaceChecks } from './checks.js';
import { schemaBeside, type Area } from '../../../kernel/area.js';
import { SiteSpace } from '../index.js';
import { siteSpaceResolvers } from './resolvers.js';
import { siteSpacesRoutes } from './routes.js';
import { unpublishSpaces } from './service.js';
import { AddSiteSpaceInput, SiteSpacePositionInput, UpdateSiteSpaceInput } from './inputs.js';
import { SiteSpaceReads } from './reads.js';

/** Site spaces: the spaces a site publishes, at its top level or in a section. */
export const siteSpacesArea = {
  name: 'sites/site-spaces',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { AddSiteSpaceInput, UpdateSiteSpaceInput, SiteSpacePositionInput },
  resolvers: siteSpaceResolvers,
  entities: [SiteSpace],
  reads: [SiteSpaceReads],
  routes: siteSpacesRoutes,
  checks: siteSpaceChecks,
  contentLeaving: async (em, { spaces }) => {
    if (spaces?.length) await unpublishSpaces(em, spaces);
  },
} satisfies Area;
