import { schemaBeside, type Area } from '../../kernel/area.js';
import { SearchIndexedSpace, SearchSection } from './entities.js';
import { scheduleIndexing, searchJobHandlers } from './indexing.js';
import { searchResolvers } from './resolvers.js';
import { searchRoutes } from './routes.js';

/** Full-text search over the main content of an organization's spaces, kept by an indexing job. */
export const searchArea = {
  name: 'search',
  typeDefs: schemaBeside(import.meta.url),
  resolvers: searchResolvers,
  entities: [SearchIndexedSpace, SearchSection],
  spaceOwned: [SearchIndexedSpace, SearchSection] as never[],
  routes: searchRoutes,
  jobs: { ...searchJobHandlers },
  spaceContentChanged: scheduleIndexing,
} satisfies Area;
