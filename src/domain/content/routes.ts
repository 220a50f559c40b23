import type { Route } from '../../kernel/rest-route.js';
import { CHANGE_REQUEST } from '../change-requests/index.js';
import { FILE, META_LINKS, PAGE, REVISION } from './fragments.js';

/*
 * A space's content over REST (operations of the current official client, @gitbook/api 0.202.0): its
 * main content at `/content`, any of its revisions at `/revisions/{revisionId}`; both are the same
 * GraphQL fields, with or without `revisionId`.
 */

const SPACE = '/v1/spaces/{spaceId}';
const REVISION_PATH = `${SPACE}/revisions/{revisionId}`;
const readFlags = '$metadata: Boolean = true, $computed: Boolean = true';
const flags = 'metadata: $metadata, computed: $computed';
const pageArgs = '$format: PageFormat, $evaluated: Boolean = false';
const pageFlags = 'format: $format, evaluated: $evaluated';

/** The same operations on the main content (no revisionId) and on one revision. */
function readsOfContent(
  names: { revision: string; pages: string; page: string; metaLinks: string; path: string; files: string; file: string },
  base: string,
  withRevision: boolean,
): Route[] {
  const params = withRevision ? '$spaceId: ID!, $revisionId: ID!' : '$spaceId: ID!';
  const ids = withRevision ? 'spaceId: $spaceId, revisionId: $revisionId' : 'spaceId: $spaceId';
  return [
    {
      operationId: names.revision,
      method: 'GET',
      path: withRevision ? base : `${base}/content`,
      status: 200,
      document: `query(${params}, ${readFlags}) { spaceContent(${ids}, ${flags}) { ...RevisionFields } } ${REVISION} ${CHANGE_REQUEST}`,
    },
    {
      operationId: names.pages,
      method: 'GET',
      path: withRevision ? `${base}/pages` : `${base}/content/pages`,
      status: 200,
      document: `query(${params}, ${readFlags}) { spacePages(${ids}, ${flags}) { pages { ...PageFields } } } ${PAGE}`,
    },
    {
      operationId: names.page,
      method: 'GET',
      path: withRevision ? `${base}/page/{pageId}` : `${base}/content/page/{pageId}`,
      status: 200,
      document: `query(${params}, $pageId: ID!, ${pageArgs}, ${readFlags}) {
        spacePage(${ids}, pageId: $pageId, ${pageFlags}, ${flags}) { ...PageFields }
      } ${PAGE}`,
    },
    {
      operationId: names.path,
      method: 'GET',
      path: withRevision ? `${base}/path/{pagePath}` : `${base}/content/path/{pagePath}`,
      status: 200,
      document: `query(${params}, $pagePath: String!, ${pageArgs}, ${readFlags}) {
        spacePageByPath(${ids}, pagePath: $pagePath, ${pageFlags}, ${flags}) { ...PageFields }
      } ${PAGE}`,
    },
    {
      operationId: names.metaLinks,
      method: 'GET',
      path: withRevision ? `${base}/page/{pageId}/meta-links` : `${base}/content/page/{pageId}/meta-links`,
      status: 200,
      document: `query(${params}, $pageId: ID!) { spacePageMetaLinks(${ids}, pageId: $pageId) { ...PageMetaLinksFields } } ${META_LINKS}`,
    },
    {
      operationId: names.files,
      method: 'GET',
      path: withRevision ? `${base}/files` : `${base}/content/files`,
      status: 200,
      document: `query(${params}, $page: String, $limit: Int, ${readFlags}) {
        spaceFiles(${ids}, page: $page, limit: $limit, ${flags}) { items { ...FileFields } count next { page } }
      } ${FILE}`,
    },
    {
      operationId: names.file,
      method: 'GET',
      path: withRevision ? `${base}/files/{fileId}` : `${base}/content/files/{fileId}`,
      status: 200,
      document: `query(${params}, $fileId: ID!, ${readFlags}) { spaceFile(${ids}, fileId: $fileId, ${flags}) { ...FileFields } } ${FILE}`,
    },
  ];
}

export const spaceContentRoutes: Route[] = [
  ...readsOfContent(
    {
      revision: 'getCurrentRevision',
      pages: 'listPages',
      page: 'getPageById',
      metaLinks: 'listSpacePageMetaLinks',
      path: 'getPageByPath',
      files: 'listFiles',
      file: 'getFileById',
    },
    SPACE,
    false,
  ),
  ...readsOfContent(
    {
      revision: 'getRevisionById',
      pages: 'listPagesInRevisionById',
      page: 'getPageInRevisionById',
      metaLinks: 'listRevisionPageMetaLinks',
      path: 'getPageInRevisionByPath',
      files: 'listFilesInRevisionById',
      file: 'getFileInRevisionById',
    },
    REVISION_PATH,
    true,
  ),
  {
    operationId: 'getPageDocumentInRevisionById',
    method: 'GET',
    path: `${REVISION_PATH}/page/{pageId}/document`,
    status: 200,
    document: `query($spaceId: ID!, $revisionId: ID!, $pageId: ID!) { spacePageDocument(spaceId: $spaceId, revisionId: $revisionId, pageId: $pageId) }`,
  },
  {
    operationId: 'getDocumentById',
    method: 'GET',
    path: `${SPACE}/documents/{documentId}`,
    status: 200,
    document: `query($spaceId: ID!, $documentId: ID!) { spaceDocument(spaceId: $spaceId, documentId: $documentId) }`,
  },
  {
    operationId: 'getRevisionSemanticChanges',
    method: 'GET',
    path: `${REVISION_PATH}/changes`,
    status: 200,
    document: `query($spaceId: ID!, $revisionId: ID!, $limit: Int) {
      revisionSemanticChanges(spaceId: $spaceId, revisionId: $revisionId, limit: $limit) { mergedFrom { ...ChangeRequestFields } changes more }
    } ${CHANGE_REQUEST}`,
  },
  {
    operationId: 'getChangeRequestChanges',
    method: 'GET',
    path: `${SPACE}/change-requests/{changeRequestId}/changes`,
    status: 200,
    document: `query($spaceId: ID!, $changeRequestId: ID!, $limit: Int) {
      changeRequestChanges(spaceId: $spaceId, changeRequestId: $changeRequestId, limit: $limit) { changes more }
    }`,
  },
  {
    operationId: 'getSpacePDF',
    method: 'GET',
    path: `${SPACE}/pdf`,
    status: 200,
    document: `query($spaceId: ID!, $page: ID, $only: Boolean) { spacePDF(spaceId: $spaceId, page: $page, only: $only) { url } }`,
  },
];
