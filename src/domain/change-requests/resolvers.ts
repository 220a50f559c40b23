import { found, whenLoaded } from '../../kernel/loader.js';
import { listOrganizationChangeRequests } from './organization-list.js';
import { listContributors, type ChangeRequestContributor } from './contributors.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { readOptions } from '../content/index.js';
import { ChangeRequest, type ChangeRequestRow } from './entities.js';
import { etagOf, writeIfMatch } from '../../graphql/conditional-writes.js';
import {
  changeRequestIn,
  createChangeRequest,
  isOutdated,
  listChangeRequests,
  mergeChangeRequest,
  updateChangeRequest,
  updateChangeRequestFromMain,
} from './service.js';

const CHANGE_REQUEST_REPRESENTATION = 'getChangeRequestById';

export const changeRequestResolvers: Resolvers = {
  Query: {
    changeRequests: (_, { spaceId, status, contributor, ...args }, ctx) => listChangeRequests(ctx, spaceId, { status, contributor }, args),
    changeRequest: (_, { spaceId, changeRequestId }, ctx) => changeRequestIn(ctx, spaceId, changeRequestId),
    changeRequestContributors: (_, { spaceId, changeRequestId }, ctx) => listContributors(ctx, spaceId, changeRequestId),
    organizationChangeRequests: (_, { organizationId, page, limit, finding: _finding, ...filter }, ctx) =>
      listOrganizationChangeRequests(ctx, organizationId, filter, { page, limit }),
  },
  Mutation: {
    createChangeRequest: (_, { spaceId, input }, ctx) => createChangeRequest(ctx, spaceId, input),
    updateChangeRequest: (_, { spaceId, changeRequestId, input, ifMatch }, ctx) =>
      writeIfMatch(
        ctx,
        ifMatch,
        { representation: CHANGE_REQUEST_REPRESENTATION, variables: { spaceId, changeRequestId }, row: [ChangeRequest, changeRequestId] },
        (ctx) => updateChangeRequest(ctx, spaceId, changeRequestId, input),
      ),
    mergeChangeRequest: (_, { spaceId, changeRequestId }, ctx) => mergeChangeRequest(ctx, spaceId, changeRequestId),
    updateChangeRequestFromMain: (_, { spaceId, changeRequestId, conflicts }, ctx) =>
      updateChangeRequestFromMain(ctx, spaceId, changeRequestId, conflicts ?? 'refuse'),
  },
  Space: {
    changeRequestList: async (s, { status, ...args }, ctx) => {
      await ctx.policy.requireOnHeld('SPACE', s.id, 'read', 'reading its change requests');
      return ctx.lists.changeRequestsOfSpace(status ?? 'open').load({ parent: s, args });
    },
  },
  ChangeRequest: {
    object: () => 'change-request',
    etag: (c, _, ctx) => etagOf(ctx, CHANGE_REQUEST_REPRESENTATION, { spaceId: c.space, changeRequestId: c.id }),
    spaceId: (c) => c.space,
    createdBy: (c, _, ctx) => found(ctx.loaders.user.get(c.createdBy), 'User'),
    outdated: (c, _, ctx) => whenLoaded(ctx.loaders.space.get(c.space), (space) => isOutdated(c, space!)),
    urls: (c, _, ctx) => ({
      location: `${ctx.config.publicUrl}/v1/spaces/${c.space}/change-requests/${c.id}`,
      app: `${ctx.config.appUrl}/o/${c.organization}/s/${c.space}/~/changes/${c.number}`,
    }),
    space: (c, _, ctx) => found(ctx.loaders.space.get(c.space), 'Space'),
    contributors: async (c, _, ctx) => (await Promise.all(c.contributors.map((id) => ctx.loaders.user.load(id)))).filter((u) => u !== null),
    content: async (c, args, ctx) => {
      const [space, revision] = await Promise.all([ctx.loaders.space.load(c.space), ctx.loaders.revision.load(c.revision)]);
      return { space: space!, revision: revision!, changeRequest: c, options: readOptions(args) };
    },
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    ChangeRequest: ChangeRequestRow;
    ChangeRequestContributor: ChangeRequestContributor;
  }
}
