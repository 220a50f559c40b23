import sql, { raw } from 'sql-template-tag';
import type { Context } from '../../kernel/context.js';
import { paginateRows, type Page, type PageArgs } from '../../kernel/pagination.js';
import { executeOn, kyselyOf } from '../../db/statements.js';

export type VisitorSegment = { title: string; claims: Record<string, unknown>; events: number; visitors: number; sessions: number };

/** Segments cover the last 30 days: recent audiences, and a bounded scan however old the site. */
const SEGMENT_WINDOW_MS = 30 * 24 * 3_600_000;
/** At most this many distinct claim sets are read (the largest audiences first). */
const MAX_SEGMENTS = 10_000;
const MAX_TITLE = 100;

const segmentsStatement = (
  siteId: string,
  from: string,
  to: string,
) => sql`select "claims", count(*)::double precision as "events", count(distinct "visitor_id")::double precision as "visitors",
  count(distinct ("visitor_id", "session_id"))::double precision as "sessions"
  from "insight_event" where "site_id" = ${siteId} and "time" >= ${from}::timestamptz and "time" < ${to}::timestamptz
  group by "claims" order by "visitors" desc, "events" desc limit ${raw(String(MAX_SEGMENTS))}`;

function flatten(claims: Record<string, unknown>, prefix = ''): string[] {
  return Object.keys(claims)
    .sort()
    .flatMap((key) => {
      const value = claims[key];
      return typeof value === 'object' && value !== null
        ? flatten(value as Record<string, unknown>, `${prefix}${key}.`)
        : [`${prefix}${key}: ${String(value)}`];
    });
}

/** "plan: pro, role: admin" for the claims, or "Anonymous visitors" for visitors without any. */
export function segmentTitle(claims: Record<string, unknown> | null): string {
  const parts = claims ? flatten(claims) : [];
  if (parts.length === 0) return 'Anonymous visitors';
  const title = parts.join(', ');
  return title.length > MAX_TITLE ? `${title.slice(0, MAX_TITLE - 1)}…` : title;
}

/** The site's visitors of the last 30 days grouped by their visitor-auth claims, largest audience first. */
export async function listVisitorSegments(ctx: Context, siteId: string, args: PageArgs): Promise<Page<VisitorSegment>> {
  const now = ctx.clock.now();
  const rows = await executeOn<{ claims: Record<string, unknown> | string | null; events: number; visitors: number; sessions: number }>(
    kyselyOf(ctx.em),
    segmentsStatement(siteId, new Date(now.getTime() - SEGMENT_WINDOW_MS).toISOString(), new Date(now.getTime() + 1).toISOString()),
  );
  const segments = rows.map((row) => {
    const claims = typeof row.claims === 'string' ? (JSON.parse(row.claims) as Record<string, unknown>) : row.claims;
    return { title: segmentTitle(claims), claims: claims ?? {}, events: Number(row.events), visitors: Number(row.visitors), sessions: Number(row.sessions) };
  });
  return paginateRows(segments, (s) => [-s.visitors, -s.events, s.title], args);
}
