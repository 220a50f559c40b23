/**
 * `/metrics` through HTTP: request durations by operation, door, method and status (with bounded
 * labels), requests in flight, statement durations and the pool, the job queue, insights ingestion,
 * process metrics; who may read them (METRICS_TOKEN) and where (METRICS_PORT).
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { newId } from '../src/kernel/ids.js';
import { Job } from '../src/jobs/entities.js';
import { enqueue } from '../src/jobs/queue.js';
import { embeddedDatabaseOf } from '../src/db/embedded-databases.js';
import { MAX_GRAPHQL_OPERATIONS } from '../src/metrics/requests.js';
import { newOrganizationWithRoles, rest } from './support/factories.js';
import { siteEvent, track } from './support/insights.js';
import { parseMetrics, samplesOf, valueOf, type Sample } from './support/metrics.js';
import { startTestServer, useTestServer, type TestServer } from './support/server.js';
import { newOrganizationWithSite } from './support/sites.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const server = useTestServer({ METRICS_TOKEN: TOKEN });

const REQUESTS = 'docs_server_http_request_duration_seconds_count';

async function scrape(url = server.url, token: string | null = TOKEN): Promise<Sample[]> {
  const res = await fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(res.status).toBe(200);
  return parseMetrics(await res.text());
}

/** How much a sample grew between two scrapes (a series that did not exist counts from 0). */
const grown = (before: Sample[], after: Sample[], name: string, labels: Record<string, string>) =>
  (valueOf(after, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0);

describe('request metrics', () => {
  it('count a REST call and a named GraphQL call by operation, door, method and status', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const before = await scrape();
    expect((await admin.rest('GET', `/v1/orgs/${organization.id}`)).status).toBe(200);
    expect((await admin.rest('GET', `/v1/orgs/${newId()}`)).status).toBe(404);
    const { status, errors } = await admin.gql('query MetricsViewer { viewer { id } }');
    expect([status, errors]).toEqual([200, undefined]);
    await admin.gql('{ viewer { id } }');
    const after = await scrape();

    const rest = { operation: 'getOrganizationById', door: 'rest', method: 'GET' };
    expect(grown(before, after, REQUESTS, { ...rest, status: '200' })).toBe(1);
    expect(grown(before, after, REQUESTS, { ...rest, status: '404' })).toBe(1);
    expect(grown(before, after, REQUESTS, { operation: 'MetricsViewer', door: 'graphql', method: 'POST', status: '200' })).toBe(1);
    expect(grown(before, after, REQUESTS, { operation: 'anonymous', door: 'graphql', method: 'POST', status: '200' })).toBe(1);
    // A histogram: buckets up to +Inf, and the sum of the durations.
    const inf = valueOf(after, 'docs_server_http_request_duration_seconds_bucket', { ...rest, status: '200', le: '+Inf' });
    expect(inf).toBe(valueOf(after, REQUESTS, { ...rest, status: '200' }));
    expect(valueOf(after, 'docs_server_http_request_duration_seconds_sum', { ...rest, status: '200' })).toBeGreaterThan(0);
  });

  it('name plain routes by their route\'s pattern and what no route served "unmatched", never by its URL', async () => {
    const before = await scrape();
    expect((await rest(server, null, 'GET', '/no-such-path-31415/deeper?x=1')).status).toBe(404);
    expect((await rest(server, null, 'GET', '/v1/no-such-operation-27182')).status).toBe(404);
    expect((await rest(server, null, 'GET', '/healthz')).status).toBe(200);
    // Read whole: a request is measured once its answer is sent.
    expect((await rest(server, null, 'GET', '/v1/openapi.json')).status).toBe(200);
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const text = await res.text();
    const after = parseMetrics(text);
    expect(grown(before, after, REQUESTS, { operation: 'unmatched', door: 'none', method: 'GET', status: '404' })).toBe(2);
    expect(grown(before, after, REQUESTS, { operation: '/healthz', door: 'none', method: 'GET', status: '200' })).toBe(1);
    expect(grown(before, after, REQUESTS, { operation: '/v1/openapi.json', door: 'none', method: 'GET', status: '200' })).toBe(1);
    expect(text).not.toMatch(/31415|27182/);
  });

  it('show the requests in flight: the scrape is one', async () => {
    const samples = await scrape();
    expect(valueOf(samples, 'docs_server_http_requests_in_flight')).toBeGreaterThanOrEqual(1);
  });
});

describe('database metrics', () => {
  it('time statements by kind, never by their text, and show the connections', async () => {
    await newOrganizationWithRoles(server);
    const samples = await scrape();
    for (const kind of ['select', 'insert']) {
      expect(valueOf(samples, 'docs_server_db_statement_duration_seconds_count', { kind }), kind).toBeGreaterThan(0);
    }
    const kinds = new Set(samplesOf(samples, 'docs_server_db_statement_duration_seconds_count').map((s) => s.labels.kind));
    expect([...kinds].every((kind) => ['select', 'insert', 'update', 'delete', 'other'].includes(kind))).toBe(true);

    const embedded = embeddedDatabaseOf(server.em()) !== undefined;
    expect(valueOf(samples, 'docs_server_db_pool_max_connections')).toBe(embedded ? 1 : 10);
    const inUse = valueOf(samples, 'docs_server_db_pool_connections', { state: 'in_use' })!;
    const idle = valueOf(samples, 'docs_server_db_pool_connections', { state: 'idle' })!;
    expect(inUse + idle).toBeLessThanOrEqual(embedded ? 1 : 10);
    expect(valueOf(samples, 'docs_server_db_pool_waiting')).toBeGreaterThanOrEqual(0);
  });
});

describe('job metrics', () => {
  const DEPTH = 'docs_server_job_queue_depth';
  const AGE = 'docs_server_job_oldest_due_age_seconds';

  it('show due and scheduled jobs by kind, and how long the oldest due one has waited', async () => {
    const kind = `metrics-test-${newId()}`;
    const em = server.em();
    const now = server.clock.now().getTime();
    enqueue(em, server.clock, kind, {}, new Date(now - 90_000));
    enqueue(em, server.clock, kind, {}, new Date(now - 30_000));
    enqueue(em, server.clock, kind, {}, new Date(now + 3_600_000));
    await em.flush();
    try {
      const samples = await scrape();
      expect(valueOf(samples, DEPTH, { kind, state: 'due' })).toBe(2);
      expect(valueOf(samples, DEPTH, { kind, state: 'scheduled' })).toBe(1);
      expect(valueOf(samples, DEPTH, { kind, state: 'running' })).toBe(0);
      expect(valueOf(samples, AGE, { kind })).toBe(90);
      // Known kinds without a job are reported as 0 rather than missing.
      expect(valueOf(samples, AGE, { kind: 'space.purge' })).toBeGreaterThanOrEqual(0);

      server.clock.advance(10_000);
      expect(valueOf(await scrape(), AGE, { kind })).toBe(100);
    } finally {
      await server.em().nativeDelete(Job, { kind });
    }
  });

  it('count failed and completed runs by kind', async () => {
    const kind = `metrics-failing-${newId()}`;
    const em = server.em();
    // A kind without a handler fails; a purge of a space that does not exist completes doing nothing.
    enqueue(em, server.clock, kind, {});
    enqueue(em, server.clock, 'space.purge', { spaceId: newId(), deletedAt: server.clock.now().toISOString() });
    await em.flush();
    const before = await scrape();
    try {
      await server.runDueJobs();
      const after = await scrape();
      expect(valueOf(after, 'docs_server_jobs_failed_total', { kind })).toBe(1);
      expect(grown(before, after, 'docs_server_jobs_completed_total', { kind: 'space.purge' })).toBeGreaterThanOrEqual(1);
      // The failed job waits for its retry.
      expect(valueOf(after, DEPTH, { kind, state: 'scheduled' })).toBe(1);
    } finally {
      await server.em().nativeDelete(Job, { kind });
    }
  });
});

describe('insights metrics', () => {
  it('count the events ingested once their batch is acknowledged', async () => {
    const { admin, site } = await newOrganizationWithSite(server);
    const before = await scrape();
    expect((await track(admin, site, [siteEvent(), siteEvent(), siteEvent()])).status).toBe(204);
    expect((await track(admin, site, [siteEvent(), { type: 'nonsense' }])).status).toBe(400);
    const after = await scrape();
    expect(grown(before, after, 'docs_server_insights_events_ingested_total', {})).toBe(3);
  });
});

describe('process metrics', () => {
  it("are prom-client's defaults", async () => {
    const samples = await scrape();
    expect(valueOf(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  it('answers 401 without the token or with another, 200 in Prometheus text format with it', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Basic ${TOKEN}`, 'Bearer']) {
      const res = await rest(server, null, 'GET', '/metrics', undefined, authorization ? { authorization } : {});
      expect(res.status, authorization).toBe(401);
      expect(res.body).toEqual({ error: { code: 401, message: expect.stringContaining('METRICS_TOKEN') } });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(parseMetrics(await res.text()).length).toBeGreaterThan(0);
  });
});

describe('where /metrics is served', () => {
  /** A server started for one test, stopped by it. */
  async function withServer(env: Record<string, string>, test: (started: TestServer) => Promise<void>) {
    const started = await startTestServer(env);
    try {
      await test(started);
    } finally {
      await started.stop();
    }
  }

  it('is nowhere without METRICS_TOKEN or METRICS_PORT: 404 on the main port', async () => {
    await withServer({}, async (started) => {
      const res = await rest(started, null, 'GET', '/metrics');
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe(404);
      expect(started.metricsUrl).toBeUndefined();
    });
  });

  it('is on METRICS_PORT only when it is set (404 on the main port), and that port stops with the server', async () => {
    const started = await startTestServer({ METRICS_PORT: '0' });
    let metricsUrl: string;
    try {
      metricsUrl = started.metricsUrl!;
      expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await rest(started, null, 'GET', '/metrics')).status).toBe(404);
      const samples = await scrape(metricsUrl, null);
      expect(valueOf(samples, 'docs_server_db_pool_max_connections')).toBeGreaterThan(0);
      const other = await fetch(`${metricsUrl}/v1/orgs`);
      expect(other.status).toBe(404);
      expect(await other.json()).toEqual({ error: { code: 404, message: expect.any(String) } });
    } finally {
      await started.stop();
    }
    await expect(fetch(`${metricsUrl}/metrics`)).rejects.toThrow();
  });

  it('requires the token on METRICS_PORT too when both are set', async () => {
    await withServer({ METRICS_PORT: '0', METRICS_TOKEN: TOKEN }, async (started) => {
      expect((await fetch(`${started.metricsUrl}/metrics`)).status).toBe(401);
      await scrape(started.metricsUrl, TOKEN);
      expect((await rest(started, null, 'GET', '/metrics', undefined, { authorization: `Bearer ${TOKEN}` })).status).toBe(404);
    });
  });

  it('fails to start naming METRICS_PORT and EADDRINUSE when that port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      await expect(startTestServer({ METRICS_PORT: String(port) })).rejects.toThrow(/EADDRINUSE.*METRICS_PORT/);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

// Last: it fills the server's set of GraphQL operation names.
describe('GraphQL operation names', () => {
  it(`get a series each up to ${MAX_GRAPHQL_OPERATIONS}; later ones, and unlikely ones, count as "other"`, async () => {
    const { admin } = await newOrganizationWithRoles(server);
    const before = await scrape();
    for (let i = 0; i < MAX_GRAPHQL_OPERATIONS + 5; i++) expect((await admin.gql(`query Named${i} { viewer { id } }`)).status).toBe(200);
    await admin.gql(`query ${'Long'.repeat(20)} { viewer { id } }`);
    const after = await scrape();
    const names = new Set(samplesOf(after, REQUESTS, { door: 'graphql' }).map((s) => s.labels.operation));
    expect(names.size).toBeLessThanOrEqual(MAX_GRAPHQL_OPERATIONS + 2); // and `other`, `anonymous`
    expect(names.has('other')).toBe(true);
    expect(names.has('Long'.repeat(20))).toBe(false);
    expect(grown(before, after, REQUESTS, { operation: 'other', door: 'graphql', method: 'POST', status: '200' })).toBeGreaterThanOrEqual(6);
  });
});
