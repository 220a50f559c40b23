import { bounded } from './cache.js';
import { webUrlValue, type ValidEvent } from './events.js';
import { EVENT_COLUMNS, ROLLUP_DIMENSIONS, ROLLUPS, rollupName } from './tables.js';
import { visitorAgent } from './user-agent.js';

/*
 * A batch of valid events becomes text in COPY's format, once: the rows of `insight_event`, and for
 * late events (before the site's rollup watermark) their counts for each rollup, per UTC hour and, when
 * the day has been rolled up already, per UTC day. Building the text straight from the events spares an
 * object per row and a second pass over it, and the rollup keys are escaped as the rows' own text. The
 * same text goes to a PostgreSQL server with COPY FROM STDIN and to the embedded database as a COPY blob.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NULL = '\\N';
const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value in COPY's text format (most values need no escape; testing first spares a copy). */
export const copyValue = (value: string): string => (SPECIAL.test(value) ? value.replace(SPECIALS, (c) => ESCAPES[c]) : value);
const optional = (value: string | null | undefined): string => (value == null ? NULL : copyValue(value));

/** The host of a URL, or null (cached: referrers and link targets repeat). */
const hostOf = bounded(5000, (url: string): string | null => {
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
});

const UTM = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
const NO_UTM = UTM.map(() => NULL).join('\t');
/** The utm_* columns of a page URL (only URLs that carry utm parameters are parsed, once each). */
const utmText = bounded(5000, (url: string): string => {
  const params = new URL(url).searchParams;
  return UTM.map((key) => optional(params.get(key)?.slice(0, 256))).join('\t');
});

/** browser, device, os and bot columns of a user agent. */
const agentText = bounded(5000, (userAgent: string): string => {
  const agent = visitorAgent(userAgent);
  return `${agent.browser}\t${agent.device}\t${agent.os}\t${agent.bot ?? NULL}`;
});

/** The events table's columns, in the order each line below writes them. */
export const EVENT_COLUMN_LIST = Object.keys(EVENT_COLUMNS);
if (EVENT_COLUMN_LIST.length !== 44) throw new Error('BatchEncoder writes 44 event columns: update it with EVENT_COLUMNS');

/** The columns of the rollups' COPY (into their partitioned parent). */
export const ROLLUP_COLUMN_LIST = ['rollup', 'site_id', 'time', ...ROLLUP_DIMENSIONS, 'events'];
if (ROLLUP_DIMENSIONS.join() !== 'type,browser,device,os,bot,country,language,url,space,page,site_section,site_space') {
  throw new Error('RollupDeltas writes the rollup dimensions in this order: update it with ROLLUPS');
}
/** Stands for the dimensions of the other rollup, which a row of one leaves empty. */
const NO_CONTENT = '\\N\t\\N\t\\N\t\\N\t\\N';
const NO_TRAFFIC = '\\N\t\\N\t\\N\t\\N\t\\N\t\\N';

/** A batch ready to store; its COPY text as a string, or as bytes when a worker thread made it. */
export type EncodedBatch<Text extends string | Uint8Array = string> = {
  rows: number;
  /** `insight_event` rows as COPY text. */
  events: Text;
  /** The UTC months (`YYYY-MM`) the rows fall into, for their partitions. */
  months: Set<string>;
  /** The earliest event time (epoch ms): only a batch reaching before the watermark has late events. */
  earliest: number;
};

/** An ISO time as `toISOString` writes it (what clients send, mostly): it is stored as it stands. */
const isCanonical = (time: string) => time.length === 24 && time.charCodeAt(23) === 90 /* Z */ && time.charCodeAt(19) === 46; /* . */

const MONTH_NAMES = new Map<number, string>();
/** `YYYY-MM` of a UTC month number (months since 1970), cached: a batch spans a few. */
function monthName(month: number): string {
  let name = MONTH_NAMES.get(month);
  if (name === undefined) MONTH_NAMES.set(month, (name = new Date(Date.UTC(1970, month, 1)).toISOString().slice(0, 7)));
  return name;
}

/**
 * Encodes the events of one site, one at a time (the caller validates each before adding it), then
 * hands out the batch's text. A line is joined from an array reused from event to event (one flat
 * string, rather than a rope of pieces to allocate and flatten).
 */
export class BatchEncoder {
  private readonly lines: string[] = [];
  /** A row's 44 columns in 37 slots: the five utm columns and the four of the user agent take one each. */
  private readonly row: string[] = new Array(37);
  private readonly months = new Set<number>();
  private lastMonthStart = Infinity;
  private lastMonthEnd = -Infinity;
  private earliest = Infinity;

  constructor(site: { id: string; organization: string }) {
    this.row[0] = copyValue(site.id);
    this.row[1] = copyValue(site.organization);
    // Visitor countries are unknown (no geolocation database ships with the server).
    this.row[18] = NULL;
  }

  private noteTime(time: number): void {
    if (time < this.earliest) this.earliest = time;
    if (time >= this.lastMonthStart && time < this.lastMonthEnd) return;
    const date = new Date(time);
    const month = (date.getUTCFullYear() - 1970) * 12 + date.getUTCMonth();
    this.months.add(month);
    this.lastMonthStart = Date.UTC(1970, month, 1);
    this.lastMonthEnd = Date.UTC(1970, month + 1, 1);
  }

  /** Adds a valid event at `time` (epoch ms: the event's own time, or the server's). */
  add(event: ValidEvent, time: number): void {
    const { session, location } = event;
    const url = webUrlValue(location.url) as string;
    const referrer = session.referrer || null;
    const claims = session.visitorAuthClaims;
    const target = event.link?.target;
    const row = this.row;
    this.noteTime(time);
    row[2] = event.timestamp && isCanonical(event.timestamp) ? event.timestamp : new Date(time).toISOString();
    row[3] = event.type;
    row[4] = copyValue(session.visitorId);
    row[5] = copyValue(session.sessionId);
    row[6] = copyValue(url);
    row[7] = optional(location.siteSection);
    row[8] = optional(location.siteSpace);
    row[9] = optional(location.siteShareKey);
    row[10] = optional(location.space);
    row[11] = optional(location.revision);
    row[12] = optional(location.page);
    row[13] = optional(session.language);
    row[14] = optional(referrer);
    row[15] = referrer ? optional(hostOf(referrer)) : NULL;
    row[16] = url.includes('utm_') ? utmText(url) : NO_UTM; // utm_source … utm_content
    row[17] = agentText(session.userAgent); // browser, device, os, bot
    row[19] = claims && Object.keys(claims).length ? copyValue(JSON.stringify(claims)) : NULL;
    row[20] = optional(event.query);
    row[21] = optional(event.result?.spaceId);
    row[22] = optional(event.result?.pageId);
    row[23] = optional(event.feedback?.rating);
    row[24] = optional(event.feedback?.comment);
    row[25] = event.rating === undefined ? NULL : String(event.rating);
    row[26] = optional(event.responseId);
    row[27] = target ? copyValue(JSON.stringify(target)) : NULL;
    row[28] = optional(target?.kind as string | undefined);
    row[29] = target?.kind === 'url' ? optional(hostOf(target.url as string)) : NULL;
    row[30] = optional(event.link?.position);
    row[31] = optional(event.operation?.path);
    row[32] = optional(event.operation?.method?.toLowerCase());
    row[33] = optional(event.ad?.domain);
    row[34] = optional(event.ad?.zoneId);
    row[35] = optional(event.ad?.placement);
    row[36] = optional(event.placement);
    this.lines.push(row.join('\t'));
  }

  get size(): number {
    return this.lines.length;
  }

  finish(): EncodedBatch {
    this.lines.push('');
    return { rows: this.lines.length - 1, events: this.lines.join('\n'), months: new Set([...this.months].map(monthName)), earliest: this.earliest };
  }
}

/**
 * The counts of late events (before the site's rollup watermark, which rollups already cover), to be
 * appended to the rollups as delta rows: per UTC hour, and per UTC day for days rolled up already (a
 * day is rolled up from its hours once it has ended before the watermark; until then its hours carry
 * these counts into it).
 */
export class RollupDeltas {
  private readonly site: string;
  /** Per hour (hours since the epoch), per rollup, the keys (dimensions as COPY text) counted. */
  private readonly hours = new Map<number, Map<string, number>[]>();

  constructor(
    site: { id: string },
    private readonly watermark: number,
  ) {
    this.site = copyValue(site.id);
  }

  /** Counts a valid event at `time` if it is late; answers whether it was. */
  add(event: ValidEvent, time: number): boolean {
    if (time >= this.watermark) return false;
    const { session, location, type } = event;
    const hour = Math.floor(time / HOUR);
    let counts = this.hours.get(hour);
    if (!counts) this.hours.set(hour, (counts = ROLLUPS.map(() => new Map())));
    const traffic = `${type}\t${agentText(session.userAgent)}\t${NULL}\t${optional(session.language)}\t${NO_CONTENT}`;
    const page = `${copyValue(webUrlValue(location.url) as string)}\t${optional(location.space)}\t${optional(location.page)}\t${optional(location.siteSection)}\t${optional(location.siteSpace)}`;
    count(counts[0], traffic);
    count(counts[1], `${type}\t${NO_TRAFFIC}\t${page}`);
    return true;
  }

  /** The delta rows (ROLLUP_COLUMN_LIST) as COPY text; empty when no event was late. */
  finish(): string {
    const lines: string[] = [];
    const days = new Map<number, Map<string, number>[]>();
    for (const [hour, counts] of this.hours) {
      const time = new Date(hour * HOUR).toISOString();
      const day = Math.floor((hour * HOUR) / DAY);
      const dayRolledUp = (day + 1) * DAY <= this.watermark;
      let daily = days.get(day);
      if (dayRolledUp && !daily) days.set(day, (daily = ROLLUPS.map(() => new Map())));
      counts.forEach((keys, i) => {
        const prefix = `${rollupName(ROLLUPS[i], 'hour')}\t${this.site}\t${time}\t`;
        for (const [key, events] of keys) {
          lines.push(`${prefix}${key}\t${events}`);
          if (daily) count(daily[i], key, events);
        }
      });
    }
    for (const [day, counts] of days) {
      const time = new Date(day * DAY).toISOString();
      counts.forEach((keys, i) => {
        const prefix = `${rollupName(ROLLUPS[i], 'day')}\t${this.site}\t${time}\t`;
        for (const [key, events] of keys) lines.push(`${prefix}${key}\t${events}`);
      });
    }
    return lines.length ? `${lines.join('\n')}\n` : '';
  }
}

function count(counts: Map<string, number>, key: string, events = 1) {
  counts.set(key, (counts.get(key) ?? 0) + events);
}
