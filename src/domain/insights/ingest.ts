import type { Context } from '../../graphql/context.js';
import { badRequest, DomainError } from '../../graphql/errors.js';
import type { SiteRow } from '../sites/entities.js';
import { eventRow, validateEvent, type ValidEvent } from './events.js';
import { storeEvents } from './storage.js';

/** How far ahead of the server's clock an event may be (clocks of visitors' devices drift). */
const MAX_AHEAD_MS = 5 * 60_000;
/** How old an event may be: two years, twice the longest preset range, bounding the partitions made. */
const MAX_AGE_MS = 2 * 366 * 24 * 3_600_000;

/** The ids a site's events may name in their location: its own sections, site spaces, share links and spaces. */
async function locationIdsOf(ctx: Context, site: SiteRow) {
  const [sections, siteSpaces, shareLinks] = await Promise.all([
    ctx.loaders.sectionsBySite.load(site.id),
    ctx.loaders.siteSpacesBySite.load(site.id),
    ctx.loaders.shareLinksBySite.load(site.id),
  ]);
  return {
    siteSection: new Set(sections.map((s) => s.id)),
    siteSpace: new Set(siteSpaces.map((s) => s.id)),
    siteShareKey: new Set(shareLinks.map((l) => l.id)),
    space: new Set(siteSpaces.map((s) => s.space)),
  };
}

function checkLocation(event: ValidEvent, index: number, ids: Awaited<ReturnType<typeof locationIdsOf>>) {
  for (const field of ['siteSection', 'siteSpace', 'siteShareKey', 'space'] as const) {
    const value = event.location[field];
    if (value !== null && !ids[field].has(value)) throw badRequest(`events[${index}].location.${field}: not a ${field} of this site`);
  }
}

function checkTime(event: ValidEvent, index: number, now: Date) {
  if (!event.timestamp) return;
  const time = Date.parse(event.timestamp);
  if (time > now.getTime() + MAX_AHEAD_MS) throw badRequest(`events[${index}].timestamp: must not be in the future`);
  if (time < now.getTime() - MAX_AGE_MS) throw badRequest(`events[${index}].timestamp: must be within the last two years`);
}

/**
 * Validates a batch of events and stores it whole, or rejects it whole (400 naming the first bad
 * event's index and field; 413 above the configured batch size). Resolves once the batch is committed.
 */
export async function trackSiteEvents(ctx: Context, siteId: string, events: unknown[]): Promise<void> {
  const max = ctx.config.insightsMaxBatch;
  if (events.length > max) throw new DomainError('PAYLOAD_TOO_LARGE', `events: at most ${max} events per request (got ${events.length})`);
  const site = (await ctx.loaders.site.load(siteId))!;
  // Everything is read before the transaction: the embedded database has one connection.
  const ids = await locationIdsOf(ctx, site);
  const now = ctx.clock.now();
  const rows = events.map((input, index) => {
    const event = validateEvent(input, index);
    checkLocation(event, index, ids);
    checkTime(event, index, now);
    return eventRow(event, site, now);
  });
  await storeEvents(ctx.em, rows);
}
