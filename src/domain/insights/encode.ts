import { bounded } from './cache.js';
import { webUrlValue, type ValidEvent } from './events.js';
import { EVENT_COLUMNS, GRAINS, ROLLUP_DIMENSIONS, ROLLUPS, rollupName, type Grain } from './tables.js';
import { visitorAgent } from './user-agent.js';

/*
 * A batch of valid events becomes text in COPY's format, once: the rows of `insight_event` and the
 * batch's counts for each rollup (per UTC hour and per UTC day). Building the text straight from the
 * events spares an object per row and a second pass over it, and the rollup keys are the rows' own
 * escaped text, so counting needs no other encoding. The same text goes to a PostgreSQL server with
 * COPY FROM STDIN and to the embedded database as a COPY blob.
 */

const HOUR = 3_600_000;
const NULL = '\\N';
const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value in COPY's text format (most values need no escape; testing first spares a copy). */
export const copyValue = (value: string): string => (SPECIAL.test(value) ? value.replace(SPECIALS, (c) => ESCAPES[c]!) : value);
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
  throw new Error('BatchEncoder writes the rollup dimensions in this order: update it with ROLLUPS');
}
/** Stands for the dimensions of the other rollup, which a row of one leaves empty. */
const NO_CONTENT = '\\N\t\\N\t\\N\t\\N\t\\N';
const NO_TRAFFIC = '\\N\t\\N\t\\N\t\\N\t\\N\t\\N';

export type EncodedBatch = {
  rows: number;
  /** `insight_event` rows as COPY text. */
  events: string;
  /** The UTC months (`YYYY-MM`) the rows fall into, for their partitions. */
  months: Set<string>;
  /** Every rollup's counts (ROLLUP_COLUMN_LIST) as COPY text. */
  rollups: string;
};

/** Per rollup, the keys (dimensions as COPY text) counted in one hour. */
type HourCounts = { hour: number; counts: Map<string, number>[] };

/** An ISO time as `toISOString` writes it (what clients send, mostly): it is stored as it stands. */
const isCanonical = (time: string) => time.length === 24 && time.charCodeAt(23) === 90 /* Z */ && time.charCodeAt(19) === 46; /* . */

/**
 * Encodes the events of one site, one at a time (the caller validates each before adding it), then
 * hands out the batch's text. Rollup counts are gathered per hour; the daily counts add up the hourly
 * ones, which are far fewer than the events. Lines and keys are joined from arrays reused from event
 * to event (one flat string each, rather than a rope of pieces to allocate and flatten).
 */
export class BatchEncoder {
  private readonly lines: string[] = [];
  private readonly site: string;
  /** A row's 44 columns in 37 slots: the five utm columns and the four of the user agent take one each. */
  private readonly row: string[] = new Array(37);
  private readonly trafficKey: string[] = new Array(5);
  private readonly contentKey: string[] = new Array(7);
  private readonly hours = new Map<number, HourCounts>();
  private last: HourCounts | undefined;

  constructor(site: { id: string; organization: string }) {
    this.site = copyValue(site.id);
    this.row[0] = this.site;
    this.row[1] = copyValue(site.organization);
    // Visitor countries are unknown (no geolocation database ships with the server).
    this.row[18] = NULL;
  }

  private countsAt(time: number): Map<string, number>[] {
    const hour = Math.floor(time / HOUR);
    if (this.last?.hour === hour) return this.last.counts;
    let entry = this.hours.get(hour);
    if (!entry) this.hours.set(hour, (entry = { hour, counts: ROLLUPS.map(() => new Map()) }));
    this.last = entry;
    return entry.counts;
  }

  /** Adds a valid event at `time` (epoch ms: the event's own time, or the server's). */
  add(event: ValidEvent, time: number): void {
    const { session, location, type } = event;
    const url = webUrlValue(location.url) as string;
    const referrer = session.referrer || null;
    const claims = session.visitorAuthClaims;
    const target = event.link?.target;
    const row = this.row;
    row[2] = event.timestamp && isCanonical(event.timestamp) ? event.timestamp : new Date(time).toISOString();
    row[3] = type;
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
    // Each rollup's key: every rollup dimension, those of the other rollup empty.
    const [traffic, content] = this.countsAt(time) as [Map<string, number>, Map<string, number>];
    const trafficKey = this.trafficKey;
    trafficKey[0] = type;
    trafficKey[1] = row[17]; // browser, device, os, bot
    trafficKey[2] = NULL; // country
    trafficKey[3] = row[13]; // language
    trafficKey[4] = NO_CONTENT;
    count(traffic, trafficKey.join('\t'));
    const contentKey = this.contentKey;
    contentKey[0] = type;
    contentKey[1] = NO_TRAFFIC;
    contentKey[2] = row[6]; // url
    contentKey[3] = row[10]; // space
    contentKey[4] = row[12]; // page
    contentKey[5] = row[7]; // site_section
    contentKey[6] = row[8]; // site_space
    count(content, contentKey.join('\t'));
  }

  get size(): number {
    return this.lines.length;
  }

  finish(): EncodedBatch {
    const months = new Set<string>();
    const lines: string[] = [];
    const names = ROLLUPS.map((rollup) => Object.fromEntries(GRAINS.map((grain) => [grain, rollupName(rollup, grain)])) as Record<Grain, string>);
    const days = new Map<number, Map<string, number>[]>();
    for (const { hour, counts } of this.hours.values()) {
      const time = new Date(hour * HOUR).toISOString();
      months.add(time.slice(0, 7));
      const day = Math.floor(hour / 24);
      let daily = days.get(day);
      if (!daily) days.set(day, (daily = ROLLUPS.map(() => new Map())));
      counts.forEach((keys, i) => {
        const prefix = `${names[i]!.hour}\t${this.site}\t${time}\t`;
        for (const [key, events] of keys) {
          lines.push(`${prefix}${key}\t${events}`);
          count(daily[i]!, key, events);
        }
      });
    }
    for (const [day, counts] of days) {
      const time = new Date(day * 24 * HOUR).toISOString();
      counts.forEach((keys, i) => {
        const prefix = `${names[i]!.day}\t${this.site}\t${time}\t`;
        for (const [key, events] of keys) lines.push(`${prefix}${key}\t${events}`);
      });
    }
    const text = (rows: string[]) => (rows.length ? `${rows.join('\n')}\n` : '');
    return { rows: this.lines.length, events: text(this.lines), months, rollups: text(lines) };
  }
}

function count(counts: Map<string, number>, key: string, events = 1) {
  counts.set(key, (counts.get(key) ?? 0) + events);
}
