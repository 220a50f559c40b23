/**
 * Site insights ingestion and visitor segments (contract §4.9, §6): the whole-batch validation, what
 * is derived and stored from each event, permissions, and the deletion of a site's insights, through
 * both doors on the real database.
 */
import sql, { raw } from 'sql-template-tag';
import { beforeEach, describe, expect, it } from 'vitest';
import { embeddedDatabaseOf } from '../src/db/embedded-databases.js';
import { sqlObservers } from '../src/db/sql-observers.js';
import { Job } from '../src/jobs/entities.js';
import { rollUpSite } from '../src/domain/insights/index.js';
import { executeOn as execute, kyselyOf } from '../src/db/statements.js';
import { rollupLock } from '../src/domain/insights/index.js';
import { createSpace } from './support/content.js';
import { expectAuthRequired, expectContract, expectError, expectGqlError } from './support/expectations.js';
import type { Caller } from './support/factories.js';
import { AGENTS, aggregate, eventsPath, segmentsPath, siteEvent, track, visitor } from './support/insights.js';
import { useTestServer } from './support/server.js';
import { insertSection, insertShareLink, insertSite, insertSiteSpace, newOrganizationWithSite, siteBase } from './support/sites.js';

const MAX_BATCH = 50;

const server = useTestServer({ INSIGHTS_MAX_BATCH: String(MAX_BATCH), INSIGHTS_BODY_LIMIT: '1mb' });
beforeEach(() => server.clock.advance(1000));

/** How many events of the site are stored, counted behind the doors. */
async function storedEvents(siteId: string): Promise<number> {
  const [row] = await execute<{ count: number }>(kyselyOf(server.em()), sql`select count(*)::int as count from insight_event where site_id = ${siteId}`);
  return row.count;
}

async function countWith(caller: Caller, site: { id: string; organization: string }, body: Record<string, unknown>) {
  const res = await aggregate(caller, site, { range: 'last24Hours', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.columns as { column: string; values: unknown[] }[];
}

describe('ingestion', () => {
  it('requires a token for every insights operation', async () => {
    const { site } = await newOrganizationWithSite(server);
    const noEvents = { events: [] };
    await expectAuthRequired(
      server,
      [
        ['POST', eventsPath(site), noEvents],
        ['POST', `${eventsPath(site)}/aggregate`, noEvents],
        ['GET', segmentsPath(site)],
      ],
      { badToken: false },
    );
  });

  it('answers 204 once the batch is committed: the events are read back at once', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const res = await track(admin, site, [siteEvent(), siteEvent({ session: { visitorId: visitor() } }), siteEvent()]);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const columns = await countWith(admin, site, { select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }] });
    expect(columns).toEqual([
      { column: 'eventsCount', values: [3] },
      { column: 'visitorsCount', values: [2] },
    ]);
  });

  it('takes events through GraphQL too', async () => {
    const { edit, site } = await newOrganizationWithSite(server);
    const res = await edit.gql(`mutation($siteId: ID!, $events: [JSON!]!) { trackSiteEvents(siteId: $siteId, events: $events) }`, {
      siteId: site.id,
      events: [siteEvent()],
    });
    expect(res.data).toEqual({ trackSiteEvents: true });
    expect(await storedEvents(site.id)).toBe(1);
  });

  it('accepts an empty batch', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    expect((await track(admin, site, [])).status).toBe(204);
  });

  it('stamps events without a timestamp with the server time', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    expect((await track(admin, site, [siteEvent()])).status).toBe(204);
    const columns = await countWith(admin, site, { select: [{ column: 'datetime' }] });
    expect(columns).toEqual([{ column: 'datetime', values: [server.clock.now().toISOString()] }]);
  });

  it('accepts every event kind of the reference and stores what its columns read', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const events = [
      siteEvent({ type: 'search_open' }),
      siteEvent({ type: 'search_type_query', query: 'install' }),
      siteEvent({ type: 'search_open_result', query: 'install', result: { spaceId: 's1', pageId: 'p1' } }),
      siteEvent({ type: 'page_post_feedback', feedback: { rating: 'good' } }),
      siteEvent({ type: 'page_post_feedback_comment', feedback: { rating: 'bad', comment: 'Unclear' } }),
      siteEvent({ type: 'ask_question', query: 'How to install?' }),
      siteEvent({ type: 'ask_rate_response', query: 'How to install?', rating: -1, responseId: 'r1' }),
      siteEvent({ type: 'link_click', link: { target: { kind: 'url', url: 'https://github.com/acme' }, position: 'header' } }),
      siteEvent({ type: 'api_client_open', operation: { path: '/pets', method: 'GET' } }),
      siteEvent({ type: 'api_client_request', operation: { path: '/pets', method: 'POST' } }),
      siteEvent({ type: 'trademark_click', placement: 'footer' }),
      siteEvent({ type: 'ad_click', ad: { domain: 'ads.example.com', zoneId: 'z1', placement: 'aside' } }),
      siteEvent({ type: 'ad_display', ad: { domain: 'ads.example.com', zoneId: 'z1', placement: 'aside' } }),
      siteEvent({ type: 'page_view' }),
    ];
    expect((await track(admin, site, events)).status).toBe(204);
    const one = async (column: string) => (await countWith(admin, site, { groupBy: [{ column }], order: { by: { column }, direction: 'asc' } }))[0].values;
    expect(await one('eventType')).toEqual([
      'ad_click',
      'ad_display',
      'api_client_open',
      'api_client_request',
      'ask_question',
      'ask_rate_response',
      'link_click',
      'page_post_feedback',
      'page_post_feedback_comment',
      'page_view',
      'search_open',
      'search_open_result',
      'search_type_query',
      'trademark_click',
    ]);
    expect(await one('eventSearchQuery')).toEqual(['How to install?', 'install']);
    expect(await one('eventPageFeedbackRating')).toEqual(['bad', 'good']);
    expect(await one('eventPageFeedbackComment')).toEqual(['Unclear']);
    expect(await one('eventAskResponseRating')).toEqual([-1]);
    expect(await one('eventLinkTargetKind')).toEqual(['url']);
    expect(await one('eventLinkTargetDomain')).toEqual([null, 'github.com']);
    expect(await one('eventLinkTargetValue')).toEqual([{ kind: 'url', url: 'https://github.com/acme' }]);
    expect(await one('eventLinkPosition')).toEqual(['header']);
    expect(await one('eventAPIOperationPath')).toEqual([null, '/pets']); // ascending puts null first
    expect(await one('eventAPIOperationMethod')).toEqual([null, 'get', 'post']);
    expect(await one('eventTrademarkPlacement')).toEqual(['footer']);
    expect(await one('eventAdDomain')).toEqual(['ads.example.com']);
    expect(await one('eventAdPlacement')).toEqual(['aside']);
    const ratings = await countWith(admin, site, { select: [{ column: 'pageFeedbackRating' }, { column: 'askResponseRating' }] });
    expect(ratings).toEqual([
      { column: 'pageFeedbackRating', values: [{ ok: 0, good: 1, bad: 1 }] },
      { column: 'askResponseRating', values: [{ positive: 0, negative: 1 }] },
    ]);
  });

  it('stores text with tabs, newlines, backslashes and quotes as sent (bulk insertion escapes them)', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const query = 'tab\there\nnew line \\N back\\slash \'quote\' "double" \r end';
    const claims = { note: 'a\tb\\c\nd' };
    expect((await track(admin, site, [siteEvent({ type: 'search_type_query', query, session: { visitorAuthClaims: claims } })])).status).toBe(204);
    expect((await countWith(admin, site, { groupBy: [{ column: 'eventSearchQuery' }] }))[0].values).toEqual([query]);
    expect((await countWith(admin, site, { groupBy: [{ column: 'visitorClaim', claim: 'note' }] }))[0].values).toEqual([claims.note]);
  });

  it('derives browser, device, OS and bot from the user agent', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const agents = [
      AGENTS.chromeWindows,
      AGENTS.safariIphone,
      AGENTS.firefoxLinux,
      AGENTS.safariIpad,
      AGENTS.edgeWindows,
      AGENTS.chromeAndroid,
      AGENTS.googlebot,
      AGENTS.claudebot,
    ];
    expect(
      (
        await track(
          admin,
          site,
          agents.map((userAgent) => siteEvent({ session: { userAgent, visitorId: userAgent } })),
        )
      ).status,
    ).toBe(204);
    const columns = await countWith(admin, site, {
      select: [{ column: 'visitorBrowser' }, { column: 'visitorDevice' }, { column: 'visitorOS' }, { column: 'visitorBot' }],
      order: { by: { column: 'visitorBrowser' }, direction: 'asc' },
    });
    const rows = columns[0].values.map((_, i) => columns.map((c) => c.values[i]));
    expect(rows).toEqual([
      ['chrome', 'desktop', 'windows', null],
      ['chrome', 'mobile', 'android', null],
      ['edge', 'desktop', 'windows', null],
      ['firefox', 'desktop', 'linux', null],
      ['safari', 'mobile', 'ios', null],
      ['safari', 'tablet', 'ios', null],
      ['unknown', 'unknown', 'unknown', 'anthropic'],
      ['unknown', 'unknown', 'unknown', 'googlebot'],
    ]);
  });

  it('derives the referrer domain and the utm parameters of the URL', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const events = [
      siteEvent({
        session: { referrer: 'https://www.google.com/search?q=docs' },
        location: { url: 'https://docs.example.com/?utm_source=ads&utm_medium=cpc&utm_campaign=spring&utm_term=docs&utm_content=banner' },
      }),
      siteEvent({ session: { referrer: '' } }),
    ];
    expect((await track(admin, site, events)).status).toBe(204);
    const columns = await countWith(admin, site, {
      select: ['referrer', 'referrerDomain', 'utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent', 'url'].map((column) => ({ column })),
    });
    expect(columns.map((c) => c.values[0])).toEqual([
      'https://www.google.com/search?q=docs',
      'www.google.com',
      'ads',
      'cpc',
      'spring',
      'docs',
      'banner',
      'https://docs.example.com/?utm_source=ads&utm_medium=cpc&utm_campaign=spring&utm_term=docs&utm_content=banner',
    ]);
    expect(columns[0].values).toHaveLength(1); // the event without referrer or utm has none of those values
  });

  it('accepts location ids of the site and stores them', async () => {
    const { admin, organization, site } = await newOrganizationWithSite(server);
    const space = await createSpace(admin, organization.id);
    const section = await insertSection(server, site, { path: 'guides', position: 'a0', space: space.id } as never);
    const siteSpace = await insertSiteSpace(server, site, { space: space.id, path: 'guides', position: 'a0', section: section.id });
    const link = await insertShareLink(server, site);
    const location = { siteSection: section.id, siteSpace: siteSpace.id, siteShareKey: link.id, space: space.id, revision: 'rev-1', page: 'page-1' };
    expect((await track(admin, site, [siteEvent({ location })])).status).toBe(204);
    const columns = await countWith(admin, site, { select: ['siteSection', 'siteSpace', 'siteShareKey', 'page'].map((column) => ({ column })) });
    expect(columns.map((c) => c.values[0])).toEqual([section.id, siteSpace.id, link.id, { space: space.id, page: 'page-1' }]);
  });
});

describe('whole-batch validation', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a missing type', { type: undefined }, 'events[1].type: is required'],
    [
      'an unknown type',
      { type: 'page_print' },
      'events[1].type: must be one of: page_view, search_open, search_type_query, search_open_result, page_post_feedback, page_post_feedback_comment, ask_question, ask_rate_response, link_click, api_client_open, api_client_request, trademark_click, ad_click, ad_display',
    ],
    ['a missing session', { session: undefined }, 'events[1].session: is required'],
    ['a missing visitorId', { session: { visitorId: undefined } }, 'events[1].session.visitorId: is required'],
    ['an empty sessionId', { session: { sessionId: '' } }, 'events[1].session.sessionId: must not be empty'],
    ['cookies that are not strings', { session: { cookies: { a: 1 } } }, 'events[1].session.cookies.a: values must be strings'],
    ['a bad ip', { session: { ip: 'localhost' } }, 'events[1].session.ip: must be an IP address'],
    ['a missing userAgent', { session: { userAgent: undefined } }, 'events[1].session.userAgent: is required'],
    ['a numeric language', { session: { language: 7 } }, 'events[1].session.language: must be a string or null'],
    ['a referrer that is no URL', { session: { referrer: 'google' } }, 'events[1].session.referrer: must be an http(s) URL, an empty string or null'],
    [
      'claims that are a list',
      { session: { visitorAuthClaims: ['a'] } },
      'events[1].session.visitorAuthClaims: must be an object of strings, numbers, booleans and objects (at most 5 deep)',
    ],
    ['an unknown session field', { session: { fingerprint: 'x' } }, 'events[1].session.fingerprint: unknown field'],
    ['a missing location', { location: undefined }, 'events[1].location: is required'],
    ['a location url that is no URL', { location: { url: 'docs/start' } }, 'events[1].location.url: must be an http(s) URL'],
    ['a javascript: url', { location: { url: 'javascript:alert(1)' } }, 'events[1].location.url: must be an http(s) URL'],
    ['a missing location id', { location: { page: undefined } }, 'events[1].location.page: is required'],
    ['a section of another site', { location: { siteSection: 'elsewhere' } }, 'events[1].location.siteSection: not a siteSection of this site'],
    ['a space the site does not publish', { location: { space: 'elsewhere' } }, 'events[1].location.space: not a space of this site'],
    ['a share link of another site', { location: { siteShareKey: 'elsewhere' } }, 'events[1].location.siteShareKey: not a siteShareKey of this site'],
    ['a bad timestamp', { timestamp: 'yesterday' }, 'events[1].timestamp: must be an ISO 8601 date-time'],
    ['a timestamp in the future', { timestamp: '2099-01-01T00:00:00Z' }, 'events[1].timestamp: must not be in the future'],
    ['a timestamp long ago', { timestamp: '2001-01-01T00:00:00Z' }, 'events[1].timestamp: must be within the last two years'],
    ['a search without query', { type: 'search_type_query' }, 'events[1].query: is required'],
    ['a bad feedback rating', { type: 'page_post_feedback', feedback: { rating: 'great' } }, 'events[1].feedback.rating: must be one of: bad, ok, good'],
    [
      'an overlong feedback comment',
      { type: 'page_post_feedback_comment', feedback: { rating: 'ok', comment: 'x'.repeat(513) } },
      'events[1].feedback.comment: must be at most 512 characters',
    ],
    ['a bad ask rating', { type: 'ask_rate_response', query: 'q', rating: 2, responseId: 'r' }, 'events[1].rating: must be 1 or -1'],
    [
      'a bad link position',
      { type: 'link_click', link: { target: { kind: 'url', url: 'https://x.dev' }, position: 'middle' } },
      'events[1].link.position: must be one of: announcement, header, footer, sidebar, content',
    ],
    ['a field of another kind', { type: 'page_view', query: 'x' }, 'events[1].query: unknown field'],
    ['an event that is no object', { replace: 'nope' }, 'events[1]: must be an object'],
  ];

  it.each(cases)('rejects %s with 400 naming the index and field, storing nothing of the batch', async (_, change, message) => {
    const { admin, site } = await newOrganizationWithSite(server);
    const { session, location, replace, ...fields } = change as Record<string, any>;
    const bad = replace ?? { ...siteEvent({ session, location }), ...fields };
    for (const [key, value] of Object.entries(change)) if (value === undefined && key !== 'session' && key !== 'location') delete bad[key];
    if ('session' in change && change.session === undefined) delete bad.session;
    if ('location' in change && change.location === undefined) delete bad.location;
    for (const part of ['session', 'location'] as const) {
      for (const [key, value] of Object.entries((change[part] as Record<string, unknown> | undefined) ?? {})) if (value === undefined) delete bad[part][key];
    }
    expectError(await track(admin, site, [siteEvent(), bad, siteEvent()]), 400, message);
    expect(await storedEvents(site.id)).toBe(0);
  });

  it('rejects a batch larger than the configured largest with 413, storing nothing', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const events = Array.from({ length: MAX_BATCH + 1 }, () => siteEvent());
    expectError(await track(admin, site, events), 413, `events: at most ${MAX_BATCH} events per request (got ${MAX_BATCH + 1})`);
    expect((await track(admin, site, events.slice(1))).status).toBe(204);
    expect(await storedEvents(site.id)).toBe(MAX_BATCH);
  });

  it('rejects a body without events and events that are no list', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    expectError(await admin.rest('POST', eventsPath(site), {}), 400, 'events: is required');
    expectError(await admin.rest('POST', eventsPath(site), { events: [null] }), 400, /^events\[0\]/);
  });

  it('answers bodies that are no JSON object, or carry other fields, with 400 like every operation, storing nothing', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    expectError(await admin.rest('POST', eventsPath(site), '{"events": ['), 400, 'Malformed JSON body');
    expectError(await admin.rest('POST', eventsPath(site), '[]'), 400, 'body: expected a JSON object');
    expectError(await admin.rest('POST', eventsPath(site), { events: [siteEvent()], extra: 1 }), 400, 'extra: unknown field');
    expectError(await admin.rest('POST', eventsPath(site), { events: null }), 400, 'events: is required');
    const tooLarge = await admin.rest('POST', eventsPath(site), { events: [siteEvent({ session: { visitorId: 'x'.repeat(1_100_000) } })] });
    expectError(tooLarge, 413, 'Request body larger than 1mb'); // INSIGHTS_BODY_LIMIT, before any parsing
    expect(await storedEvents(site.id)).toBe(0);
  });

  it('parses batches on the serving thread too when no worker threads are configured, with the same answers', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const config = server.deps.config;
    const workers = config.insightsWorkers;
    config.insightsWorkers = 0;
    try {
      expect((await track(admin, site, [siteEvent(), siteEvent({ type: 'search_open' })])).status).toBe(204);
      expectError(await track(admin, site, [siteEvent(), siteEvent({ type: 'nope' })]), 400, /^events\[1\]\.type/);
    } finally {
      config.insightsWorkers = workers;
    }
    expect(await storedEvents(site.id)).toBe(2);
  });

  it('takes a batch on the GraphQL door as events or as the JSON text of a body, exactly one of them', async () => {
    const { edit, site } = await newOrganizationWithSite(server);
    const mutation = `mutation($siteId: ID!, $events: [JSON!], $batch: InsightsEventBatch) { trackSiteEvents(siteId: $siteId, events: $events, batch: $batch) }`;
    expect((await edit.gql(mutation, { siteId: site.id, batch: JSON.stringify({ events: [siteEvent(), siteEvent()] }) })).data).toEqual({
      trackSiteEvents: true,
    });
    expect(await storedEvents(site.id)).toBe(2);
    expectGqlError(await edit.gql(mutation, { siteId: site.id, batch: JSON.stringify({ events: [siteEvent({ type: 'nope' })] }) }), 'BAD_REQUEST');
    expectGqlError(await edit.gql(mutation, { siteId: site.id, events: [siteEvent()], batch: JSON.stringify({ events: [] }) }), 'BAD_REQUEST');
    expectGqlError(await edit.gql(mutation, { siteId: site.id }), 'BAD_REQUEST');
    expect(await storedEvents(site.id)).toBe(2);
  });
});

describe('permissions', () => {
  it('lets edit and above ingest; read may aggregate and list segments but not ingest', async () => {
    const { admin, edit, read, site } = await newOrganizationWithSite(server);
    expect((await track(edit, site, [siteEvent()])).status).toBe(204);
    expect((await track(admin, site, [siteEvent()])).status).toBe(204);
    expectError(await track(read, site, [siteEvent()]), 403, /./);
    expect((await aggregate(read, site, { range: 'last7Days' })).status).toBe(200);
    expect((await read.rest('GET', segmentsPath(site))).status).toBe(200);
    const gql = await read.gql(`mutation($siteId: ID!) { trackSiteEvents(siteId: $siteId, events: []) }`, { siteId: site.id });
    expectGqlError(gql, 'FORBIDDEN');
  });

  it('hides the insights of other organizations (404) and checks the organization in the path', async () => {
    const { outsider, admin, site } = await newOrganizationWithSite(server);
    const other = await newOrganizationWithSite(server);
    expectError(await track(outsider, site, [siteEvent()]), 404, 'Site not found');
    expectError(await aggregate(outsider, site, { range: 'last7Days' }), 404, 'Site not found');
    expectError(await outsider.rest('GET', segmentsPath(site)), 404, 'Site not found');
    const wrongOrganization = { id: site.id, organization: other.organization.id };
    expectError(await track(admin, wrongOrganization, [siteEvent()]), 404, 'Site not found');
    expectError(await aggregate(admin, { id: 'no-such-site', organization: site.organization }, { range: 'last7Days' }), 404, 'Site not found');
    expect(await storedEvents(site.id)).toBe(0);
  });
});

describe('visitor segments', () => {
  it('groups the visitors of the last 30 days by their claims, largest audience first', async () => {
    const { admin, read, site } = await newOrganizationWithSite(server);
    const pro = { plan: 'pro', org: { id: 7, beta: true } };
    const events = [
      siteEvent({ session: { visitorId: 'a', sessionId: 'a1', visitorAuthClaims: pro } }),
      siteEvent({ session: { visitorId: 'a', sessionId: 'a2', visitorAuthClaims: { org: { beta: true, id: 7 }, plan: 'pro' } } }),
      siteEvent({ session: { visitorId: 'b', sessionId: 'b1', visitorAuthClaims: pro } }),
      siteEvent({ session: { visitorId: 'c', sessionId: 'c1', visitorAuthClaims: { plan: 'free' } } }),
      siteEvent({ session: { visitorId: 'd', sessionId: 'd1' } }),
      siteEvent({
        session: { visitorId: 'e', sessionId: 'e1', visitorAuthClaims: { plan: 'pro' } },
        timestamp: new Date(server.clock.now().getTime() - 31 * 24 * 3_600_000).toISOString(),
      }),
    ];
    expect((await track(admin, site, events)).status).toBe(204);
    const res = await read.rest('GET', segmentsPath(site));
    expectContract('listSiteVisitorSegments', res);
    expect(res.body).toEqual({
      items: [
        { title: 'org.beta: true, org.id: 7, plan: pro', claims: pro, events: 3, visitors: 2, sessions: 3 },
        { title: 'Anonymous visitors', claims: {}, events: 1, visitors: 1, sessions: 1 },
        { title: 'plan: free', claims: { plan: 'free' }, events: 1, visitors: 1, sessions: 1 },
      ],
      count: 3,
    });
    const firstPage = await read.rest('GET', `${segmentsPath(site)}?limit=2`);
    expect(firstPage.body.items).toHaveLength(2);
    const secondPage = await read.rest('GET', `${segmentsPath(site)}?limit=2&page=${firstPage.body.next.page}`);
    expect(secondPage.body.items.map((s: { title: string }) => s.title)).toEqual(['plan: free']);
  });
});

describe('the roll-up job', () => {
  it('rolls up each ended hour and day after it, counts late events at ingest, and merges them later', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const db = kyselyOf(server.em());
    const rows = async (table: string) =>
      (
        await execute<{ delta: boolean; count: number }>(
          db,
          sql`select delta, count(*)::int as count from ${raw(table)} where site_id = ${site.id} group by delta order by delta`,
        )
      ).map((r) => `${r.delta ? 'delta' : 'merged'} ${r.count}`);
    const jobs = () => server.em().count(Job, { kind: 'roll-up-site-insights', payload: { siteId: site.id } });
    const day = { from: '2026-01-20T00:00:00Z', to: '2026-01-21T00:00:00Z' };
    server.clock.set(new Date('2026-01-20T10:20:00.000Z'));
    for (let i = 0; i < 3; i++) expect((await track(admin, site, [siteEvent(), siteEvent({ type: 'search_open' })])).status).toBe(204);
    expect(await rows('insight_rollup_traffic_hour')).toEqual([]); // raw rows answer until the hour has ended
    expect(await jobs()).toBe(1); // one job for the three batches
    server.clock.set(new Date('2026-01-20T11:01:00.000Z'));
    expect(await server.runDueJobs()).toBeGreaterThanOrEqual(1);
    expect(await rows('insight_rollup_traffic_hour')).toEqual(['merged 2']); // one row per key of the hour
    expect(await rows('insight_rollup_traffic_day')).toEqual([]); // the day has not ended
    expect(await jobs()).toBe(0);
    // A late event (before the watermark) is counted by its ingest: a delta row of its hour.
    server.clock.set(new Date('2026-01-20T11:30:00.000Z'));
    expect((await track(admin, site, [siteEvent({ timestamp: '2026-01-20T10:45:00.000Z' })])).status).toBe(204);
    expect(await rows('insight_rollup_traffic_hour')).toEqual(['merged 2', 'delta 1']);
    expect(await countWith(admin, site, { groupBy: [{ column: 'eventType' }], range: day })).toEqual([
      { column: 'eventType', values: ['page_view', 'search_open'] },
      { column: 'eventsCount', values: [4, 3] },
    ]);
    server.clock.set(new Date('2026-01-21T00:01:00.000Z'));
    await server.runDueJobs();
    expect(await rows('insight_rollup_traffic_hour')).toEqual(['merged 2']);
    expect(await rows('insight_rollup_traffic_day')).toEqual(['merged 2']); // summed from its hours
    expect(await jobs()).toBe(0);
    const [{ sum }] = await execute<{ sum: number }>(db, sql`select sum(events)::int as sum from insight_rollup_traffic_day where site_id = ${site.id}`);
    expect(sum).toBe(7);
    // Late again, for a day rolled up already: a delta row of its hour and one of its day.
    expect((await track(admin, site, [siteEvent({ type: 'search_open', timestamp: '2026-01-20T23:59:00.000Z' })])).status).toBe(204);
    expect(await rows('insight_rollup_traffic_day')).toEqual(['merged 2', 'delta 1']);
    expect(await jobs()).toBe(1);
    expect(await countWith(admin, site, { groupBy: [{ column: 'eventType' }], range: day })).toEqual([
      { column: 'eventType', values: ['page_view', 'search_open'] },
      { column: 'eventsCount', values: [4, 4] },
    ]);
  });

  it('lets an ingest and the job that moves the watermark take turns, losing no count', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    server.clock.set(new Date('2026-01-22T09:30:00.000Z'));
    const batch = (minute: number) =>
      Array.from({ length: 20 }, (_, i) => siteEvent({ timestamp: new Date(Date.parse('2026-01-22T08:00:00Z') + (minute + i) * 60_000).toISOString() }));
    // Batches of the ended hour 08:00 race with its roll-up: each lands before (raw rows, rolled up) or after (late, counted at ingest).
    const sent = await Promise.all([
      track(admin, site, batch(0)),
      rollUpSite(server.em(), site.id, server.clock.now()),
      track(admin, site, batch(20)),
      rollUpSite(server.em(), site.id, server.clock.now()),
      track(admin, site, batch(40)),
    ]);
    for (const res of [sent[0], sent[2], sent[4]] as { status: number }[]) expect(res.status).toBe(204);
    const [{ sum }] = await execute<{ sum: number }>(
      kyselyOf(server.em()),
      sql`select sum(events)::int as sum from insight_rollup_traffic_hour where site_id = ${site.id}`,
    );
    expect(sum).toBe(60);
  });
});

describe('concurrent ingests', () => {
  it('stores batches of several sites that arrive together (grouped into shared transactions), counting late events, each answered once stored', async () => {
    const first = await newOrganizationWithSite(server);
    const second = { ...first, site: await insertSite(server, first.organization.id) };
    server.clock.set(new Date('2026-02-10T12:30:00.000Z'));
    const at = (hour: number, minute: number) => new Date(Date.UTC(2026, 1, 10, hour, minute)).toISOString();
    // The first site is rolled up to 12:00: its events of 11:xx that follow are late.
    expect((await track(first.admin, first.site, [siteEvent({ timestamp: at(11, 59) })])).status).toBe(204);
    await rollUpSite(server.em(), first.site.id, server.clock.now());
    const batches = Array.from({ length: 12 }, (_, i) => ({
      target: i % 2 ? second : first,
      events: Array.from({ length: 5 + i }, (_, j) => siteEvent({ timestamp: at(i % 4 === 0 ? 11 : 12, j) })),
    }));
    let copies = 0;
    const observe = (sql: string) => {
      if (sql.startsWith('copy "insight_event"')) copies += 1;
    };
    sqlObservers.add(observe);
    // On a PostgreSQL server, the roll-up job's locks on both sites (another session) hold the first
    // transactions back while the other batches come: those go in groups. The embedded database has
    // one session, whose statements take turns: batches seldom meet there.
    const pglite = embeddedDatabaseOf(server.em());
    const holder = pglite ? undefined : await (await server.em().getConnection().getNativeClient()).connect();
    try {
      await holder?.query('begin');
      for (const target of [first, second]) await holder?.query(rollupLock(target.site.id, 'exclusive').text);
      const answers = Promise.all(batches.map(({ target, events }) => track(target.admin, target.site, events)));
      if (holder) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        await holder.query('commit');
      }
      for (const res of await answers) expect(res.status).toBe(204);
    } finally {
      holder?.release();
      sqlObservers.delete(observe);
    }
    expect(copies).toBeGreaterThan(0);
    if (pglite) expect(copies).toBeLessThanOrEqual(batches.length);
    else expect(copies).toBeLessThan(batches.length);
    for (const target of [first, second]) {
      const sent = batches.filter((batch) => batch.target === target).reduce((sum, batch) => sum + batch.events.length, target === first ? 1 : 0);
      const [events] = await countWith(target.admin, target.site, { select: [{ column: 'eventsCount' }] });
      expect(events.values).toEqual([sent]);
    }
    const [{ late }] = await execute<{ late: number }>(
      kyselyOf(server.em()),
      sql`select sum(events)::int as late from insight_rollup_traffic_hour where site_id = ${first.site.id} and time = ${at(11, 0)}`,
    );
    expect(late).toBe(1 + 5 + 9 + 13);
  });
});

describe('deleting a site', () => {
  it('deletes its rollups at once and its raw events by a durable job', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const kept = await newOrganizationWithSite(server);
    expect((await track(admin, site, [siteEvent(), siteEvent()])).status).toBe(204);
    expect((await track(kept.admin, kept.site, [siteEvent()])).status).toBe(204);
    expect((await admin.rest('DELETE', siteBase(site))).status).toBe(204);
    const db = kyselyOf(server.em());
    const [rollups] = await execute<{ count: number }>(db, sql`select count(*)::int as count from insight_rollup_traffic_day where site_id = ${site.id}`);
    expect(rollups.count).toBe(0);
    expect(await server.em().count(Job, { kind: 'purge-site-insights' })).toBe(1);
    expect(await storedEvents(site.id)).toBe(2);
    await server.runDueJobs();
    expect(await storedEvents(site.id)).toBe(0);
    expect(await storedEvents(kept.site.id)).toBe(1);
  });
});
