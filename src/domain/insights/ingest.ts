import type { Context } from '../../kernel/context.js';
import type { SiteRow } from '../sites/index.js';
import { checkBatchSize, checkEvent, eventsOfBody, lateCountsOf, prepareBatchBody, type BatchSite } from './batch.js';
import { BatchEncoder, type EncodedBatch } from './encode.js';
import type { ValidEvent } from './events.js';
import { locationIdsOf } from './location-ids.js';
import { scheduleRollUp } from './rollup.js';

/** What a site's events are checked against: its own sections, site spaces, share links and spaces. */
async function batchSiteOf(ctx: Context, site: SiteRow): Promise<BatchSite> {
  const ids = await locationIdsOf(ctx.em, site.id);
  return { id: site.id, organization: site.organization, ids, now: ctx.clock.now().getTime(), maxBatch: ctx.config.insightsMaxBatch };
}

/** Events checked and encoded in one turn of the event loop. */
const SLICE = 100;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Checks and encodes events on this thread, a slice at a time; keeps them for counting late ones. */
async function encodeHere(events: unknown[], site: BatchSite): Promise<{ batch: EncodedBatch; valid: ValidEvent[]; times: Float64Array }> {
  checkBatchSize(events, site);
  const batch = new BatchEncoder(site);
  const valid: ValidEvent[] = new Array(events.length);
  const times = new Float64Array(events.length);
  for (let index = 0; index < events.length; index++) {
    // Other requests' statements are answered between slices of this work: a batch's thousand events
    // would otherwise hold the thread for milliseconds while their transactions wait on it.
    if (index > 0 && index % SLICE === 0) await nextTurn();
    const { event, time } = checkEvent(events[index], index, site);
    valid[index] = event;
    times[index] = time;
    batch.add(event, time);
  }
  return { batch: batch.finish(), valid, times };
}

/** Stores an encoded batch, counting its late events (read again when they were not kept), and schedules the roll-up. */
async function store(
  ctx: Context,
  site: BatchSite,
  batch: EncodedBatch<string | Uint8Array>,
  late: () => Promise<{ valid: ValidEvent[]; times: ArrayLike<number> }>,
) {
  const now = new Date(site.now);
  await ctx.ingest.groupCommit().commit({
    siteId: site.id,
    batch,
    lateCounts: async (watermark) => {
      const { valid, times } = await late();
      return lateCountsOf(site, valid, times, watermark);
    },
    afterwards: (writer) => scheduleRollUp(writer, ctx.ingest.scheduledRollUps, site.id, now),
  });
  ctx.ingest.stored(batch.rows);
}

/**
 * Validates a batch of events and stores it whole, or rejects it whole (400 naming the first bad
 * event's index and field; 413 above the configured batch size). Resolves once the batch is committed.
 * Rollups hold these events once the roll-up job has passed their hour; late events count at once.
 */
export async function trackSiteEvents(ctx: Context, siteId: string, events: unknown[]): Promise<void> {
  const site = await batchSiteOf(ctx, (await ctx.loaders.site.load(siteId))!);
  const encoded = await encodeHere(events, site);
  await store(ctx, site, encoded.batch, async () => encoded);
}

/**
 * The same for a batch that comes as a request body's bytes (`{"events": [...]}`): parsed, checked and
 * encoded on a worker thread (or here, with no workers configured).
 */
export async function trackSiteEventsBody(ctx: Context, siteId: string, body: Uint8Array): Promise<void> {
  const site = await batchSiteOf(ctx, (await ctx.loaders.site.load(siteId))!);
  const workers = ctx.config.insightsWorkers;
  const batch = workers > 0 ? await ctx.ingest.batchPool(workers).prepare(body, site) : prepareBatchBody(body, site);
  // Late events are rare (events come as they happen): their body is parsed again only then.
  await store(ctx, site, batch, async () => {
    const events = eventsOfBody(body);
    const valid = events.map((input, index) => checkEvent(input, index, site));
    return { valid: valid.map((v) => v.event), times: valid.map((v) => v.time) };
  });
}
