import { schemaBeside, type Area } from '../../kernel/area.js';
import { eventResolvers } from './resolvers.js';

/**
 * Domain events as GraphQL shows them (the outbox itself is the platform's: src/events/). The audit
 * log, webhook deliveries and subscriptions answer with this type.
 */
export const eventsArea = {
  name: 'events',
  typeDefs: schemaBeside(import.meta.url),
  resolvers: eventResolvers,
} satisfies Area;
