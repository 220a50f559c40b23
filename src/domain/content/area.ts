import { schemaBeside, type Area } from '../../kernel/area.js';
import { ContentEntry, ContentFile, ContentNode, FileBlob, PageVersion, Revision } from './entities.js';
import { contentLoaders } from './loaders.js';
import { contentResolvers } from './resolvers.js';
import { spaceContentRoutes } from './routes.js';
import { CreatePageInput, ImportContentInput, MovePageInput, UpdateChangeRequestContentInput, UpdatePageInput, UploadFileInput } from './inputs.js';

/** Content of spaces and change requests: revisions, pages, files, links, exports and imports. */
export const contentArea = {
  name: 'content',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { CreatePageInput, UpdatePageInput, MovePageInput, ImportContentInput, UploadFileInput, UpdateChangeRequestContentInput },
  resolvers: contentResolvers,
  routes: spaceContentRoutes,
  loaders: contentLoaders,
  entities: [Revision, PageVersion, ContentFile, FileBlob, ContentEntry, ContentNode],
  spaceOwned: [Revision, PageVersion, ContentFile, FileBlob, ContentEntry, ContentNode] as never[],
} satisfies Area;
