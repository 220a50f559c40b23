import type { Context } from '../../kernel/context.js';
import { whenLoaded } from '../../kernel/loader.js';
import { createInOrganization, listInOrganization, succeeded, updateById, type Id } from '../../kernel/resolvers.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import type { SpaceRow } from './entities.js';
import type { OrganizationRow } from '../organizations/index.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { createSpace, deleteSpace, duplicateSpace, listOrganizationSpaces, moveSpace, restoreSpace, transferSpace, updateSpace } from './service.js';

export const spaceResolvers: Resolvers = {
  Query: {
    space: (_: unknown, { id }: Id, ctx: Context) => ctx.loaders.space.get(id),
    spaces: listInOrganization(listOrganizationSpaces),
  },
  Mutation: {
    createSpace: createInOrganization(createSpace),
    updateSpace: updateById(updateSpace),
    deleteSpace: (_: unknown, { id }: Id, ctx: Context) => succeeded(deleteSpace(ctx, id)),
    restoreSpace: (_: unknown, { id }: Id, ctx: Context) => restoreSpace(ctx, id),
    duplicateSpace: (_: unknown, { id }: Id, ctx: Context) => duplicateSpace(ctx, id),
    moveSpace: (_: unknown, { id, input }: Id & { input: Parameters<typeof moveSpace>[2] }, ctx: Context) => moveSpace(ctx, id, input),
    transferSpace: (_: unknown, { id, input }: Id & { input: Parameters<typeof transferSpace>[2] }, ctx: Context) => transferSpace(ctx, id, input),
  },
  Organization: {
    spaces: (o: OrganizationRow, args: PageArgs, ctx: Context) => listOrganizationSpaces(ctx, o.id, args),
  },
  Space: {
    object: () => 'space',
    emoji: (s: SpaceRow) => s.emoji ?? '',
    urls: (s: SpaceRow, _: unknown, ctx: Context) => {
      const published = `${ctx.config.publicUrl}/s/${s.id}`;
      return {
        location: `${ctx.config.publicUrl}/v1/spaces/${s.id}`,
        app: `${ctx.config.appUrl}/o/${s.organization}/s/${s.id}`,
        published: s.visibility === 'private' ? null : published,
        public: s.visibility === 'public' ? published : null,
        icon: null,
      };
    },
    changeRequests: (s: SpaceRow, _: unknown, ctx: Context) => whenLoaded(ctx.loaders.changeRequestCounts.get(s.id), (c) => c.total),
    changeRequestsOpen: (s: SpaceRow, _: unknown, ctx: Context) => whenLoaded(ctx.loaders.changeRequestCounts.get(s.id), (c) => c.open),
    changeRequestsDraft: (s: SpaceRow, _: unknown, ctx: Context) => whenLoaded(ctx.loaders.changeRequestCounts.get(s.id), (c) => c.draft),
    permissions: (s: SpaceRow, _: unknown, ctx: Context) => ctx.policy.spacePermissions(s),
    owningOrganization: (s: SpaceRow, _: unknown, ctx: Context) => ctx.loaders.organization.get(s.organization),
    /** The parent, when the viewer can see it (a visible space must not reveal a hidden collection). */
    parentCollection: (s: SpaceRow, _: unknown, ctx: Context) => ctx.policy.visibleCollection(s.parent),
    viewerRole: (s: SpaceRow, _: unknown, ctx: Context) => ctx.policy.spaceRole(s),
  },
};
