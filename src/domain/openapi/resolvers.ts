import { atLeast } from '../../kernel/roles.js';
import { found, whenLoaded } from '../../kernel/loader.js';
import { createInOrganization, deleteOrganizationItem, listInOrganization, onOrganizationItem, updateOrganizationItem } from '../../kernel/resolvers.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import type { OpenAPISpecRow } from './entities.js';
import { createOpenAPISpec, deleteOpenAPISpec, listOpenAPISpecs, openAPISpecOf, putOpenAPISpec } from './service.js';

export const openAPIResolvers: Resolvers = {
  Query: {
    openAPISpecs: listInOrganization(listOpenAPISpecs),
    openAPISpec: onOrganizationItem('specSlug', openAPISpecOf),
  },
  Mutation: {
    createOpenAPISpec: createInOrganization(createOpenAPISpec),
    putOpenAPISpec: updateOrganizationItem('specSlug', putOpenAPISpec),
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
    owningOrganization: (s, _, ctx) => found(ctx.loaders.organization.get(s.organization), 'Organization'),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    OpenAPISpec: OpenAPISpecRow;
  }
}
