import type { Route } from '../../kernel/rest-route.js';
import { FILE, LINKS, META_LINKS, PAGE, REVISION } from '../content/index.js';
import { ORGANIZATION } from '../organizations/index.js';
import { SPACE } from '../spaces/index.js';
import { USER } from '../users/index.js';
import { CHANGE_REQUEST } from './fragments.js';

const CR = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}';
const inChangeRequest = '$spaceId: ID!, $changeRequestId: ID!';
const ids = 'spaceId: $spaceId, changeRequestId: $changeRequestId';
const readFlags = '$metadata: Boolean = true, $computed: Boolean = true';
const flags = 'metadata: $metadata, computed: $computed';

export const changeRequestRoutes: Route[] = [
  {
    operationId: 'listChangeRequestsForSpace',
    method: 'GET',
    path: '/v1/spaces/{spaceId}/change-requests',
    status: 200,
    document: `query($spaceId: ID!, $status: ChangeRequestStatus = open, $contributor: ID, $page: String, $limit: Int) {
      changeRequests(spaceId: $spaceId, status: $status, contributor: $contributor, page: $page, limit: $limit) {
        items { ...ChangeRequestFields } count next { page }
      }
    } ${CHANGE_REQUEST}`,
  },
  {
    operationId: 'listChangeRequestsForOrganization',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/change-requests',
    status: 200,
    document: `query(
      $organizationId: ID!, $status: [ChangeRequestStatus!] = [open], $creator: ID, $contributor: ID, $space: ID, $site: ID,
      $requestedReviewer: ID, $topic: String, $styleguideRun: String, $finding: ChangeRequestFinding,
      $orderBy: ChangeRequestOrderBy = updatedAt, $page: String, $limit: Int
    ) {
      organizationChangeRequests(
        organizationId: $organizationId, status: $status, creator: $creator, contributor: $contributor, space: $space, site: $site,
        requestedReviewer: $requestedReviewer, topic: $topic, styleguideRun: $styleguideRun, finding: $finding,
        orderBy: $orderBy, page: $page, limit: $limit
      ) { items { ...ChangeRequestFields } count next { page } }
    } ${CHANGE_REQUEST}`,
  },
  {
    operationId: 'createChangeRequest',
    method: 'POST',
    path: '/v1/spaces/{spaceId}/change-requests',
    status: 201,
    body: 'input',
    document: `mutation($spaceId: ID!, $input: CreateChangeRequestInput!) {
      createChangeRequest(spaceId: $spaceId, input: $input) { ...ChangeRequestFields }
    } ${CHANGE_REQUEST}`,
  },
  {
    operationId: 'getChangeRequestById',
    method: 'GET',
    path: CR,
    status: 200,
    document: `query(${inChangeRequest}) { changeRequest(${ids}) { ...ChangeRequestFields } } ${CHANGE_REQUEST}`,
  },
  {
    operationId: 'getContributorsByChangeRequestId',
    method: 'GET',
    path: `${CR}/contributors`,
    status: 200,
    document: `query(${inChangeRequest}) {
      changeRequestContributors(${ids}) { items { user { ...UserFields } count updatedAt actionType } count }
    } ${USER}`,
  },
  {
    operationId: 'updateChangeRequestById',
    method: 'PATCH',
    path: CR,
    status: 200,
    body: 'input',
    document: `mutation(${inChangeRequest}, $input: UpdateChangeRequestInput!, $ifMatch: String) {
      updateChangeRequest(${ids}, input: $input, ifMatch: $ifMatch) { ...ChangeRequestFields }
    } ${CHANGE_REQUEST}`,
  },
  {
    operationId: 'mergeChangeRequest',
    method: 'POST',
    path: `${CR}/merge`,
    status: 200,
    document: `mutation(${inChangeRequest}) { mergeChangeRequest(${ids}) { revision result } }`,
  },
  {
    operationId: 'updateChangeRequest',
    method: 'POST',
    path: `${CR}/update`,
    status: 200,
    document: `mutation(${inChangeRequest}) { updateChangeRequestFromMain(${ids}) { revision result } }`,
  },
  {
    operationId: 'getRevisionOfChangeRequestById',
    method: 'GET',
    path: `${CR}/content`,
    status: 200,
    document: `query(${inChangeRequest}, ${readFlags}) { changeRequestContent(${ids}, ${flags}) { ...RevisionFields } } ${REVISION} ${CHANGE_REQUEST}`,
  },
  {
    operationId: 'listPagesInChangeRequest',
    method: 'GET',
    path: `${CR}/content/pages`,
    status: 200,
    document: `query(${inChangeRequest}, ${readFlags}) { changeRequestPages(${ids}, ${flags}) { pages { ...PageFields } } } ${PAGE}`,
  },
  {
    operationId: 'getPageInChangeRequestById',
    method: 'GET',
    path: `${CR}/content/page/{pageId}`,
    status: 200,
    document: `query(${inChangeRequest}, $pageId: ID!, $format: PageFormat, $evaluated: Boolean = false, ${readFlags}) {
      changeRequestPage(${ids}, pageId: $pageId, format: $format, evaluated: $evaluated, ${flags}) { ...PageFields }
    } ${PAGE}`,
  },
  {
    operationId: 'getPageInChangeRequestByPath',
    method: 'GET',
    path: `${CR}/content/path/{pagePath}`,
    status: 200,
    document: `query(${inChangeRequest}, $pagePath: String!, $format: PageFormat, $evaluated: Boolean = false, ${readFlags}) {
      changeRequestPageByPath(${ids}, pagePath: $pagePath, format: $format, evaluated: $evaluated, ${flags}) { ...PageFields }
    } ${PAGE}`,
  },
  {
    operationId: 'listFilesInChangeRequestById',
    method: 'GET',
    path: `${CR}/content/files`,
    status: 200,
    document: `query(${inChangeRequest}, $page: String, $limit: Int, ${readFlags}) {
      changeRequestFiles(${ids}, page: $page, limit: $limit, ${flags}) { items { ...FileFields } count next { page } }
    } ${FILE}`,
  },
  {
    operationId: 'getFileInChangeRequestById',
    method: 'GET',
    path: `${CR}/content/files/{fileId}`,
    status: 200,
    document: `query(${inChangeRequest}, $fileId: ID!, ${readFlags}) { changeRequestFile(${ids}, fileId: $fileId, ${flags}) { ...FileFields } } ${FILE}`,
  },
  {
    operationId: 'listChangeRequestFileBacklinks',
    method: 'GET',
    path: `${CR}/content/files/{fileId}/backlinks`,
    status: 200,
    document: `query(${inChangeRequest}, $fileId: ID!, $page: String, $limit: Int) {
      changeRequestFileBacklinks(${ids}, fileId: $fileId, page: $page, limit: $limit) {
        items {
          kind organization { ...OrganizationFields } space { ...SpaceFields }
          versionContext { type changeRequest { ...ChangeRequestFields } }
          page { ...PageFields }
        }
        count next { page }
      }
    } ${ORGANIZATION} ${SPACE} ${CHANGE_REQUEST} ${PAGE}`,
  },
  {
    operationId: 'listPageLinksInChangeRequest',
    method: 'GET',
    path: `${CR}/content/page/{pageId}/links`,
    status: 200,
    document: `query(${inChangeRequest}, $pageId: ID!, $page: String, $limit: Int) {
      changeRequestPageLinks(${ids}, pageId: $pageId, page: $page, limit: $limit) { ...LinkListFields }
    } ${LINKS} ${ORGANIZATION} ${SPACE} ${CHANGE_REQUEST} ${PAGE} ${FILE}`,
  },
  {
    operationId: 'updateChangeRequestContent',
    method: 'POST',
    path: `${CR}/content`,
    status: 200,
    body: 'input',
    document: `mutation(${inChangeRequest}, $input: UpdateChangeRequestContentInput!, $compat: Boolean = true) {
      updateChangeRequestContent(${ids}, input: $input, compat: $compat) {
        ... on ChangeRequest { ...ChangeRequestFields }
        ... on ChangeRequestContentUpdate { changeRequest { ...ChangeRequestFields } changes insertedFiles { ...FileFields } }
      }
    } ${CHANGE_REQUEST} ${FILE}`,
  },
  {
    operationId: 'listChangeRequestPageMetaLinks',
    method: 'GET',
    path: `${CR}/content/page/{pageId}/meta-links`,
    status: 200,
    document: `query(${inChangeRequest}, $pageId: ID!) { changeRequestPageMetaLinks(${ids}, pageId: $pageId) { ...PageMetaLinksFields } } ${META_LINKS}`,
  },
  {
    operationId: 'getChangeRequestPDF',
    method: 'GET',
    path: `${CR}/pdf`,
    status: 200,
    document: `query(${inChangeRequest}, $page: ID, $only: Boolean) { changeRequestPDF(${ids}, page: $page, only: $only) { url } }`,
  },
  {
    operationId: 'importContentInChangeRequest',
    method: 'POST',
    path: `${CR}/content/import`,
    status: 201,
    body: 'input',
    document: `mutation(${inChangeRequest}, $input: ImportContentInput!) {
      importContent(${ids}, input: $input) { revision importedResources totalResources }
    }`,
  },
];
