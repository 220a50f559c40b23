import type { Context } from '../../kernel/context.js';
import { whenLoaded } from '../../kernel/loader.js';
import type { PageArgs } from '../../kernel/pagination.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import type { ConflictChoice } from '../content/index.js';
import { readOptions } from '../content/index.js';
import type { ChangeRequestRow } from './entities.js';
import {
  changeRequestIn,
  createChangeRequest,
  isOutdated,
  listChangeRequests,
  mergeChangeRequest,
  updateChangeRequest,
  updateChangeRequestFromMain,
} from './service.js';

type InSpace = { spaceId: string; changeRequestId: string };

export const changeRequestResolvers: Resolvers = {
  Query: {
    changeRequests: (
      _: unknown,
      { spaceId, status, contributor, ...args }: PageArgs & { spaceId: string; status?: string; contributor?: string },
      ctx: Context,
    ) => listChangeRequests(ctx, spaceId, { status, contributor }, args),
    changeRequest: (_: unknown, { spaceId, changeRequestId }: InSpace, ctx: Context) => changeRequestIn(ctx, spaceId, changeRequestId),
  },
  Mutation: {
    createChangeRequest: (_: unknown, { spaceId, input }: { spaceId: string; input: unknown }, ctx: Context) => createChangeRequest(ctx, spaceId, input),
    updateChangeRequest: (_: unknown, { spaceId, changeRequestId, input }: InSpace & { input: unknown }, ctx: Context) =>
      updateChangeRequest(ctx, spaceId, changeRequestId, input),
    mergeChangeRequest: (_: unknown, { spaceId, changeRequestId }: InSpace, ctx: Context) => mergeChangeRequest(ctx, spaceId, changeRequestId),
    updateChangeRequestFromMain: (_: unknown, { spaceId, changeRequestId, conflicts }: InSpace & { conflicts?: ConflictChoice }, ctx: Context) =>
      updateChangeRequestFromMain(ctx, spaceId, changeRequestId, conflicts ?? 'refuse'),
  },
  ChangeRequest: {
    object: () => 'change-request',
    createdBy: (c: ChangeRequestRow, _: unknown, ctx: Context) => ctx.loaders.user.get(c.createdBy),
    outdated: (c: ChangeRequestRow, _: unknown, ctx: Context) => whenLoaded(ctx.loaders.space.get(c.space), (space) => isOutdated(c, space!)),
    urls: (c: ChangeRequestRow, _: unknown, ctx: Context) => ({
      location: `${ctx.config.publicUrl}/v1/spaces/${c.space}/change-requests/${c.id}`,
      app: `${ctx.config.appUrl}/o/${c.organization}/s/${c.space}/~/changes/${c.number}`,
    }),
    space: (c: ChangeRequestRow, _: unknown, ctx: Context) => ctx.loaders.space.get(c.space),
    contributors: async (c: ChangeRequestRow, _: unknown, ctx: Context) =>
      (await Promise.all(c.contributors.map((id) => ctx.loaders.user.load(id)))).filter((u) => u !== null),
    content: async (c: ChangeRequestRow, args: { metadata?: boolean; format?: string }, ctx: Context) => {
      const [space, revision] = await Promise.all([ctx.loaders.space.load(c.space), ctx.loaders.revision.load(c.revision)]);
      return { space: space!, revision: revision!, changeRequest: c, options: readOptions(args) };
    },
  },
};
