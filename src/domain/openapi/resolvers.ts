import { atLeast } from '../../kernel/roles.js';
import { found, whenLoaded } from '../../kernel/loader.js';
import { createInOrganization, deleteOrganizationItem, listInOrganization, onOrganizationItem, updateOrganizationItem } from '../../kernel/resolvers.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import type { OpenAPISpecRow } from './entities.js';
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
    putOpenAPISpec: updateOrganizationItem('specSlug', putOpenAPISpec),
    updateOpenAPISpec: updateOrganizationItem('specSlug', updateOpenAPISpec),
    deleteOpenAPISpec: deleteOrganizationItem('specSlug', deleteOpenAPISpec),
  },
  OpenAPISpec: {
    object: () => 'openapi-spec',
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
