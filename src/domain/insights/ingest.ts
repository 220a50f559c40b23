import type { Context } from '../../graphql/context.js';
import { badRequest, DomainError } from '../../graphql/errors.js';
import type { SiteRow } from '../sites/entities.js';
import { BatchEncoder, RollupDeltas } from './encode.js';
import { scheduleRollUp } from './rollup.js';
import { validateEvent, type ValidEvent } from './events.js';
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

/** Events validated and encoded in one turn of the event loop. */
const SLICE = 100;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The event's time in epoch ms (its own, or the server's), or a 400 when out of bounds. */
function timeOf(event: ValidEvent, index: number, now: number): number {
  if (!event.timestamp) return now;
  const time = Date.parse(event.timestamp);
  if (time > now + MAX_AHEAD_MS) throw badRequest(`events[${index}].timestamp: must not be in the future`);
  if (time < now - MAX_AGE_MS) throw badRequest(`events[${index}].timestamp: must be within the last two years`);
  return time;
}

/**
 * Validates a batch of events and stores it whole, or rejects it whole (400 naming the first bad
 * event's index and field; 413 above the configured batch size). Resolves once the batch is committed.
 * Rollups hold these events once the roll-up job has passed their hour; late events count at once.
 */
export async function trackSiteEvents(ctx: Context, siteId: string, events: unknown[]): Promise<void> {
  const max = ctx.config.insightsMaxBatch;
  if (events.length > max) throw new DomainError('PAYLOAD_TOO_LARGE', `events: at most ${max} events per request (got ${events.length})`);
  const site = (await ctx.loaders.site.load(siteId))!;
  // Everything is read before the transaction: the embedded database has one connection.
  const ids = await locationIdsOf(ctx, site);
  const now = ctx.clock.now();
  const batch = new BatchEncoder(site);
  const valid: ValidEvent[] = new Array(events.length);
  const times = new Float64Array(events.length);
  for (let index = 0; index < events.length; index++) {
    // Other requests' statements are answered between slices of this work: a batch's thousand events
    // would otherwise hold the thread for milliseconds while their transactions wait on it.
    if (index > 0 && index % SLICE === 0) await nextTurn();
    const event = validateEvent(events[index], index);
    checkLocation(event, index, ids);
    times[index] = timeOf(event, index, now.getTime());
    valid[index] = event;
    batch.add(event, times[index]!);
  }
  // Counts of events before the site's rollup watermark (read under the site's rollup lock).
  const lateCounts = (watermark: number) => {
    const deltas = new RollupDeltas(site, watermark);
    for (let index = 0; index < valid.length; index++) deltas.add(valid[index]!, times[index]!);
    return deltas.finish();
  };
  await storeEvents(ctx.em, site.id, batch.finish(), lateCounts, (writer) => scheduleRollUp(writer, site.id, now));
}
