/**
 * Site insights aggregates (contract §4.9, §8): every column, operator, grouping, order, range and limit
 * path, checked against counts computed here from the events the test sent, through both doors on the
 * real database; and the rollups, which must answer exactly as raw rows do.
 */
import sql, { raw as rawSql } from 'sql-template-tag';
import { beforeAll, describe, expect, it } from 'vitest';
import { piecesOf, planAggregate, runAggregatePlan, sliceRanges, type AggregateRequest, type PlanOptions } from '../src/domain/insights/index.js';
import { rollUpSite } from '../src/domain/insights/index.js';
import { executeOn as execute, kyselyOf } from '../src/db/statements.js';
import { watermarkOf, watermarkQuery } from '../src/domain/insights/index.js';
import { ROLLUP_TABLES } from '../src/domain/insights/index.js';
import { createSpace } from './support/content.js';
import { expectContract, expectError } from './support/expectations.js';
import { newOrganizationWithRoles, type Caller } from './support/factories.js';
import { AGENTS, aggregate, siteEvent, track } from './support/insights.js';
import { useTestServer } from './support/server.js';
import { insertSite, insertSiteSpace } from './support/sites.js';
import { statementsDuring } from './support/sql.js';

const NOW = new Date('2026-03-10T15:20:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const server = useTestServer();
let admin: Caller;
let reader: Caller;
let site: { id: string; organization: string };
let spaceId: string;
let siteSpaceId: string;

/** What the test knows of each event it sent, to count independently of the server. */
type Sent = {
  time: number;
  type: string;
  browser: string;
  os: string;
  device: string;
  visitor: string;
  session: string;
  page: string | null;
  space: string | null;
  url: string;
  language: string | null;
  claims?: Record<string, unknown>;
};
const sent: Sent[] = [];

const BROWSERS = [
  { agent: AGENTS.chromeWindows, browser: 'chrome', os: 'windows', device: 'desktop' },
  { agent: AGENTS.safariIphone, browser: 'safari', os: 'ios', device: 'mobile' },
  { agent: AGENTS.firefoxLinux, browser: 'firefox', os: 'linux', device: 'desktop' },
  { agent: AGENTS.edgeWindows, browser: 'edge', os: 'windows', device: 'desktop' },
  { agent: AGENTS.safariIpad, browser: 'safari', os: 'ios', device: 'tablet' },
];
const PAGES = ['page-a', 'page-b', 'page-c'];

/** An event at `time`, its fields drawn from `i`, remembered in `sent`. */
function eventAt(i: number, time: number) {
  const agent = BROWSERS[i % BROWSERS.length];
  const page = i % 7 === 0 ? null : PAGES[i % 10 < 5 ? 0 : i % 10 < 8 ? 1 : 2]; // 5 : 3 : 2
  const type = i % 5 === 0 ? 'search_open' : 'page_view';
  const visitor = `v${i % 17}`;
  const session = `s${i % 29}`;
  const url = `https://docs.example.com/${page ?? 'home'}${i % 11 === 0 ? '?utm_source=newsletter' : ''}`;
  const language = i % 13 === 0 ? null : i % 2 ? 'en' : 'fr';
  const claims = i % 3 === 0 ? { plan: i % 2 ? 'pro' : 'free', org: { tier: i % 4 } } : undefined;
  sent.push({ time, type, ...agent, visitor, session, page, space: page ? spaceId : null, url, language, claims });
  return siteEvent({
    type,
    timestamp: new Date(time).toISOString(),
    session: { visitorId: visitor, sessionId: session, userAgent: agent.agent, language, ...(claims ? { visitorAuthClaims: claims } : {}) },
    location: { url, page, space: page ? spaceId : null, siteSpace: page ? siteSpaceId : null },
  });
}

/** 700 events, one every 71 minutes back from now (about 34 days, across a month boundary). */
const dataset = () => Array.from({ length: 700 }, (_, i) => eventAt(i, NOW.getTime() - i * 71 * MINUTE - 7 * MINUTE));

/** The roll-up job has run up to two days before now: rollups hold every event before WATERMARK. */
const ROLLED_UP_AT = new Date(NOW.getTime() - 2 * DAY);
const WATERMARK = Math.floor(ROLLED_UP_AT.getTime() / HOUR) * HOUR;
/** 80 events sent after that run for times before its watermark (over two days): the ingest counts them. */
const lateEvents = () => Array.from({ length: 80 }, (_, i) => eventAt(i, WATERMARK - i * 37 * MINUTE - 5 * MINUTE));

beforeAll(async () => {
  server.clock.set(NOW);
  const team = await newOrganizationWithRoles(server);
  admin = team.admin;
  reader = team.read;
  site = await insertSite(server, team.organization.id);
  spaceId = (await createSpace(admin, team.organization.id)).id;
  siteSpaceId = (await insertSiteSpace(server, site, { space: spaceId, path: 'docs', position: 'a0' })).id;
  server.clock.set(NOW);
  const events = dataset();
  for (let i = 0; i < events.length; i += 350) expect((await track(admin, site, events.slice(i, i + 350))).status).toBe(204);
  await rollUpSite(server.em(), site.id, ROLLED_UP_AT);
  const late = lateEvents();
  for (let i = 0; i < late.length; i += 40) expect((await track(admin, site, late.slice(i, i + 40))).status).toBe(204);
});

// ─── independent counting ───────────────────────────────────────────────────────────────────────────

const within = (from: number, to: number) => sent.filter((e) => e.time >= from && e.time < to);
const lastDays = (days: number) => within(NOW.getTime() - days * DAY, NOW.getTime() + 1);
const utcBucket = (time: number, unit: 'hour' | 'day') =>
  new Date(Math.floor(time / (unit === 'hour' ? HOUR : DAY)) * (unit === 'hour' ? HOUR : DAY)).toISOString();

function countBy<T>(events: Sent[], key: (e: Sent) => T) {
  const groups = new Map<string, { key: T; events: number; visitors: Set<string>; sessions: Set<string> }>();
  for (const e of events) {
    const k = JSON.stringify(key(e));
    const group = groups.get(k) ?? { key: key(e), events: 0, visitors: new Set(), sessions: new Set() };
    group.events += 1;
    group.visitors.add(e.visitor);
    group.sessions.add(`${e.visitor}|${e.session}`); // a session is its visitor's
    groups.set(k, group);
  }
  return [...groups.values()];
}

/** The columnar answer as rows: one object per row keyed by column name. */
function rowsOf(body: { columns: { column: string; values: unknown[] }[] }): Record<string, unknown>[] {
  const length = body.columns[0]?.values.length ?? 0;
  return Array.from({ length }, (_, i) => Object.fromEntries(body.columns.map((c) => [c.column, c.values[i]])));
}
const sortRows = (rows: Record<string, unknown>[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

async function query(body: AggregateRequest & Record<string, unknown>, caller: Caller = reader) {
  const res = await aggregate(caller, site, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expectContract('aggregateSiteEvents', res);
  return res.body;
}

/** Runs a request with each planning option; every answer must be the same. */
async function eachWay(request: AggregateRequest, ways: PlanOptions[]) {
  const answers = [];
  const watermark = watermarkOf(await execute(kyselyOf(server.em()), watermarkQuery(site.id)));
  for (const options of ways) {
    const plan = planAggregate(site.id, request, server.clock.now(), { watermark, ...options });
    answers.push({ source: plan.source, columns: plan.decode(await runAggregatePlan(server.em(), plan)) });
  }
  return answers;
}

// ─── tests ──────────────────────────────────────────────────────────────────────────────────────────

describe('counts over time', () => {
  it('counts page views per day over the last 30 days, days at the range edges included', async () => {
    const body = await query({
      select: [{ column: 'datetime', interval: 'day' }, { column: 'eventsCount' }],
      where: [{ column: 'eventType', values: ['page_view'] }],
      range: 'last30Days',
    });
    const expected = countBy(
      lastDays(30).filter((e) => e.type === 'page_view'),
      (e) => utcBucket(e.time, 'day'),
    )
      .map((g) => ({ datetime: g.key, eventsCount: g.events }))
      .sort((a, b) => a.datetime.localeCompare(b.datetime));
    expect(rowsOf(body)).toEqual(expected);
    expect(expected).toHaveLength(31); // a partial day at each end
  });

  it('counts per hour between edges that are not whole hours', async () => {
    const from = new Date(NOW.getTime() - 3 * DAY - 25 * MINUTE);
    const to = new Date(NOW.getTime() - 1 * DAY + 17 * MINUTE);
    const body = await query({ groupBy: [{ column: 'datetime', interval: 'hour' }], range: { from: from.toISOString(), to: to.toISOString() } });
    const expected = countBy(within(from.getTime(), to.getTime()), (e) => utcBucket(e.time, 'hour')).map((g) => ({ datetime: g.key, eventsCount: g.events }));
    expect(rowsOf(body)).toEqual(expected.sort((a, b) => a.datetime.localeCompare(b.datetime)));
  });

  it('counts per hour and per day across day edges, ranges cutting hours at both ends, as counted here', async () => {
    // Partial hours at the edges (raw rows), whole hours beside them (hourly rollup), whole days between
    // (daily rollup): every bucket must hold exactly the events sent into it.
    const from = new Date('2026-02-27T22:43:00.000Z');
    const to = new Date('2026-03-02T01:29:00.000Z');
    const range = { from: from.toISOString(), to: to.toISOString() };
    const events = within(from.getTime(), to.getTime()).filter((e) => e.type === 'page_view');
    const where = [{ column: 'eventType', values: ['page_view'] }];
    for (const interval of ['hour', 'day'] as const) {
      const body = await query({ groupBy: [{ column: 'datetime', interval }, { column: 'visitorBrowser' }], where, range });
      const expected = countBy(events, (e) => [utcBucket(e.time, interval), e.browser]).map((g) => ({
        datetime: g.key[0],
        visitorBrowser: g.key[1],
        eventsCount: g.events,
      }));
      expect(sortRows(rowsOf(body))).toEqual(sortRows(expected));
      const edges = rowsOf(body).map((row) => row.datetime as string);
      expect(edges).toContain(utcBucket(events.at(-1)!.time, interval)); // the first bucket (events are sent newest first)
      expect(edges).toContain(utcBucket(events[0].time, interval)); // and the last
    }
    const total = await query({ where, range });
    expect(total.columns).toEqual([{ column: 'eventsCount', values: [events.length] }]);
  });

  it('buckets by week and by month (UTC, weeks from Monday)', async () => {
    const week = await query({ groupBy: [{ column: 'datetime', interval: 'week' }], range: 'last3Months' });
    const monday = (time: number) => {
      const day = new Date(utcBucket(time, 'day'));
      return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY).toISOString();
    };
    expect(rowsOf(week)).toEqual(
      countBy(sent, (e) => monday(e.time))
        .map((g) => ({ datetime: g.key, eventsCount: g.events }))
        .sort((a, b) => a.datetime.localeCompare(b.datetime)),
    );
    const month = await query({ groupBy: [{ column: 'datetime', interval: 'month' }], range: 'lastYear' });
    expect(rowsOf(month)).toEqual(
      countBy(sent, (e) => `${new Date(e.time).toISOString().slice(0, 7)}-01T00:00:00.000Z`)
        .map((g) => ({ datetime: g.key, eventsCount: g.events }))
        .sort((a, b) => a.datetime.localeCompare(b.datetime)),
    );
  });

  it('counts events, visitors and sessions in every preset range', async () => {
    const spans: Record<string, number> = { last24Hours: 1, last7Days: 7, last30Days: 30, last3Months: 92, lastYear: 366 };
    for (const [range, days] of Object.entries(spans)) {
      const body = await query({ select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }], range });
      const [all] = countBy(lastDays(days), () => 'all');
      expect(rowsOf(body), range).toEqual([{ eventsCount: all.events, visitorsCount: all.visitors.size, sessionsCount: all.sessions.size }]);
    }
  });

  it('filters on the event time with comparison operators', async () => {
    const since = new Date(NOW.getTime() - 2 * DAY);
    const before = new Date(NOW.getTime() - 1 * DAY);
    const body = await query({
      where: [
        { column: 'datetime', operator: 'greaterThanOrEqual', values: [since.toISOString()] },
        { column: 'datetime', operator: 'lessThan', values: [before.toISOString()] },
      ],
      range: 'last7Days',
    });
    expect(rowsOf(body)).toEqual([{ eventsCount: within(since.getTime(), before.getTime()).length }]);
  });
});

describe('grouping, filters, order and limit', () => {
  it('counts visitors by browser last week', async () => {
    const body = await query({ select: [{ column: 'visitorBrowser' }, { column: 'visitorsCount' }], range: 'last7Days' });
    const expected = countBy(lastDays(7), (e) => e.browser).map((g) => ({ visitorBrowser: g.key, visitorsCount: g.visitors.size }));
    expect(sortRows(rowsOf(body))).toEqual(sortRows(expected));
  });

  it('ranks top pages of the last month by events, descending, with a limit', async () => {
    const body = await query({
      groupBy: [{ column: 'page' }],
      select: [{ column: 'page' }, { column: 'eventsCount' }],
      order: { by: { column: 'eventsCount' }, direction: 'desc' },
      range: 'last30Days',
      limit: 2,
    });
    const expected = countBy(lastDays(30), (e) => (e.space ? { page: e.page, space: e.space } : null))
      .map((g) => ({ page: g.key, eventsCount: g.events }))
      .sort((a, b) => b.eventsCount - a.eventsCount);
    expect(rowsOf(body)).toEqual(expected.slice(0, 2));
    expect(expected[1].eventsCount).toBeGreaterThan(expected[2].eventsCount); // the limit cuts between distinct counts
  });

  it('orders ascending by a dimension and by a count', async () => {
    const byOs = await query({ groupBy: [{ column: 'visitorOS' }], order: { by: { column: 'visitorOS' }, direction: 'asc' }, range: 'last30Days' });
    expect(rowsOf(byOs).map((r) => r.visitorOS)).toEqual(['ios', 'linux', 'windows']);
    const byCount = await query({ groupBy: [{ column: 'visitorDevice' }], order: { by: { column: 'eventsCount' }, direction: 'asc' }, range: 'last30Days' });
    const counts = rowsOf(byCount).map((r) => r.eventsCount as number);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(rowsOf(byCount).length).toBe(3);
  });

  it('filters with in, notIn (null included) and on counts', async () => {
    const inSome = await query({ where: [{ column: 'visitorBrowser', operator: 'in', values: ['chrome', 'edge'] }], range: 'last30Days' });
    expect(rowsOf(inSome)).toEqual([{ eventsCount: lastDays(30).filter((e) => ['chrome', 'edge'].includes(e.browser)).length }]);
    const notIn = await query({ where: [{ column: 'visitorLanguage', operator: 'notIn', values: ['en'] }], range: 'last30Days' });
    expect(rowsOf(notIn)).toEqual([{ eventsCount: lastDays(30).filter((e) => e.language !== 'en').length }]);
    const notInNull = await query({ where: [{ column: 'visitorLanguage', operator: 'notIn', values: ['en', null] }], range: 'last30Days' });
    expect(rowsOf(notInNull)).toEqual([{ eventsCount: lastDays(30).filter((e) => e.language === 'fr').length }]);
    const inNull = await query({ where: [{ column: 'page', values: [null] }], range: 'last30Days' });
    expect(rowsOf(inNull)).toEqual([{ eventsCount: lastDays(30).filter((e) => e.page === null).length }]);
    const pagePair = await query({ where: [{ column: 'page', values: [{ space: spaceId, page: 'page-a' }, 'page-b'] }], range: 'last30Days' });
    expect(rowsOf(pagePair)).toEqual([{ eventsCount: lastDays(30).filter((e) => e.page === 'page-a' || e.page === 'page-b').length }]);
    const busy = await query({
      groupBy: [{ column: 'visitorBrowser' }],
      where: [{ column: 'eventsCount', operator: 'greaterThan', values: [100] }],
      range: 'last30Days',
    });
    const expected = countBy(lastDays(30), (e) => e.browser).filter((g) => g.events > 100);
    expect(sortRows(rowsOf(busy))).toEqual(sortRows(expected.map((g) => ({ visitorBrowser: g.key, eventsCount: g.events }))));
  });

  it('groups by a visitor claim, nested claims by dots, and by claim property', async () => {
    const byPlan = await query({ groupBy: [{ column: 'visitorClaim', claim: 'plan' }], range: 'last30Days' });
    expect(byPlan.columns[0]).toMatchObject({ column: 'visitorClaim', claim: 'plan' });
    // Claim values are strings: events without the claim are left out.
    const expectedPlans = countBy(
      lastDays(30).filter((e) => e.claims),
      (e) => e.claims!.plan as string,
    ).map((g) => ({ visitorClaim: g.key, eventsCount: g.events }));
    expect(sortRows(rowsOf(byPlan))).toEqual(sortRows(expectedPlans));
    const byTier = await query({
      groupBy: [{ column: 'visitorClaim', claim: 'org.tier' }],
      where: [{ column: 'visitorClaim', claim: 'org.tier', values: ['0'] }],
      range: 'last30Days',
    });
    expect(rowsOf(byTier)).toEqual([
      { visitorClaim: '0', eventsCount: lastDays(30).filter((e) => (e.claims?.org as { tier: number } | undefined)?.tier === 0).length },
    ]);
    const properties = await query({ groupBy: [{ column: 'visitorClaimProperty' }], range: 'last30Days' });
    const withClaims = lastDays(30).filter((e) => e.claims).length;
    expect(sortRows(rowsOf(properties))).toEqual(
      sortRows([
        { visitorClaimProperty: 'org', eventsCount: withClaims },
        { visitorClaimProperty: 'plan', eventsCount: withClaims },
      ]),
    );
  });

  it('groups by utm source and device; a column without null values leaves out events without one', async () => {
    const body = await query({ groupBy: [{ column: 'utmSource' }, { column: 'visitorDevice' }], range: 'last7Days' });
    const tagged = lastDays(7).filter((e) => e.url.includes('utm_source'));
    const expected = countBy(tagged, (e) => e.device).map((g) => ({ utmSource: 'newsletter', visitorDevice: g.key, eventsCount: g.events }));
    expect(sortRows(rowsOf(body))).toEqual(sortRows(expected));
    const languages = await query({ groupBy: [{ column: 'visitorLanguage' }], range: 'last7Days' });
    expect(sortRows(rowsOf(languages))).toEqual(
      sortRows(countBy(lastDays(7), (e) => e.language).map((g) => ({ visitorLanguage: g.key, eventsCount: g.events }))),
    );
  });

  it('reads rating columns as counts per rating', async () => {
    const body = await query({ select: [{ column: 'pageFeedbackRating' }, { column: 'askResponseRating' }], range: 'last7Days' });
    expect(rowsOf(body)).toEqual([{ pageFeedbackRating: { ok: 0, good: 0, bad: 0 }, askResponseRating: { positive: 0, negative: 0 } }]);
  });

  it('answers through GraphQL with the same columns', async () => {
    const res = await reader.gql(
      `query($siteId: ID!) { aggregateSiteEvents(siteId: $siteId, select: [{column: "eventType"}, {column: "eventsCount"}], range: "last30Days", order: {by: {column: "eventType"}, direction: "asc"}) { columns { column claim values } } }`,
      { siteId: site.id },
    );
    const expected = countBy(lastDays(30), (e) => e.type).sort((a, b) => a.key.localeCompare(b.key));
    expect(res.data.aggregateSiteEvents.columns).toEqual([
      { column: 'eventType', claim: null, values: expected.map((g) => g.key) },
      { column: 'eventsCount', claim: null, values: expected.map((g) => g.events) },
    ]);
  });
});

describe('rollups', () => {
  const requests: AggregateRequest[] = [
    { groupBy: [{ column: 'datetime', interval: 'day' }], range: 'lastYear' },
    {
      groupBy: [{ column: 'datetime', interval: 'day' }, { column: 'visitorBrowser' }],
      range: { from: new Date(NOW.getTime() - 50 * HOUR - 13 * MINUTE).toISOString(), to: new Date(NOW.getTime() - 3 * MINUTE).toISOString() },
    },
    { groupBy: [{ column: 'page' }, { column: 'url' }], where: [{ column: 'eventType', values: ['page_view'] }], range: 'last30Days' },
    {
      groupBy: [{ column: 'datetime', interval: 'week' }, { column: 'visitorOS' }],
      where: [{ column: 'visitorDevice', operator: 'notIn', values: ['mobile'] }],
      range: 'last3Months',
    },
    {
      groupBy: [{ column: 'visitorLanguage' }],
      where: [{ column: 'eventsCount', operator: 'greaterThanOrEqual', values: [50] }],
      range: { from: '2026-02-03T05:30:00Z', to: '2026-03-01T00:00:00Z' },
    },
    // Hourly buckets: hourly rollups for whole hours, raw rows for the cut hours at both edges.
    {
      groupBy: [{ column: 'datetime', interval: 'hour' }, { column: 'visitorBrowser' }],
      range: { from: new Date(NOW.getTime() - 3 * DAY - 25 * MINUTE).toISOString(), to: new Date(NOW.getTime() - DAY + 17 * MINUTE).toISOString() },
    },
    {
      groupBy: [{ column: 'datetime', interval: 'hour' }, { column: 'page' }],
      where: [{ column: 'eventType', values: ['page_view'] }],
      range: { from: '2026-03-05T03:10:00Z', to: '2026-03-05T09:50:00Z' },
    },
    // Less than a day, more than an hour: no daily piece; and less than an hour: raw rows only.
    { groupBy: [{ column: 'visitorOS' }], range: { from: '2026-03-04T20:59:00Z', to: '2026-03-05T07:01:00Z' } },
    { groupBy: [{ column: 'datetime', interval: 'day' }, { column: 'url' }], range: { from: '2026-02-27T23:30:00Z', to: '2026-03-02T00:45:00Z' } },
    { groupBy: [{ column: 'datetime', interval: 'month' }, { column: 'visitorDevice' }], range: 'lastYear' },
  ];
  it.each(requests.map((request, i) => [i, request] as const))('request %i: a rollup answers exactly as raw rows', async (_, request) => {
    const [rolled, raw] = await eachWay(request, [{ rollups: true }, { rollups: false }]);
    expect(rolled.source).not.toBe('raw');
    expect(raw.source).toBe('raw');
    expect(rolled.columns).toEqual(raw.columns);
    expect(rolled.columns[0].values.length).toBeGreaterThan(0);
  });

  it('falls back to raw rows for distinct counts and columns no rollup holds', () => {
    const plan = (request: AggregateRequest) => planAggregate(site.id, request, NOW).source;
    expect(plan({ select: [{ column: 'visitorsCount' }], range: 'lastYear' })).toBe('raw');
    expect(plan({ groupBy: [{ column: 'datetime' }], range: 'lastYear' })).toBe('raw'); // an event's own time
    expect(plan({ groupBy: [{ column: 'datetime', interval: 'hour' }], range: 'lastYear' })).toBe('traffic');
    expect(plan({ groupBy: [{ column: 'referrerDomain' }], range: 'lastYear' })).toBe('raw');
    expect(plan({ groupBy: [{ column: 'page' }, { column: 'visitorBrowser' }], range: 'lastYear' })).toBe('raw');
    expect(plan({ groupBy: [{ column: 'visitorBrowser' }], range: 'lastYear' })).toBe('traffic');
    expect(plan({ groupBy: [{ column: 'page' }], range: 'lastYear' })).toBe('content');
  });
});

describe('rollup pieces, the watermark and late events', () => {
  const pieces = (from: string, to: string, hourly?: boolean, watermark?: string) =>
    piecesOf({ from: new Date(from), to: new Date(to) }, hourly, watermark ? Date.parse(watermark) : undefined).map(
      (p) => `${p.source} ${p.from.toISOString().slice(0, 16)}..${p.to.toISOString().slice(0, 16)}`,
    );

  it('reads whole days from daily rollups, whole hours from hourly ones and partial hours from raw rows', () => {
    expect(pieces('2026-02-27T22:43:00Z', '2026-03-02T01:29:00Z')).toEqual([
      'raw 2026-02-27T22:43..2026-02-27T23:00',
      'hour 2026-02-27T23:00..2026-02-28T00:00',
      'day 2026-02-28T00:00..2026-03-02T00:00',
      'hour 2026-03-02T00:00..2026-03-02T01:00',
      'raw 2026-03-02T01:00..2026-03-02T01:29',
    ]);
    expect(pieces('2026-02-27T22:43:00Z', '2026-03-02T01:29:00Z', true)).toEqual([
      'raw 2026-02-27T22:43..2026-02-27T23:00',
      'hour 2026-02-27T23:00..2026-03-02T01:00',
      'raw 2026-03-02T01:00..2026-03-02T01:29',
    ]);
    expect(pieces('2026-03-01T00:00:00Z', '2026-03-03T00:00:00Z')).toEqual(['day 2026-03-01T00:00..2026-03-03T00:00']);
    expect(pieces('2026-03-01T05:10:00Z', '2026-03-01T05:50:00Z')).toEqual(['raw 2026-03-01T05:10..2026-03-01T05:50']);
  });

  it('reads raw rows from the watermark on: rollups hold only the events before it', () => {
    expect(pieces('2026-02-27T22:43:00Z', '2026-03-02T01:29:00Z', false, '2026-03-01T07:00:00Z')).toEqual([
      'raw 2026-02-27T22:43..2026-02-27T23:00',
      'hour 2026-02-27T23:00..2026-02-28T00:00',
      'day 2026-02-28T00:00..2026-03-01T00:00',
      'hour 2026-03-01T00:00..2026-03-01T07:00',
      'raw 2026-03-01T07:00..2026-03-02T01:29',
    ]);
    expect(pieces('2026-02-27T22:43:00Z', '2026-03-02T01:29:00Z', false, '2026-02-26T00:00:00Z')).toEqual(['raw 2026-02-27T22:43..2026-03-02T01:29']);
    expect(pieces('2026-03-01T00:00:00Z', '2026-03-03T00:00:00Z', false, '2026-03-05T00:00:00Z')).toEqual(['day 2026-03-01T00:00..2026-03-03T00:00']);
  });

  it('holds late events as delta rows, which the next run merges without changing any answer', async () => {
    const db = kyselyOf(server.em());
    const rows = async (delta: boolean) => {
      let total = 0;
      for (const table of ROLLUP_TABLES)
        total += (
          await execute<{ count: number }>(db, sql`select count(*)::int as count from ${rawSql(`"${table}"`)} where site_id = ${site.id} and delta = ${delta}`)
        )[0].count;
      return total;
    };
    const dayKeys = async () =>
      (
        await execute<{ keys: number; stored: number }>(
          db,
          sql`select count(distinct (time, type, browser, device, os, bot, country, language))::int as keys, count(*)::int as stored from insight_rollup_traffic_day where site_id = ${site.id}`,
        )
      )[0];
    const requests: AggregateRequest[] = [
      { groupBy: [{ column: 'datetime', interval: 'day' }, { column: 'visitorBrowser' }], range: 'last30Days' },
      { groupBy: [{ column: 'datetime', interval: 'hour' }, { column: 'page' }], range: { from: '2026-03-06T03:10:00Z', to: '2026-03-09T09:50:00Z' } },
      { groupBy: [{ column: 'page' }], range: 'lastYear' },
    ];
    const before = await Promise.all(requests.map((request) => query(request)));
    // Late events of days rolled up already added delta rows beside those days' rows.
    expect(await rows(true)).toBeGreaterThan(0);
    const { keys, stored } = await dayKeys();
    expect(stored).toBeGreaterThan(keys);
    try {
      server.clock.set(new Date(NOW.getTime() + 2 * DAY)); // every bucket of the data has ended
      expect(await server.runDueJobs()).toBeGreaterThanOrEqual(1);
    } finally {
      server.clock.set(NOW);
    }
    expect(await rows(true)).toBe(0);
    const after = await dayKeys();
    expect(after.stored).toBe(after.keys);
    expect(watermarkOf(await execute(db, watermarkQuery(site.id)))).toBe(Math.floor((NOW.getTime() + 2 * DAY) / HOUR) * HOUR);
    for (const [i, request] of requests.entries()) expect(await query(request)).toEqual(before[i]);
    const [rolled, raw] = await eachWay(requests[1], [{ rollups: true }, { rollups: false }]);
    expect(rolled.columns).toEqual(raw.columns);
  });
});

describe('time slices (how the embedded database reads raw rows without stalling other requests)', () => {
  const requests: AggregateRequest[] = [
    { select: [{ column: 'visitorBrowser' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }, { column: 'eventsCount' }], range: 'last30Days' },
    { groupBy: [{ column: 'datetime', interval: 'day' }], select: [{ column: 'visitorsCount' }], range: 'lastYear' },
    {
      select: [{ column: 'page' }, { column: 'visitorClaim', claim: 'plan' }, { column: 'visitorsCount' }],
      where: [
        { column: 'visitorsCount', operator: 'greaterThan', values: [3] },
        { column: 'visitorBrowser', operator: 'notIn', values: ['edge'] },
      ],
      order: { by: { column: 'visitorsCount' }, direction: 'desc' },
      limit: 4,
      range: 'last3Months',
    },
    { select: [{ column: 'pageFeedbackRating' }, { column: 'visitorLanguage' }, { column: 'sessionsCount' }], range: 'last30Days' },
    { select: [{ column: 'datetime', interval: 'week' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }], range: 'last3Months' },
    {
      select: [{ column: 'datetime', interval: 'month' }, { column: 'visitorsCount' }],
      where: [{ column: 'visitorsCount', operator: 'greaterThan', values: [5] }],
      range: 'lastYear',
    },
    {
      select: [{ column: 'datetime', interval: 'hour' }, { column: 'sessionsCount' }],
      order: { by: { column: 'sessionsCount' }, direction: 'desc' },
      limit: 10,
      range: { from: '2026-02-03T05:30:00Z', to: '2026-03-09T13:00:00Z' },
    },
    { groupBy: [{ column: 'visitorClaimProperty' }, { column: 'visitorLanguage' }], range: { from: '2026-02-01T10:00:00Z', to: '2026-03-10T00:00:00Z' } },
  ];
  it.each(requests.map((request, i) => [i, request] as const))('request %i: slices answer exactly as one statement', async (_, request) => {
    const [whole, sliced] = await eachWay(request, [
      { rollups: false, sliced: false },
      { rollups: false, sliced: true },
    ]);
    expect(whole.source).toBe('raw');
    expect(sliced.source).toBe('sliced');
    expect(sliced.columns).toEqual(whole.columns);
    expect(whole.columns[0].values.length).toBeGreaterThan(0);
  });

  it("cuts slices on the edges of the answer's time buckets", () => {
    const range = { from: new Date('2026-01-14T10:00:00Z'), to: new Date('2026-03-10T15:20:00Z') };
    const edges = (interval?: 'day' | 'week' | 'month') => sliceRanges(range, interval).map((r) => r.to.toISOString().slice(0, 13));
    expect(edges('day').slice(0, 2)).toEqual(['2026-01-15T00', '2026-01-16T00']);
    expect(edges('day')).toHaveLength(56);
    expect(edges('week').slice(0, 2)).toEqual(['2026-01-19T00', '2026-01-26T00']); // Mondays
    expect(edges('month')).toEqual(['2026-02-01T00', '2026-03-01T00', '2026-03-10T15']);
    expect(edges()[0]).toBe('2026-01-21T10');
  });

  it('reads a range of one slice or less in one statement', () => {
    expect(planAggregate(site.id, { select: [{ column: 'visitorsCount' }], range: 'last7Days' }, NOW, { sliced: true }).source).toBe('raw');
  });
});

describe('bad requests', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['no range', {}, 'range: is required'],
    ['an unknown preset', { range: 'lastDecade' }, 'range: must be one of: lastYear, last3Months, last30Days, last7Days, last24Hours, or {from, to}'],
    ['a reversed custom range', { range: { from: '2026-03-02T00:00:00Z', to: '2026-03-01T00:00:00Z' } }, 'range.to: must be after range.from'],
    ['a custom range without to', { range: { from: '2026-03-02T00:00:00Z' } }, 'range.to: is required'],
    ['a bad date', { range: { from: 'yesterday', to: '2026-03-01T00:00:00Z' } }, 'range.from: must be an ISO 8601 date-time'],
    ['an unknown column', { range: 'last7Days', select: [{ column: 'password' }] }, 'select[0].column: unknown column "password"'],
    [
      'an unknown groupBy column',
      { range: 'last7Days', groupBy: [{ column: 'url' }, { column: 'e.site_id' }] },
      'groupBy[1].column: unknown column "e.site_id"',
    ],
    [
      'an unknown operator',
      { range: 'last7Days', where: [{ column: 'url', operator: 'like', values: ['%'] }] },
      'where[0].operator: unknown operator "like" (one of: in, notIn, greaterThan, greaterThanOrEqual, lessThan, lessThanOrEqual)',
    ],
    ['an unknown where column', { range: 'last7Days', where: [{ column: 'ip', values: ['1.2.3.4'] }] }, 'where[0].column: unknown column "ip"'],
    [
      'a bad interval',
      { range: 'last7Days', select: [{ column: 'datetime', interval: 'minute' }] },
      'select[0].interval: must be one of: hour, day, week, month',
    ],
    [
      'an interval on another column',
      { range: 'last7Days', select: [{ column: 'url', interval: 'day' }] },
      'select[0].interval: only the datetime column takes an interval',
    ],
    [
      'a claim column without claim',
      { range: 'last7Days', groupBy: [{ column: 'visitorClaim' }] },
      'groupBy[0].claim: is required, a claim name (dots reach nested claims)',
    ],
    ['grouping by a count', { range: 'last7Days', groupBy: [{ column: 'eventsCount' }] }, 'groupBy[0].column: "eventsCount" is a count and cannot group'],
    ['a duplicate column', { range: 'last7Days', select: [{ column: 'url' }, { column: 'url' }] }, 'select[1].column: "url" is listed twice'],
    [
      'ordering by a column not in the answer',
      { range: 'last7Days', groupBy: [{ column: 'url' }], order: { by: { column: 'page' }, direction: 'asc' } },
      'order.by.column: "page" must be one of the selected or grouped columns',
    ],
    [
      'a bad direction',
      { range: 'last7Days', groupBy: [{ column: 'url' }], order: { by: { column: 'url' }, direction: 'up' } },
      'order.direction: must be one of: asc, desc',
    ],
    ['limit 0', { range: 'last7Days', limit: 0 }, 'limit: must be an integer from 1 to 1000'],
    ['limit 1001', { range: 'last7Days', limit: 1001 }, 'limit: must be an integer from 1 to 1000'],
    [
      'a comparison with two values',
      { range: 'last7Days', where: [{ column: 'datetime', operator: 'greaterThan', values: ['2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z'] }] },
      'where[0].values: greaterThan takes exactly one non-null value',
    ],
    ['a number for a text column', { range: 'last7Days', where: [{ column: 'url', values: [3] }] }, 'where[0].values[0]: must be a string or null'],
    [
      'text for a count',
      { range: 'last7Days', where: [{ column: 'eventsCount', operator: 'greaterThan', values: ['3'] }] },
      'where[0].values[0]: must be a number',
    ],
    [
      'filtering on rating counts',
      { range: 'last7Days', where: [{ column: 'pageFeedbackRating', values: [] }] },
      'where[0].column: "pageFeedbackRating" cannot be filtered',
    ],
    ['an unknown body field', { range: 'last7Days', having: [] }, 'having: unknown field'],
  ];
  it.each(cases)('rejects %s with 400 naming the field', async (_, body, message) => {
    expectError(await aggregate(reader, site, body), 400, message);
  });

  it('binds values as parameters: an injection attempt only matches nothing', async () => {
    const attack = `x' or '1'='1`;
    let body!: Awaited<ReturnType<typeof query>>;
    const statements = await statementsDuring(async () => {
      body = await query({
        where: [
          { column: 'url', values: [attack] },
          { column: 'visitorClaim', claim: `plan'); drop table insight_event; --`, values: [attack] },
        ],
        range: 'last30Days',
      });
    });
    expect(rowsOf(body)).toEqual([{ eventsCount: 0 }]);
    expect(statements.some((sql) => sql.includes(attack) || sql.includes('drop table insight_event'))).toBe(false);
    expect(rowsOf(await query({ range: 'lastYear' }))).toEqual([{ eventsCount: sent.length }]);
  });
});
