import { atLeast } from '../../kernel/roles.js';
import { found, whenLoaded } from '../../kernel/loader.js';
import { createInOrganization, listInOrganization, onOrganizationItem } from '../../kernel/resolvers.js';
import { deleteOrganizationItemIfMatch, etagOfResource, updateOrganizationItemIfMatch, organizationItemResource } from '../../graphql/conditional-writes.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { OpenAPISpec, type OpenAPISpecRow } from './entities.js';
import {
  createOpenAPISpec,
  deleteOpenAPISpec,
  listOpenAPISpecs,
  listOpenAPISpecVersions,
  openAPISpecOf,
  openAPISpecVersionContent,
  openAPISpecVersionOf,
  openAPISpecVersionRawContent,
  putOpenAPISpec,
  updateOpenAPISpec,
  versionLocation,
  versionOfSpec,
  versionUrl,
  type SpecVersion,
} from './service.js';

/** A specification as conditional writes name it (graphql/conditional-writes.ts): by its slug in the organization. */
const specResource = organizationItemResource('getOpenAPISpecBySlug', 'specSlug', OpenAPISpec, (organization, slug) => ({ organization, slug }));

export const openAPIResolvers: Resolvers = {
  Query: {
    openAPISpecs: listInOrganization(listOpenAPISpecs),
    openAPISpec: onOrganizationItem('specSlug', openAPISpecOf),
    openAPISpecVersions: (_, { organizationId, specSlug, ...page }, ctx) => listOpenAPISpecVersions(ctx, organizationId, specSlug, page),
    openAPISpecVersion: (_, { organizationId, specSlug, versionId }, ctx) => openAPISpecVersionOf(ctx, organizationId, specSlug, versionId),
    openAPISpecVersionContent: (_, { organizationId, specSlug, versionId }, ctx) => openAPISpecVersionContent(ctx, organizationId, specSlug, versionId),
    openAPISpecVersionRawContent: (_, { organizationId, specSlug, versionId }, ctx) => openAPISpecVersionRawContent(ctx, organizationId, specSlug, versionId),
  },
  Mutation: {
    createOpenAPISpec: createInOrganization(createOpenAPISpec),
    // With If-Match, a PUT only replaces a specification that exists (RFC 9110 §13.1.1): 412 for a new slug.
    putOpenAPISpec: updateOrganizationItemIfMatch('specSlug', specResource, putOpenAPISpec),
    updateOpenAPISpec: updateOrganizationItemIfMatch('specSlug', specResource, updateOpenAPISpec),
    deleteOpenAPISpec: deleteOrganizationItemIfMatch('specSlug', specResource, deleteOpenAPISpec),
  },
  OpenAPISpec: {
    object: () => 'openapi-spec',
    etag: (s, _, ctx) => etagOfResource(ctx, specResource(s.organization, s.slug)),
    permissions: (s, _, ctx) =>
      whenLoaded(ctx.policy.organizationRole(s.organization), (role) => ({ view: atLeast(role, 'read'), edit: atLeast(role, 'create') })),
    urls: (s, _, ctx) => ({
      location: `${ctx.config.publicUrl}/v1/orgs/${s.organization}/openapi/${s.slug}`,
      app: `${ctx.config.appUrl}/o/${s.organization}/openapi/${s.slug}`,
    }),
    title: (s) => s.lastTitle ?? null,
    format: (s) => s.lastFormat ?? null,
    lastProcessedErrorCount: (s) => (s.lastProcessErrorCode ? 1 : 0),
    latestVersion: (s, _, ctx) => versionOfSpec(ctx, s),
    owningOrganization: (s, _, ctx) => found(ctx.loaders.organization.get(s.organization), 'Organization'),
  },
  OpenAPISpecVersion: {
    object: () => 'openapi-spec-version',
    id: ({ version }) => version.id,
    createdAt: ({ version }) => version.createdAt,
    number: ({ version }) => version.number,
    url: (v, _, ctx) => versionUrl(ctx, v),
    urls: (v, _, ctx) => ({ location: versionLocation(ctx, v) }),
    version: ({ version }) => version.version ?? null,
    title: ({ version }) => version.title ?? null,
    format: ({ version }) => version.format,
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    OpenAPISpec: OpenAPISpecRow;
    OpenAPISpecVersion: SpecVersion;
  }
}
