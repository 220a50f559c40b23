import { routes } from '../../rest-facade/routes/index.js';
import { SITE_TREE_QUERY } from '../site-tree.js';
import type { LoadTarget } from './load-generator.js';
import { DEEP_QUERY, POSTGRAPHILE_DEEP_QUERY } from './deep-tree.js';
import { POSTGRAPHILE_STRUCTURE_QUERY, STRUCTURE_QUERY } from './structural-tree.js';

/**
 * One thing the bench measures: a letter (a–f as in issue 19, g–h of issue 34, i–j of issue 36), a name,
 * and the request it repeats.
 */
export type Target = { key: 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h' | 'i' | 'j'; name: string; request: LoadTarget };

/**
 * Where the bench's servers listen, and what a request names: the site's organization and site, and the
 * organization of the deep document (deep-tree.ts), seeded apart so that the site's spaces stay out of it.
 */
export type BenchSite = {
  serverUrl: string;
  baselineUrl: string;
  postgraphileUrl: string;
  organizationId: string;
  siteId: string;
  deepOrganizationId: string;
  token: string;
};

const LIST_SITE_SECTIONS = routes.find((route) => route.operationId === 'listSiteSections');

function graphqlRequest(url: string, query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}): LoadTarget {
  return { url, method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) };
}

function graphqlGet(url: string, query: string, variables: Record<string, unknown>, headers: Record<string, string>): LoadTarget {
  const search = new URLSearchParams({ query, variables: JSON.stringify(variables) });
  // Apollo's CSRF prevention takes a GET query only with a header a browser would preflight.
  return { url: `${url}?${search}`, method: 'GET', headers: { ...headers, 'apollo-require-preflight': 'true' } };
}

export function benchTargets(site: BenchSite): Target[] {
  if (!LIST_SITE_SECTIONS) throw new Error('the REST route table has no listSiteSections');
  const auth = { authorization: `Bearer ${site.token}` };
  const graphql = `${site.serverUrl}/graphql`;
  return [
    { key: 'a', name: 'json_agg baseline', request: { url: `${site.baselineUrl}/tree/${site.siteId}`, method: 'GET' } },
    { key: 'b', name: 'GraphQL full tree', request: graphqlRequest(graphql, SITE_TREE_QUERY, { id: site.siteId }, auth) },
    { key: 'c', name: 'GraphQL structural tree', request: graphqlRequest(graphql, STRUCTURE_QUERY, { id: site.siteId }, auth) },
    { key: 'd', name: 'PostGraphile structural', request: graphqlRequest(site.postgraphileUrl, POSTGRAPHILE_STRUCTURE_QUERY, { id: site.siteId }) },
    {
      key: 'e',
      name: 'REST listSiteSections',
      request: { url: `${site.serverUrl}/v1/orgs/${site.organizationId}/sites/${site.siteId}/sections?limit=1000`, method: 'GET', headers: auth },
    },
    {
      key: 'f',
      name: "GraphQL of REST's document",
      // The variables REST passes for that URL: the path's parameters and the query's, coerced to Int.
      request: graphqlRequest(graphql, LIST_SITE_SECTIONS.document, { organizationId: site.organizationId, siteId: site.siteId, limit: 1000 }, auth),
    },
    // b over GET, which answers its ETag (the SHA-1 of the bytes sent), and again with that ETag: 304.
    { key: 'i', name: 'GraphQL full tree, GET with ETag', request: graphqlGet(graphql, SITE_TREE_QUERY, { id: site.siteId }, auth) },
    {
      key: 'j',
      name: 'GraphQL full tree, GET If-None-Match: 304',
      request: { ...graphqlGet(graphql, SITE_TREE_QUERY, { id: site.siteId }, auth), expectStatus: 304 },
    },
    { key: 'g', name: 'GraphQL deep document', request: graphqlRequest(graphql, DEEP_QUERY, { id: site.deepOrganizationId }, auth) },
    { key: 'h', name: 'PostGraphile deep document', request: graphqlRequest(site.postgraphileUrl, POSTGRAPHILE_DEEP_QUERY, { id: site.deepOrganizationId }) },
  ];
}
