/**
 * `npm run bench:writes`: what idempotency keys and conditional requests cost a request. Starts the
 * server on the configured database (DATABASE_URL, or a fresh embedded one) and measures with
 * autocannon, in turn within each run so that the machine's drift touches every variant alike:
 *   - `POST /v1/orgs/{id}/spaces` without a key, and with a fresh `Idempotency-Key` each;
 *   - `PATCH /v1/spaces/{id}` (a new title each time) without `If-Match`, and with the space's current
 *     ETag (each connection writes a space of its own, so no write is refused 412);
 *   - `GET /v1/spaces/{id}` without `If-None-Match` (200), and with the current ETag (304, no body).
 * Prints requests/s and mean/p50/p99 latency per variant and run, then each variant's mean and spread
 * (lowest to highest) over the runs. Environment also: BENCH_SECONDS (default 10 per variant and run),
 * BENCH_RUNS (default 3), BENCH_CONNECTIONS (default 10).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import autocannon, { type Request as BenchRequest } from 'autocannon';
import { systemClock } from '../src/kernel/clock.js';
import { createApiToken, createUser } from '../src/domain/users/index.js';
import { newId } from '../src/kernel/ids.js';
import { startBenchServer } from './bench-server.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

const { server, embeddedDir } = await startBenchServer('writes');
const em = server.deps.orm.em.fork();
const user = await createUser(em, systemClock, { email: `bench-${newId().toLowerCase()}@example.com`, displayName: 'Bench' });
const { secret } = await createApiToken(em, systemClock, user.id, 'bench');
const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; etag: string | null; body: { id?: string } }> {
  const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return { status: res.status, etag: res.headers.get('etag'), body: text ? (JSON.parse(text) as { id?: string }) : {} };
}

/** A fresh organization: the spaces a variant creates do not weigh on the next one's. */
async function newOrganization(): Promise<string> {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query: 'mutation { createOrganization(input: { title: "Bench writes" }) { id } }' }),
  });
  const answer = (await res.json()) as { data?: { createOrganization: { id: string } }; errors?: unknown };
  if (!answer.data) throw new Error(`createOrganization: ${JSON.stringify(answer.errors)}`);
  return answer.data.createOrganization.id;
}

async function newSpace(organizationId: string): Promise<{ id: string; etag: string }> {
  const created = await call('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Bench space' });
  const read = await call('GET', `/v1/spaces/${created.body.id}`);
  return { id: created.body.id!, etag: read.etag! };
}

let titles = 0;
const nextTitle = () => JSON.stringify({ title: `Bench ${++titles % 1000}` });

/** A variant's requests: autocannon's options, with the path of the URL apart. */
type Variant = { name: string; status: number; prepare: () => Promise<Omit<autocannon.Options, 'url' | 'duration' | 'connections'> & { path?: string }> };

/**
 * PATCH of spaces, one per connection: a request leases a space no other request is writing, and its
 * answer's ETag (the space's new one) goes back with the space for the next request to send.
 */
async function patchOptions(ifMatch: boolean) {
  const organizationId = await newOrganization();
  const free = await Promise.all(Array.from({ length: connections }, () => newSpace(organizationId)));
  type Leased = { space?: { id: string; etag: string } };
  const request: BenchRequest = {
    method: 'PATCH',
    setupRequest: (req, context: Leased) => {
      const space = free.pop();
      if (!space) throw new Error('more requests in flight than connections');
      context.space = space;
      return { ...req, path: `/v1/spaces/${space.id}`, headers: { ...headers, ...(ifMatch ? { 'if-match': space.etag } : {}) }, body: nextTitle() };
    },
    onResponse: (_status, _body, context: Leased, responseHeaders) => {
      if (!context.space) return;
      // autocannon keeps the header names as sent (`ETag`).
      const etag = Object.entries(responseHeaders ?? {}).find(([name]) => name.toLowerCase() === 'etag')?.[1];
      free.push({ id: context.space.id, etag: typeof etag === 'string' ? etag : context.space.etag });
    },
  };
  return { method: 'PATCH' as const, headers, requests: [request] };
}

const VARIANTS: Variant[] = [
  {
    name: 'POST space',
    status: 201,
    prepare: async () => ({ method: 'POST', path: `/v1/orgs/${await newOrganization()}/spaces`, headers, body: JSON.stringify({ title: 'Bench' }) }),
  },
  {
    name: 'POST space, Idempotency-Key',
    status: 201,
    prepare: async () => {
      const path = `/v1/orgs/${await newOrganization()}/spaces`;
      const request: BenchRequest = { setupRequest: (req) => ({ ...req, headers: { ...headers, 'idempotency-key': randomUUID() } }) };
      return { method: 'POST', path, headers, body: JSON.stringify({ title: 'Bench' }), requests: [request] };
    },
  },
  { name: 'PATCH space', status: 200, prepare: () => patchOptions(false) },
  { name: 'PATCH space, If-Match', status: 200, prepare: () => patchOptions(true) },
  {
    name: 'GET space',
    status: 200,
    prepare: async () => ({ method: 'GET', path: `/v1/spaces/${(await newSpace(await newOrganization())).id}`, headers }),
  },
  {
    name: 'GET space, If-None-Match',
    status: 304,
    prepare: async () => {
      const space = await newSpace(await newOrganization());
      return { method: 'GET', path: `/v1/spaces/${space.id}`, headers: { ...headers, 'if-none-match': space.etag } };
    },
  },
];

type Figures = { rps: number; mean: number; p50: number; p99: number };
const measured = new Map<string, Figures[]>(VARIANTS.map((variant) => [variant.name, []]));
const width = Math.max(...VARIANTS.map((variant) => variant.name.length));
const line = (name: string, f: Figures) =>
  `${name.padEnd(width)}  ${f.rps.toFixed(0).padStart(6)} req/s  mean ${f.mean.toFixed(2)} ms  p50 ${f.p50} ms  p99 ${f.p99} ms`;

try {
  console.log(`${runs} runs of ${seconds} s per variant, ${connections} connections, on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'the embedded database'}`);
  for (let run = 1; run <= runs; run++) {
    for (const variant of VARIANTS) {
      const { path = '', ...options } = await variant.prepare();
      const result = await autocannon({ ...options, url: `${server.url}${path}`, connections, duration: seconds });
      const statuses = Object.keys(result.statusCodeStats ?? {});
      if (result.errors || result.timeouts || statuses.some((status) => Number(status) !== variant.status)) {
        throw new Error(`${variant.name}: statuses ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors, ${result.timeouts} timeouts`);
      }
      const figures = { rps: result.requests.average, mean: result.latency.mean, p50: result.latency.p50, p99: result.latency.p99 };
      measured.get(variant.name)!.push(figures);
      console.log(`run ${run}  ${line(variant.name, figures)}`);
    }
  }
  console.log('\nmean over the runs (lowest-highest req/s):');
  for (const [name, all] of measured) {
    const mean = (pick: (f: Figures) => number) => all.reduce((sum, f) => sum + pick(f), 0) / all.length;
    const rps = all.map((f) => f.rps);
    const averaged = { rps: mean((f) => f.rps), mean: mean((f) => f.mean), p50: mean((f) => f.p50), p99: mean((f) => f.p99) };
    console.log(
      `${line(name, { ...averaged, p50: Number(averaged.p50.toFixed(1)), p99: Number(averaged.p99.toFixed(1)) })}  (${Math.min(...rps).toFixed(0)}-${Math.max(...rps).toFixed(0)})`,
    );
  }
} finally {
  await server.stop();
  if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
}
