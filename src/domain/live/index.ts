/** The public face of the live area: what other areas and the wiring may use of it. */
export { LiveFeed, MAX_PENDING_EVENTS } from './feed.js';
export { OVER_WEBSOCKET } from './resolvers.js';
export { serveSubscriptions, subscriptionsOverWebSocket, MAX_SUBSCRIPTIONS_PER_CONNECTION } from './websocket.js';
