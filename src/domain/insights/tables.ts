/*
 * The insights tables, written by hand (partitioned tables and BRIN indexes are beyond entity
 * metadata) and reached with raw SQL only, so the migration generator neither sees nor touches them.
 *
 * The tables themselves are created by Migration20261122050000 and Migration20261122090000.
 * insight_event: one row per event, range-partitioned by month on `time` (partitions created on demand
 * at ingest), BRIN on time for scans of whole periods, B-tree on (site_id, time) for one site's range.
 * Rollups: event counts per site, UTC hour or day and a set of dimensions. A durable job computes them
 * from raw rows as hours end, a site's hours in time order (rollup.ts), and records how far it has come
 * in `insight_rollup_state` (the site's watermark): rollups hold every event before it, raw rows alone
 * the events after it. An event that arrives for a time before the watermark (a late one) has its counts
 * appended by the ingest transaction itself (a "delta" row per key: appending is several times cheaper
 * for the database than an upsert through a unique key), so a key may have several rows; every reader
 * sums them, and the job later merges them. Aggregates over those dimensions read daily rollups for
 * whole days, hourly ones for whole hours, and raw rows for the partial hours at the edges of a range
 * and for everything after the watermark.
 * The four rollup tables (traffic and content, per hour and per day) are the list partitions of one
 * table, `insight_rollup`, by its `rollup` column, with the columns of both dimension sets: a batch's
 * late counts go in with one COPY into the parent (each statement of the ingest transaction costs a
 * round trip), while readers and the roll-up job name the partition they read.
 */

/** Every stored column of an event row, in insertion order, with its SQL type. */
export const EVENT_COLUMNS = {
  site_id: 'text',
  organization_id: 'text',
  time: 'timestamptz',
  type: 'text',
  visitor_id: 'text',
  session_id: 'text',
  url: 'text',
  site_section: 'text',
  site_space: 'text',
  site_share_key: 'text',
  space: 'text',
  revision: 'text',
  page: 'text',
  language: 'text',
  referrer: 'text',
  referrer_domain: 'text',
  utm_source: 'text',
  utm_medium: 'text',
  utm_campaign: 'text',
  utm_term: 'text',
  utm_content: 'text',
  browser: 'text',
  device: 'text',
  os: 'text',
  bot: 'text',
  country: 'text',
  claims: 'jsonb',
  search_query: 'text',
  search_result_space: 'text',
  search_result_page: 'text',
  feedback_rating: 'text',
  feedback_comment: 'text',
  ask_rating: 'smallint',
  ask_response_id: 'text',
  link_target: 'jsonb',
  link_target_kind: 'text',
  link_target_domain: 'text',
  link_position: 'text',
  api_operation_path: 'text',
  api_operation_method: 'text',
  ad_domain: 'text',
  ad_zone_id: 'text',
  ad_placement: 'text',
  trademark_placement: 'text',
} as const;

export type EventColumn = keyof typeof EVENT_COLUMNS;

/** A rollup: event counts per (site, UTC hour or day, dimensions). */
export type Rollup = { name: string; dimensions: readonly EventColumn[] };

/** Who visits (for "visitors by browser" style counts) and what they read (for "top pages"). */
export const ROLLUPS: readonly Rollup[] = [
  { name: 'traffic', dimensions: ['type', 'browser', 'device', 'os', 'bot', 'country', 'language'] },
  { name: 'content', dimensions: ['type', 'url', 'space', 'page', 'site_section', 'site_space'] },
];

/** Each rollup is kept per UTC hour and per UTC day. */
export const GRAINS = ['hour', 'day'] as const;
export type Grain = (typeof GRAINS)[number];

export const rollupTable = (rollup: Rollup, grain: Grain) => `insight_rollup_${rollup.name}_${grain}`;

/** Every rollup table (the partitions of ROLLUP_PARENT). */
export const ROLLUP_TABLES = ROLLUPS.flatMap((rollup) => GRAINS.map((grain) => rollupTable(rollup, grain)));

/** The partitioned table of every rollup; `rollup` names the partition (`traffic_hour`, ...). */
export const ROLLUP_PARENT = 'insight_rollup';
/** The dimensions of every rollup, in the column order of ROLLUP_PARENT. */
export const ROLLUP_DIMENSIONS: readonly EventColumn[] = [...new Set(ROLLUPS.flatMap((rollup) => rollup.dimensions))];
export const rollupName = (rollup: Rollup, grain: Grain) => `${rollup.name}_${grain}`;

/** Per site, how far rollups hold every event (`rolled_up_to`, a UTC hour); no row: not rolled up yet. */
export const ROLLUP_STATE = 'insight_rollup_state';
