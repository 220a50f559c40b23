import { inputProblemAt, mayHoldUnstorable, nestsTooDeep, problemMessage, DEPTH_MESSAGE } from '../../kernel/nul.js';
import { badRequest, DomainError } from '../../kernel/errors.js';
import { BatchEncoder, RollupDeltas, type EncodedBatch } from './encode.js';
import { validateEvent, type ValidEvent } from './events.js';

/*
 * What turns a batch of events into what the ingest stores, with nothing but the batch and the site:
 * each event checked (schema, location ids, time) and encoded. The main thread runs it for batches that
 * come as values (GraphQL's `events`); worker threads run `prepareBatchBody` for batches that come as the
 * bytes of a request body (see batch-pool.ts).
 */

/** How far ahead of the server's clock an event may be (clocks of visitors' devices drift). */
const MAX_AHEAD_MS = 5 * 60_000;
/** How old an event may be: two years, twice the longest preset range, bounding the partitions made. */
const MAX_AGE_MS = 2 * 366 * 24 * 3_600_000;

/** The ids a site's events may name in their location: its own sections, site spaces, share links and spaces. */
export type LocationIds = Record<'siteSection' | 'siteSpace' | 'siteShareKey' | 'space', ReadonlySet<string>>;
/** What a batch is checked against. */
export type BatchSite = { id: string; organization: string; ids: LocationIds; now: number; maxBatch: number };

/** A checked event and its time in epoch ms (its own, or the server's). */
export function checkEvent(input: unknown, index: number, site: BatchSite): { event: ValidEvent; time: number } {
  const event = validateEvent(input, index);
  for (const field of ['siteSection', 'siteSpace', 'siteShareKey', 'space'] as const) {
    const value = event.location[field];
    if (value !== null && !site.ids[field].has(value)) throw badRequest(`events[${index}].location.${field}: not a ${field} of this site`);
  }
  if (!event.timestamp) return { event, time: site.now };
  const time = Date.parse(event.timestamp);
  if (time > site.now + MAX_AHEAD_MS) throw badRequest(`events[${index}].timestamp: must not be in the future`);
  if (time < site.now - MAX_AGE_MS) throw badRequest(`events[${index}].timestamp: must be within the last two years`);
  return { event, time };
}

/** A 413 unless the batch fits the configured size. */
export function checkBatchSize(events: unknown[], site: BatchSite): void {
  if (events.length > site.maxBatch) throw new DomainError('PAYLOAD_TOO_LARGE', `events: at most ${site.maxBatch} events per request (got ${events.length})`);
}

/** The events of a request body (`{"events": [...]}`, as the REST operation takes it), or a 400. */
export function eventsOfBody(body: Uint8Array): unknown[] {
  let parsed: unknown;
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('Malformed JSON body');
  }
  // No walk follows the parse: the depth is read from the text, and U+0000 and lone surrogates, which
  // JSON carries only as escapes, are looked for only in a text that holds such an escape.
  if (nestsTooDeep(text)) throw badRequest(`body: ${DEPTH_MESSAGE}`);
  const problem = mayHoldUnstorable(text) ? inputProblemAt(parsed) : null;
  if (problem) throw badRequest(problemMessage(problem));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badRequest('body: expected a JSON object');
  for (const name of Object.keys(parsed)) if (name !== 'events') throw badRequest(`${name}: unknown field`);
  const { events } = parsed as { events?: unknown };
  if (events === undefined || events === null) throw badRequest('events: is required');
  // As GraphQL coerces a list argument given one value (the other door's behaviour).
  return Array.isArray(events) ? events : [events];
}

/** The counts of a batch's late events (before the site's rollup watermark), as delta rows. */
export function lateCountsOf(site: { id: string }, events: readonly ValidEvent[], times: ArrayLike<number>, watermark: number): string {
  const deltas = new RollupDeltas(site, watermark);
  for (let index = 0; index < events.length; index++) deltas.add(events[index], times[index]);
  return deltas.finish();
}

/** A request body's batch checked and encoded at once (on a worker thread: no turn to yield). */
export function prepareBatchBody(body: Uint8Array, site: BatchSite): EncodedBatch {
  const events = eventsOfBody(body);
  checkBatchSize(events, site);
  const batch = new BatchEncoder(site);
  for (let index = 0; index < events.length; index++) {
    const { event, time } = checkEvent(events[index], index, site);
    batch.add(event, time);
  }
  return batch.finish();
}
