import type { Route } from '../../../kernel/rest-route.js';
import { SITE_SECTION_GROUP, SITE_STRUCTURE_ITEM_SELECTION } from '../sections/index.js';
import { SITE } from './fragments.js';

const SITE_PATH = '/v1/orgs/{organizationId}/sites/{siteId}';

const ADAPTIVE_SCHEMA_FIELDS = 'object jsonSchema updatedAt';

/** A mutation on one site by id that answers the site (the reference's publish and unpublish). */
const siteMutation = (operationId: string, path: string, field: string): Route => ({
  operationId,
  method: 'POST',
  path: `${SITE_PATH}${path}`,
  status: 200,
  document: `mutation($organizationId: ID!, $siteId: ID!) {
    ${field}(id: $siteId, organizationId: $organizationId) { ...SiteFields }
  } ${SITE}`,
});

export const sitesRoutes: Route[] = [
  {
    operationId: 'listSites',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sites',
    status: 200,
    document: `query($organizationId: ID!, $space: ID, $title: String, $published: Boolean, $type: [String!], $page: String, $limit: Int) {
      sites(organizationId: $organizationId, space: $space, title: $title, published: $published, type: $type, page: $page, limit: $limit) {
        items { ...SiteFields } count next { page }
      }
    } ${SITE}`,
  },
  {
    operationId: 'createSite',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/sites',
    status: 201,
    optionalBody: true,
    body: 'input',
    document: `mutation($organizationId: ID!, $input: CreateSiteInput!) {
      createSite(organizationId: $organizationId, input: $input) { ...SiteFields }
    } ${SITE}`,
  },
  {
    operationId: 'getSiteById',
    method: 'GET',
    path: SITE_PATH,
    status: 200,
    document: `query($organizationId: ID!, $siteId: ID!) { site(id: $siteId, organizationId: $organizationId) { ...SiteFields } } ${SITE}`,
  },
  {
    operationId: 'updateSiteById',
    method: 'PATCH',
    path: SITE_PATH,
    status: 200,
    body: 'input',
    document: `mutation($organizationId: ID!, $siteId: ID!, $input: UpdateSiteInput!, $ifMatch: String) {
      updateSite(id: $siteId, organizationId: $organizationId, input: $input, ifMatch: $ifMatch) { ...SiteFields }
    } ${SITE}`,
  },
  {
    operationId: 'deleteSiteById',
    method: 'DELETE',
    path: SITE_PATH,
    status: 204,
    document: `mutation($organizationId: ID!, $siteId: ID!, $ifMatch: String) { deleteSite(id: $siteId, organizationId: $organizationId, ifMatch: $ifMatch) }`,
  },
  siteMutation('publishSite', '/publish', 'publishSite'),
  siteMutation('unpublishSite', '/unpublish', 'unpublishSite'),
  {
    operationId: 'getSiteAdaptiveSchema',
    method: 'GET',
    path: `${SITE_PATH}/adaptive-schema`,
    status: 200,
    document: `query($organizationId: ID!, $siteId: ID!) {
      siteAdaptiveSchema(siteId: $siteId, organizationId: $organizationId) { ${ADAPTIVE_SCHEMA_FIELDS} }
    }`,
  },
  {
    operationId: 'updateSiteAdaptiveSchema',
    method: 'PUT',
    path: `${SITE_PATH}/adaptive-schema`,
    status: 200,
    document: `mutation($organizationId: ID!, $siteId: ID!, $jsonSchema: JSON!, $ifMatch: String) {
      updateSiteAdaptiveSchema(siteId: $siteId, organizationId: $organizationId, jsonSchema: $jsonSchema, ifMatch: $ifMatch) { ${ADAPTIVE_SCHEMA_FIELDS} }
    }`,
  },
  {
    operationId: 'listSiteAdaptiveTemplateConditions',
    method: 'GET',
    path: `${SITE_PATH}/adaptive-schema/template-conditions`,
    status: 200,
    document: `query($organizationId: ID!, $siteId: ID!) {
      siteAdaptiveTemplateConditions(siteId: $siteId, organizationId: $organizationId) { items { description condition } }
    }`,
  },
  {
    operationId: 'getSiteStructure',
    method: 'GET',
    path: `${SITE_PATH}/structure`,
    status: 200,
    document: `query($organizationId: ID!, $siteId: ID!, $shareKey: String) {
      siteStructure(siteId: $siteId, organizationId: $organizationId, shareKey: $shareKey) {
        type
        structure { ${SITE_STRUCTURE_ITEM_SELECTION} }
      }
    } ${SITE_SECTION_GROUP}`,
  },
  {
    operationId: 'getPublishedContentSite',
    method: 'GET',
    path: `${SITE_PATH}/published`,
    status: 200,
    document: `query($organizationId: ID!, $siteId: ID!, $shareKey: String) {
      publishedContentSite(siteId: $siteId, organizationId: $organizationId, shareKey: $shareKey) {
        object
        site { ...SiteFields }
        structure {
          type
          structure { ${SITE_STRUCTURE_ITEM_SELECTION} }
        }
        customizations { site siteSpaces }
        scripts
      }
    } ${SITE} ${SITE_SECTION_GROUP}`,
  },
];
