import type { Route } from '../../../kernel/rest-route.js';
import { SITE_SPACE } from '../site-spaces/index.js';
import { SITE_SECTION, SITE_SECTION_GROUP, SITE_STRUCTURE_ITEM_SELECTION } from './fragments.js';

const SITE = '/v1/orgs/{organizationId}/sites/{siteId}';
const SECTION = `${SITE}/sections/{siteSectionId}`;
const GROUP = `${SITE}/section-groups/{siteSectionGroupId}`;

/** Variables every route of a site carries. */
const onSite = '$organizationId: ID!, $siteId: ID!';
const site = 'siteId: $siteId, organizationId: $organizationId';

export const siteSectionsRoutes: Route[] = [
  {
    operationId: 'listSiteSections',
    method: 'GET',
    path: `${SITE}/sections`,
    status: 200,
    document: `query(${onSite}, $shareKey: String, $page: String, $limit: Int) {
      siteSections(${site}, shareKey: $shareKey, page: $page, limit: $limit) { items { ...SiteSectionFields } count next { page } }
    } ${SITE_SECTION}`,
  },
  {
    operationId: 'addSectionToSite',
    method: 'POST',
    path: `${SITE}/sections`,
    status: 201,
    body: 'input',
    document: `mutation(${onSite}, $input: AddSiteSectionInput!) {
      addSiteSection(${site}, input: $input) { ...SiteSectionFields }
    } ${SITE_SECTION}`,
  },
  {
    operationId: 'deleteSiteSectionById',
    method: 'DELETE',
    path: SECTION,
    status: 204,
    document: `mutation(${onSite}, $siteSectionId: ID!) { deleteSiteSection(${site}, id: $siteSectionId) }`,
  },
  {
    operationId: 'updateSiteSectionById',
    method: 'PATCH',
    path: SECTION,
    status: 200,
    body: 'input',
    document: `mutation(${onSite}, $siteSectionId: ID!, $input: UpdateSiteSectionInput!) {
      updateSiteSection(${site}, id: $siteSectionId, input: $input) { ...SiteSectionFields }
    } ${SITE_SECTION}`,
  },
  {
    operationId: 'moveSiteSection',
    method: 'POST',
    path: `${SECTION}/move`,
    status: 200,
    optionalBody: true,
    document: `mutation(${onSite}, $siteSectionId: ID!, $position: SiteSectionPositionInput) {
      moveSiteSection(${site}, id: $siteSectionId, position: $position) { ...SiteSectionFields }
    } ${SITE_SECTION}`,
  },
  {
    operationId: 'listSiteSectionGroups',
    method: 'GET',
    path: `${SITE}/section-groups`,
    status: 200,
    document: `query(${onSite}, $page: String, $limit: Int) {
      siteSectionGroups(${site}, page: $page, limit: $limit) { items { ...SiteSectionGroupFields } count next { page } }
    } ${SITE_SECTION_GROUP}`,
  },
  {
    operationId: 'addSectionGroupToSite',
    method: 'POST',
    path: `${SITE}/section-groups`,
    status: 201,
    body: 'input',
    document: `mutation(${onSite}, $input: AddSiteSectionGroupInput!) {
      addSiteSectionGroup(${site}, input: $input) { ...SiteSectionGroupFields }
    } ${SITE_SECTION_GROUP}`,
  },
  {
    operationId: 'deleteSiteSectionGroupById',
    method: 'DELETE',
    path: GROUP,
    status: 204,
    document: `mutation(${onSite}, $siteSectionGroupId: ID!) { deleteSiteSectionGroup(${site}, id: $siteSectionGroupId) }`,
  },
  {
    operationId: 'updateSiteSectionGroupById',
    method: 'PATCH',
    path: GROUP,
    status: 200,
    body: 'input',
    document: `mutation(${onSite}, $siteSectionGroupId: ID!, $input: UpdateSiteSectionGroupInput!) {
      updateSiteSectionGroup(${site}, id: $siteSectionGroupId, input: $input) { ...SiteSectionGroupFields }
    } ${SITE_SECTION_GROUP}`,
  },
  {
    operationId: 'addSectionToGroup',
    method: 'POST',
    path: `${GROUP}/sections`,
    status: 201,
    document: `mutation(${onSite}, $siteSectionGroupId: ID!, $sectionId: ID!) {
      addSectionToGroup(${site}, id: $siteSectionGroupId, sectionId: $sectionId) { ...SiteSectionGroupFields }
    } ${SITE_SECTION_GROUP}`,
  },
  {
    operationId: 'removeSectionFromGroup',
    method: 'DELETE',
    path: `${GROUP}/sections/{siteSectionId}`,
    status: 204,
    document: `mutation(${onSite}, $siteSectionGroupId: ID!, $siteSectionId: ID!) {
      removeSectionFromGroup(${site}, id: $siteSectionGroupId, sectionId: $siteSectionId)
    }`,
  },
  {
    operationId: 'moveSiteSectionGroup',
    method: 'POST',
    path: `${GROUP}/move`,
    status: 200,
    optionalBody: true,
    document: `mutation(${onSite}, $siteSectionGroupId: ID!, $position: SiteSectionGroupPositionInput) {
      moveSiteSectionGroup(${site}, id: $siteSectionGroupId, position: $position) { ...SiteSectionGroupFields }
    } ${SITE_SECTION_GROUP}`,
  },
  // 0.202.0: one move for every item of a site's structure, answering the item (200 whatever `Prefer` asks).
  {
    operationId: 'sortSiteStructure',
    method: 'PATCH',
    path: `${SITE}/structure/sort`,
    status: 200,
    body: 'input',
    document: `mutation(${onSite}, $input: SortSiteStructureInput!) {
      sortSiteStructure(${site}, input: $input) { ${SITE_STRUCTURE_ITEM_SELECTION} }
    } ${SITE_SECTION_GROUP}`,
  },
  {
    operationId: 'duplicateSiteSpace',
    method: 'POST',
    path: `${SITE}/site-spaces/{siteSpaceId}/duplicate`,
    status: 201,
    optionalBody: true,
    body: 'input',
    document: `mutation(${onSite}, $siteSpaceId: ID!, $input: DuplicateSiteSpaceInput!) {
      duplicateSiteSpace(${site}, id: $siteSpaceId, input: $input) { ...SiteSpaceFields }
    } ${SITE_SPACE}`,
  },
];
