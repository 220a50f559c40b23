import type { Context } from '../../kernel/context.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import type { DomainEventRow } from '../../events/entities.js';

export const eventResolvers: Resolvers = {
  Event: {
    actor: (event: DomainEventRow, _: unknown, ctx: Context) => (event.actorUserId ? ctx.loaders.user.get(event.actorUserId) : null),
  },
};
