import { schemaBeside, type Area } from '../../../kernel/area.js';
import { ShareLink } from '../index.js';
import { shareLinkResolvers } from './resolvers.js';
import { shareLinksRoutes } from './routes.js';
import { shareLinkLists } from './lists.js';
import { CreateShareLinkInput, UpdateShareLinkInput } from './inputs.js';

/** Share links: secret keys that open a site to callers outside its organization. */
export const shareLinksArea = {
  name: 'sites/share-links',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { CreateShareLinkInput, UpdateShareLinkInput },
  resolvers: shareLinkResolvers,
  lists: shareLinkLists,
  entities: [ShareLink],
  routes: shareLinksRoutes,
} satisfies Area;
