import { raw, type Sql } from 'sql-template-tag';
import type { EventColumn } from './tables.js';

/*
 * The whitelist of the reference's query columns (SiteInsightsQueryEventsColumn). Each names the SQL it
 * reads from an event row (alias `e`) and how a result value is shaped; nothing of a request ever
 * becomes SQL text except through this table.
 */

/** A value of a dimension filter is compared as this SQL type. */
export type ValueType = 'text' | 'int' | 'timestamptz';

export type Dimension = {
  kind: 'dimension';
  /** Output expressions (one, or two for `page`). */
  sql: Sql[];
  /** The stored columns read, to tell whether a rollup holds them. */
  reads: EventColumn[];
  valueType: ValueType;
  /** Builds the result value from the output expressions' values. */
  value?: (parts: unknown[]) => unknown;
  /** A filter on this column can name values (false for columns without comparable values). */
  filterable?: boolean;
  /**
   * The reference's values of this column may be null. A column whose values may not be left out the
   * events without a value (a search query groups search events only).
   */
  nullable: boolean;
};

export type Aggregate = {
  kind: 'aggregate';
  /** Over raw rows, and over rollup rows (undefined: rollups cannot answer it). */
  raw: Sql[];
  rollup?: Sql[];
  value?: (parts: unknown[]) => unknown;
  /** Comparable in `where` (a HAVING condition) and usable in `order`. */
  scalar: boolean;
};

export type ColumnDefinition = Dimension | Aggregate;

const text = (column: EventColumn, nullable = false): Dimension => ({
  kind: 'dimension',
  sql: [raw(`e."${column}"`)],
  reads: [column],
  valueType: 'text',
  filterable: true,
  nullable,
});
const count = (onRows: string, rollup?: string): Aggregate => ({
  kind: 'aggregate',
  raw: [raw(`(${onRows})::double precision`)],
  rollup: rollup ? [raw(`(${rollup})::double precision`)] : undefined,
  scalar: true,
});
const countsOf = (labels: Record<string, string>): Aggregate => ({
  kind: 'aggregate',
  raw: Object.values(labels).map((condition) => raw(`(count(*) filter (where ${condition}))::double precision`)),
  value: (parts) => Object.fromEntries(Object.keys(labels).map((label, i) => [label, Number(parts[i])])),
  scalar: false,
});

/** Every column but `datetime` and `visitorClaim`, whose SQL depends on the request. */
export const COLUMNS: Record<string, ColumnDefinition> = {
  eventsCount: count('count(*)', 'sum(e."events")'),
  visitorsCount: count('count(distinct e."visitor_id")'),
  // A session belongs to its visitor: sessions are told apart by both ids.
  sessionsCount: count('count(distinct (e."visitor_id", e."session_id"))'),
  pageFeedbackRating: countsOf({ ok: `e."feedback_rating" = 'ok'`, good: `e."feedback_rating" = 'good'`, bad: `e."feedback_rating" = 'bad'` }),
  askResponseRating: countsOf({ positive: `e."ask_rating" = 1`, negative: `e."ask_rating" = -1` }),
  url: text('url'),
  eventType: text('type'),
  siteSection: text('site_section', true),
  siteSpace: text('site_space', true),
  siteShareKey: text('site_share_key', true),
  page: {
    kind: 'dimension',
    sql: [raw(`e."space"`), raw(`e."page"`)],
    reads: ['space', 'page'],
    valueType: 'text',
    value: ([space, page]) => (space === null ? null : { page, space }),
    filterable: true,
    nullable: true,
  },
  visitorGeoCountry: text('country', true),
  // Points need a geolocation database, which the server does not ship: every event has none.
  visitorGeoPoint: { kind: 'dimension', sql: [raw('null::text')], reads: [], valueType: 'text', value: () => null, nullable: true },
  visitorDevice: text('device'),
  visitorBrowser: text('browser'),
  visitorOS: text('os'),
  visitorBot: text('bot', true),
  visitorLanguage: text('language', true),
  eventLinkTargetValue: { kind: 'dimension', sql: [raw(`e."link_target"`)], reads: ['link_target'], valueType: 'text', nullable: false },
  eventLinkTargetKind: text('link_target_kind'),
  eventLinkTargetDomain: text('link_target_domain', true),
  eventLinkPosition: text('link_position'),
  eventAPIOperationPath: text('api_operation_path', true),
  eventAPIOperationMethod: text('api_operation_method', true),
  eventSearchQuery: text('search_query'),
  eventPageFeedbackRating: text('feedback_rating'),
  eventPageFeedbackComment: text('feedback_comment'),
  eventAskResponseRating: { kind: 'dimension', sql: [raw(`e."ask_rating"`)], reads: ['ask_rating'], valueType: 'int', filterable: true, nullable: false },
  referrer: text('referrer'),
  referrerDomain: text('referrer_domain'),
  utmSource: text('utm_source'),
  utmMedium: text('utm_medium'),
  utmCampaign: text('utm_campaign'),
  utmTerm: text('utm_term'),
  utmContent: text('utm_content'),
  visitorClaimProperty: { kind: 'dimension', sql: [raw(`claim_property.key`)], reads: ['claims'], valueType: 'text', filterable: true, nullable: false },
  eventAdDomain: text('ad_domain'),
  eventAdPlacement: text('ad_placement'),
  eventTrademarkPlacement: text('trademark_placement'),
};

export const INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

export const COLUMN_NAMES = ['datetime', 'visitorClaim', ...Object.keys(COLUMNS)];
