import { schemaBeside, type Area } from '../../kernel/area.js';
import { liveResolvers } from './resolvers.js';

/**
 * Live GraphQL subscriptions to domain events (comments, change requests, sites, an organization's
 * events), served over WebSocket by websocket.ts from the process's LiveFeed.
 */
export const liveArea = {
  name: 'live',
  typeDefs: schemaBeside(import.meta.url),
  resolvers: liveResolvers,
} satisfies Area;
