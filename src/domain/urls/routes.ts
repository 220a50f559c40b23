import type { Route } from '../../kernel/rest-route.js';
import { CHANGE_REQUEST } from '../change-requests/index.js';
import { COLLECTION } from '../collections/index.js';
import { PAGE } from '../content/index.js';
import { SPACE } from '../spaces/index.js';

const LOOKUP_FIELDS = 'site siteSection siteSpace space organization pathname basePath siteBasePath complete canonicalUrl shareKey apiToken';

export const urlRoutes: Route[] = [
  {
    operationId: 'getContentByUrl',
    method: 'GET',
    path: '/v1/urls/content',
    status: 200,
    document: `query($url: String!) {
      contentByUrl(url: $url) { collection { ...CollectionFields } space { ...SpaceFields } changeRequest { ...ChangeRequestFields } page { ...PageFields } }
    } ${COLLECTION} ${SPACE} ${CHANGE_REQUEST} ${PAGE}`,
  },
  {
    operationId: 'getPublishedContentByUrl',
    method: 'GET',
    path: '/v1/urls/published',
    status: 200,
    document: `query($url: String!) { publishedContentByUrl(url: $url) { ${LOOKUP_FIELDS} } }`,
  },
  {
    operationId: 'resolvePublishedContentByUrl',
    method: 'POST',
    path: '/v1/urls/published',
    status: 200,
    document: `query($url: String!, $visitor: JSON, $redirectOnError: Boolean! = false) {
      publishedContentByUrl(url: $url, visitor: $visitor, redirectOnError: $redirectOnError) { ${LOOKUP_FIELDS} }
    }`,
  },
];
