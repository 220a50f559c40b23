/*
 * The insights tables, written by hand (partitioned tables and BRIN indexes are beyond entity
 * metadata) and reached with raw SQL only, so the migration generator neither sees nor touches them.
 *
 * The tables themselves are created by Migration20261122050000.
 * insight_event: one row per event, range-partitioned by month on `time` (partitions created on demand
 * at ingest), BRIN on time for scans of whole periods, B-tree on (site_id, time) for one site's range.
 * Rollups: event counts per site, UTC day and a set of dimensions, kept up to date in the ingest
 * transaction; aggregates over those dimensions read them for whole days and raw rows only for the
 * partial days at the edges of a range. (Hourly rollups were measured: they doubled the cost of
 * ingestion, while a day of raw rows is cheap to count through the (site_id, time) index.)
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
export type EventRow = Record<EventColumn, string | number | null>;

/** A rollup: event counts per (site, UTC day, dimensions). */
export type Rollup = { name: string; dimensions: readonly EventColumn[] };

/** Who visits (for "visitors by browser" style counts) and what they read (for "top pages"). */
export const ROLLUPS: readonly Rollup[] = [
  { name: 'traffic', dimensions: ['type', 'browser', 'device', 'os', 'bot', 'country', 'language'] },
  { name: 'content', dimensions: ['type', 'url', 'space', 'page', 'site_section', 'site_space'] },
];

export const rollupTable = (rollup: Rollup) => `insight_rollup_${rollup.name}_day`;
