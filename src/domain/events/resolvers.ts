import type { Resolvers } from '../../kernel/resolver-types.js';
import type { DomainEventRow } from '../../events/entities.js';

export const eventResolvers: Resolvers = {
  Event: {
    actor: (event, _, ctx) => (event.actorUserId ? ctx.loaders.user.get(event.actorUserId) : null),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    Event: DomainEventRow;
  }
}
