import { found, whenLoaded } from '../../kernel/loader.js';
import { etagOf, writeIfMatch } from '../../graphql/conditional-writes.js';
import type { QueryResolverFn, Resolvers } from '../../kernel/resolver-types.js';
import { readBeforeGuard } from '../../kernel/resolvers.js';
import { notFound } from '../../kernel/errors.js';
import { answerIfBuilt, shapeOf } from '../../db/read-shapes.js';
import { prebuilt } from '../../kernel/prebuilt-answers.js';
import { Organization, type OrganizationRow } from './entities.js';
import { joinByEmailDomain } from './joining.js';
import { createOrganization, listViewerOrganizations, organizationsForEmailDomain, ping, updateOrganization } from './service.js';

const ORGANIZATION_REPRESENTATION = 'getOrganizationById';

export const organizationResolvers: Resolvers = {
  Query: {
    organizations: (_, args, ctx) => listViewerOrganizations(ctx, args),
    organization: readBeforeGuard<QueryResolverFn<'organization'>>(async (_, { id }, ctx, info) => {
      // The database writes the answer, read with the row its guard judges, when the selection reads
      // more than the row (the lists other areas declare, organizations/reads.ts) and it can answer it all.
      const shape = answerIfBuilt(ctx, shapeOf(ctx.em, ctx.areas, info, 'Organization'));
      if (!shape.answers || !shape.readsBeyondRow) return found(ctx.loaders.organization.load(id), 'Organization');
      const read = await ctx.loaders.organizationAnswerOf(shape).load(id);
      if (!read) throw notFound('Organization');
      ctx.loaders.organization.remember(id, read.row);
      // No answer for a non-member (the guard then refuses).
      return read.answer === null ? read.row : prebuilt<OrganizationRow>(read.answer, shape.nullsLeftOut);
    }),
    organizationsForEmailDomain: async (_, { emailDomain }, ctx) => ({
      organizations: await organizationsForEmailDomain(ctx, emailDomain),
    }),
  },
  Mutation: {
    createOrganization: (_, { input }, ctx) => createOrganization(ctx.em, ctx.clock, ctx.viewer!.user.id, input, ctx),
    joinOrganization: (_, { organizationId }, ctx) => joinByEmailDomain(ctx, organizationId),
    updateOrganization: (_, { id, input, ifMatch }, ctx) =>
      writeIfMatch(ctx, ifMatch, { representation: ORGANIZATION_REPRESENTATION, variables: { organizationId: id }, row: [Organization, id] }, (ctx) =>
        updateOrganization(ctx, id, input),
      ),
    pingOrganization: (_, { id }, ctx) => ping(ctx, id),
  },
  Organization: {
    mergeRules: () => ({ type: 'none' }),
    object: () => 'organization',
    etag: (o, _, ctx) => etagOf(ctx, ORGANIZATION_REPRESENTATION, { organizationId: o.id }),
    urls: (o, _, ctx) => ({
      location: `${ctx.config.publicUrl}/v1/orgs/${o.id}`,
      app: `${ctx.config.appUrl}/o/${o.id}`,
      logo: o.logo ?? null,
    }),
    // A self-hosted organization has no trial to run.
    trial: () => ({ status: 'notapplicable', count: 0 }),
    customHostname: () => null,
    permissions: (o, _, ctx) => ctx.policy.organizationPermissions(o.id),
    viewerRole: (o, _, ctx) => whenLoaded(ctx.policy.organizationRole(o.id), (role) => role ?? null),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    Organization: OrganizationRow;
  }
}
