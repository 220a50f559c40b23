import type { GraphQLResolveInfo } from 'graphql';
import type { DomainEventRow } from '../../events/entities.js';
import { isEventType } from '../../events/types.js';
import type { Context } from '../../kernel/context.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { changeRequestIn } from '../change-requests/index.js';
import { badRequest, notFound } from '../../kernel/errors.js';
import type { EventStream, Interest } from './feed.js';

/** Where subscriptions run (the answer to one sent elsewhere). */
export const OVER_WEBSOCKET = 'Subscriptions run over WebSocket at /graphql (protocol graphql-transport-ws, e.g. the graphql-ws client)';

/** The event type names that begin with one of `prefixes` (`comment.`), present or added later to the catalogue. */
const ofKinds =
  (...prefixes: string[]) =>
  (type: string) =>
    prefixes.some((prefix) => type.startsWith(prefix));

/** Whether the event's target names `id` under `name` (`spaceId`), when `id` is given. */
const targets = (event: DomainEventRow, name: string, id: string | null | undefined) => !id || event.target[name] === id;

/**
 * The filter of `organizationEvents`: catalogue names, or `<resource>.*` for all of a resource's (a
 * name the catalogue does not list is refused: 400); everything when not given.
 */
function typeFilter(types: readonly string[] | null | undefined): (type: string) => boolean {
  if (!types) return () => true;
  if (!types.length) throw badRequest('types: give at least one event type, or leave it out for every type');
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const type of types) {
    if (type.endsWith('.*') && /^[a-z_]+\.\*$/.test(type)) prefixes.push(type.slice(0, -1));
    else if (isEventType(type)) exact.add(type);
    else throw badRequest(`types: "${type.slice(0, 80)}" is not an event type (see the catalogue; <resource>.* takes all of a resource's)`);
  }
  return (type) => exact.has(type) || prefixes.some((prefix) => type.startsWith(prefix));
}

/**
 * The events of `interest` for this subscription, each delivered only after the viewer is read again
 * and the field's guard passes in that fresh context (which the event's fields then resolve in). A
 * refusal ends the subscription with its error (401 token revoked, 404 no longer a member, 403 role
 * lowered): events are not dropped silently. An iterator of its own rather than a generator, so that a
 * client's `complete` ends a stream waiting for its next event at once.
 */
function liveEvents(ctx: Context, info: GraphQLResolveInfo, args: Record<string, unknown>, interest: Interest): AsyncIterableIterator<DomainEventRow> {
  const live = ctx.live;
  if (!live) throw badRequest(OVER_WEBSOCKET);
  const stream: EventStream = live.feed.open(interest);
  return {
    async next() {
      const result = await stream.next();
      if (result.done) return result;
      try {
        Object.assign(ctx, await live.recheck(info, args));
      } catch (error) {
        stream.end();
        throw error;
      }
      return result;
    },
    return: () => stream.return(),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

type Subscribe<Args> = (source: unknown, args: Args, ctx: Context, info: GraphQLResolveInfo) => Promise<AsyncIterableIterator<DomainEventRow>>;

/** A subscription field: `subscribe` opens its stream (its guard has passed); each event is the field's value. */
const subscription = <Args extends Record<string, unknown>>(subscribe: Subscribe<Args>) => ({
  subscribe,
  resolve: (event: DomainEventRow) => event,
});

async function organizationOfSpace(ctx: Context, spaceId: string): Promise<string> {
  const space = await ctx.loaders.space.load(spaceId);
  if (!space) throw notFound('Space');
  return space.organization;
}

export const liveResolvers: Resolvers = {
  Subscription: {
    spaceComments: subscription<{ spaceId: string; changeRequestId?: string | null }>(async (_, args, ctx, info) => {
      const changeRequestId = args.changeRequestId ? (await changeRequestIn(ctx, args.spaceId, args.changeRequestId)).id : null;
      return liveEvents(ctx, info, args, {
        organizationId: await organizationOfSpace(ctx, args.spaceId),
        takesType: ofKinds('comment.', 'comment_reply.'),
        takesEvent: (event) => targets(event, 'spaceId', args.spaceId) && targets(event, 'changeRequestId', changeRequestId),
      });
    }),
    changeRequestEvents: subscription<{ spaceId: string; changeRequestId: string }>(async (_, args, ctx, info) => {
      const changeRequest = await changeRequestIn(ctx, args.spaceId, args.changeRequestId);
      return liveEvents(ctx, info, args, {
        organizationId: await organizationOfSpace(ctx, args.spaceId),
        takesType: ofKinds('change_request.'),
        takesEvent: (event) => targets(event, 'changeRequestId', changeRequest.id),
      });
    }),
    siteStructure: subscription<{ siteId: string }>(async (_, args, ctx, info) => {
      const site = await ctx.loaders.site.load(args.siteId);
      if (!site) throw notFound('Site');
      return liveEvents(ctx, info, args, {
        organizationId: site.organization,
        takesType: ofKinds('site.'),
        takesEvent: (event) => targets(event, 'siteId', site.id),
      });
    }),
    organizationEvents: subscription<{ organizationId: string; types?: string[] | null }>(async (_, args, ctx, info) =>
      liveEvents(ctx, info, args, { organizationId: args.organizationId, takesType: typeFilter(args.types), takesEvent: () => true }),
    ),
  },
};
