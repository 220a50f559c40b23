import { found, whenLoaded } from '../../kernel/loader.js';
import { createInOrganization, listInOrganization, succeeded } from '../../kernel/resolvers.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { Space, type SpaceRow } from './entities.js';
import { etagOf, writeIfMatch, type ConditionalResource } from '../../graphql/conditional-writes.js';
import { createSpace, deleteSpace, duplicateSpace, listOrganizationSpaces, moveSpace, restoreSpace, transferSpace, updateSpace } from './service.js';
import { readAlong } from '../../kernel/read-models.js';
import { itemsShape } from '../../db/read-shapes.js';

const SPACE_REPRESENTATION = 'getSpaceById';
/** A space as conditional writes name it (graphql/conditional-writes.ts). */
const spaceResource = (id: string): ConditionalResource => ({ representation: SPACE_REPRESENTATION, variables: { spaceId: id }, row: [Space, id] });

export const spaceResolvers: Resolvers = {
  Query: {
    space: (_, { id }, ctx) => found(ctx.loaders.space.get(id), 'Space'),
    spaces: listInOrganization(listOrganizationSpaces),
  },
  Mutation: {
    createSpace: createInOrganization(createSpace),
    updateSpace: (_, { id, input, ifMatch }, ctx) => writeIfMatch(ctx, ifMatch, spaceResource(id), (ctx) => updateSpace(ctx, id, input)),
    deleteSpace: (_, { id, ifMatch }, ctx) => writeIfMatch(ctx, ifMatch, spaceResource(id), (ctx) => succeeded(deleteSpace(ctx, id))),
    restoreSpace: (_, { id }, ctx) => restoreSpace(ctx, id),
    duplicateSpace: (_, { id }, ctx) => duplicateSpace(ctx, id),
    moveSpace: (_, { id, input }, ctx) => moveSpace(ctx, id, input),
    transferSpace: (_, { id, input }, ctx) => transferSpace(ctx, id, input),
  },
  Organization: {
    spaces: (o, args, ctx, info) => listOrganizationSpaces(ctx, o.id, args, itemsShape(ctx, info, 'Space')),
  },
  Space: {
    mergeRules: () => ({ type: 'inherit' }),
    object: () => 'space',
    etag: (s, _, ctx) => etagOf(ctx, SPACE_REPRESENTATION, { spaceId: s.id }),
    emoji: (s, _, _ctx, info) => readAlong(s, info, () => s.emoji ?? ''),
    urls: (s, _, ctx) => {
      const published = `${ctx.config.publicUrl}/s/${s.id}`;
      return {
        location: `${ctx.config.publicUrl}/v1/spaces/${s.id}`,
        app: `${ctx.config.appUrl}/o/${s.organization}/s/${s.id}`,
        published: s.visibility === 'private' ? null : published,
        public: s.visibility === 'public' ? published : null,
        icon: null,
      };
    },
    // Counted in the statement that read the space when its read model says so (change-requests/reads.ts).
    changeRequests: (s, _, ctx, info) => readAlong(s, info, () => whenLoaded(ctx.loaders.changeRequestCounts.get(s.id), (c) => c.total)),
    changeRequestsOpen: (s, _, ctx, info) => readAlong(s, info, () => whenLoaded(ctx.loaders.changeRequestCounts.get(s.id), (c) => c.open)),
    changeRequestsDraft: (s, _, ctx, info) => readAlong(s, info, () => whenLoaded(ctx.loaders.changeRequestCounts.get(s.id), (c) => c.draft)),
    permissions: (s, _, ctx) => ctx.policy.spacePermissions(s),
    owningOrganization: (s, _, ctx) => found(ctx.loaders.organization.get(s.organization), 'Organization'),
    /** The parent, when the viewer can see it (a visible space must not reveal a hidden collection). */
    parentCollection: (s, _, ctx) => ctx.policy.visibleCollection(s.parent),
    viewerRole: (s, _, ctx) => ctx.policy.spaceRole(s),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    Space: SpaceRow;
  }
}
