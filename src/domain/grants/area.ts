import { schemaBeside, type Area } from '../../kernel/area.js';
import { ContentGrant } from './entities.js';
import { grantLoaders } from './loaders.js';
import { grantResolvers } from './resolvers.js';
import { removeGrantsOn } from './service.js';
import { GrantInput, GranteeInput, InviteToContentInput, SetRoleInput } from './inputs.js';
import { grantRoutes } from './routes.js';

/** Roles given on spaces and collections to teams and members. */
export const grantsArea = {
  name: 'grants',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { GrantInput, GranteeInput, SetRoleInput, InviteToContentInput },
  routes: grantRoutes,
  resolvers: grantResolvers,
  loaders: (em, _viewer, all) => grantLoaders(em, all.teamMembershipsOf),
  entities: [ContentGrant],
  // A purged space's grants go with it (ON DELETE CASCADE).
  contentLeaving: async (em, content, why) => {
    if (why === 'moved') await removeGrantsOn(em, content);
  },
} satisfies Area;
