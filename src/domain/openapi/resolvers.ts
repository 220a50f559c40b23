import { atLeast } from '../../auth/roles.js';
import type { Context } from '../../graphql/context.js';
import { whenLoaded } from '../common/loader.js';
import type { PageArgs } from '../common/pagination.js';
import type { Resolvers } from '../../graphql/resolver-types.js';
import type { OpenAPISpecRow } from './entities.js';
import { createOpenAPISpec, deleteOpenAPISpec, listOpenAPISpecs, openAPISpecOf, putOpenAPISpec } from './service.js';

type OrganizationId = { organizationId: string };
type SpecSlug = OrganizationId & { specSlug: string };

export const openAPIResolvers: Resolvers = {
  Query: {
    openAPISpecs: (_: unknown, { organizationId, ...args }: OrganizationId & PageArgs, ctx: Context) => listOpenAPISpecs(ctx, organizationId, args),
    openAPISpec: (_: unknown, { organizationId, specSlug }: SpecSlug, ctx: Context) => openAPISpecOf(ctx, organizationId, specSlug),
  },
  Mutation: {
    createOpenAPISpec: (_: unknown, { organizationId, input }: OrganizationId & { input: unknown }, ctx: Context) =>
      createOpenAPISpec(ctx, organizationId, input),
    putOpenAPISpec: (_: unknown, { organizationId, specSlug, input }: SpecSlug & { input: unknown }, ctx: Context) =>
      putOpenAPISpec(ctx, organizationId, specSlug, input),
    deleteOpenAPISpec: async (_: unknown, { organizationId, specSlug }: SpecSlug, ctx: Context) => {
      await deleteOpenAPISpec(ctx, organizationId, specSlug);
      return true;
    },
  },
  OpenAPISpec: {
    object: () => 'openapi-spec',
    permissions: (s: OpenAPISpecRow, _: unknown, ctx: Context) =>
      whenLoaded(ctx.policy.organizationRole(s.organization), (role) => ({ view: atLeast(role, 'read'), edit: atLeast(role, 'create') })),
    urls: (s: OpenAPISpecRow, _: unknown, ctx: Context) => ({
      location: `${ctx.config.publicUrl}/v1/orgs/${s.organization}/openapi/${s.slug}`,
      app: `${ctx.config.appUrl}/o/${s.organization}/openapi/${s.slug}`,
    }),
    title: (s: OpenAPISpecRow) => s.lastTitle,
    format: (s: OpenAPISpecRow) => s.lastFormat,
    owningOrganization: (s: OpenAPISpecRow, _: unknown, ctx: Context) => ctx.loaders.organization.get(s.organization),
  },
};
