/**
 * Measures the REST facade against the same GraphQL document: seeds a site of 20 sections × 25 site
 * spaces (as `bench:tree`) on DATABASE_URL or a temporary embedded database, then drives REST
 * `listSiteSections` (`GET …/sections?limit=1000`) and the route's own document sent to `POST /graphql`
 * with autocannon at MEASURE_CONNECTIONS (default 10), in MEASURE_ROUNDS (default 3) interleaved rounds
 * of MEASURE_SECONDS (default 5) per door. autocannon runs in a child process, so the CPU time this
 * process spends per request (`process.cpuUsage`) is the server's alone (with PGlite's, embedded).
 * Prints each round's requests/s and CPU ms per request of both doors and their ratio.
 * MEASURE_PROFILE=1 then profiles each door for MEASURE_SECONDS under the V8 profiler and prints the
 * functions with the most self time (MEASURE_PROFILE_OUT: a directory to write the .cpuprofile files to).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { systemClock } from '../src/clock.js';
import { createOrganization } from '../src/domain/organizations/service.js';
import { createApiToken, createUser } from '../src/domain/users/service.js';
import { newId } from '../src/ids.js';
import { routes } from '../rest-facade/routes/index.js';
import { startBenchServer } from './bench-server.js';
import { seedSiteTree } from './site-tree.js';

const seconds = Number(process.env.MEASURE_SECONDS ?? 5);
const rounds = Number(process.env.MEASURE_ROUNDS ?? 3);
const connections = Number(process.env.MEASURE_CONNECTIONS ?? 10);
const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

type Door = { name: string; method: 'GET' | 'POST'; url: string; headers: Record<string, string>; body?: string };
type Round = { rps: number; cpuMsPerRequest: number; p50: number };

/** One autocannon run in a child process; the CPU time of this process meanwhile, per request. */
async function drive(door: Door, duration: number): Promise<Round> {
  const args = [autocannonBin, '-j', '-n', '-c', String(connections), '-d', String(duration), '-m', door.method];
  for (const [name, value] of Object.entries(door.headers)) args.push('-H', `${name}=${value}`);
  if (door.body) args.push('-b', door.body);
  const cpu = process.cpuUsage();
  const { stdout } = await promisify(execFile)(process.execPath, [...args, door.url], { maxBuffer: 1 << 26 });
  const { user, system } = process.cpuUsage(cpu);
  const result = JSON.parse(stdout);
  if (result.non2xx || result.errors) throw new Error(`${door.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, cpuMsPerRequest: (user + system) / 1000 / result.requests.total, p50: result.latency.p50 };
}

/** The functions with the most self time in a V8 CPU profile. */
function topSelfTime(profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[] }, count = 25) {
  const total = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
  const byFunction = new Map<string, number>();
  for (const { callFrame, hitCount = 0 } of profile.nodes) {
    const where = callFrame.url ? `${callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|rest-facade)\//, '$1/')}:${callFrame.lineNumber + 1}` : '';
    const key = `${callFrame.functionName || '(anonymous)'} ${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + hitCount);
  }
  return [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, count).map(([name, hits]) => `${((100 * hits) / total).toFixed(1).padStart(5)}%  ${name}`);
}

/** The REST body the contract wants from a GraphQL answer: nulls left out (the route has no @keepNull field). */
const withoutNulls = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(withoutNulls)
  : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]))
  : value;

const { server, embeddedDir } = await startBenchServer('measure-rest');
const em = server.deps.orm.em.fork();
const owner = await createUser(em, systemClock, { email: `measure-${newId().toLowerCase()}@example.com`, displayName: 'Measure' });
const { secret } = await createApiToken(em, systemClock, owner.id, 'measure');
const organization = await createOrganization(em, systemClock, owner.id, { title: 'Measure organization' });
const siteId = await seedSiteTree(em, organization.id, 20, 25, 5);

const route = routes.find((r) => r.operationId === 'listSiteSections')!;
const auth = { authorization: `Bearer ${secret}` };
const doors: Door[] = [
  { name: 'REST', method: 'GET', url: `${server.url}/v1/orgs/${organization.id}/sites/${siteId}/sections?limit=1000`, headers: auth },
  {
    name: 'GraphQL',
    method: 'POST',
    url: `${server.url}/graphql`,
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ query: route.document, variables: { organizationId: organization.id, siteId, limit: 1000 } }),
  },
];

// Both doors must answer the same data, or the ratio would mean nothing; this also warms both up.
const answers = await Promise.all(doors.map(async (door) => {
  const res = await fetch(door.url, { method: door.method, headers: door.headers, body: door.body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${door.name}: ${res.status} ${text.slice(0, 500)}`);
  return { text, bytes: Buffer.byteLength(text) };
}));
// Byte for byte: the same fields in the same order.
if (answers[0]!.text !== JSON.stringify(withoutNulls(JSON.parse(answers[1]!.text).data.siteSections))) throw new Error('REST and GraphQL answer different data');
console.log(`database: ${process.env.DATABASE_URL ? 'PostgreSQL server' : 'embedded (PGlite)'}; answers: REST ${answers[0]!.bytes} bytes, GraphQL ${answers[1]!.bytes} bytes; ${connections} connections, ${rounds} rounds of ${seconds} s per door`);
for (const door of doors) await drive(door, 1); // warm-up: compilation and first-use work are not per-request costs

const results = new Map<Door, Round[]>(doors.map((door) => [door, []]));
for (let round = 0; round < rounds; round++) {
  // Alternate which door goes first, so neither always follows the other's garbage.
  for (const door of round % 2 ? [...doors].reverse() : doors) results.get(door)!.push(await drive(door, seconds));
  const [rest, graphql] = doors.map((door) => results.get(door)![round]!);
  console.log(
    `round ${round + 1}: REST ${rest!.rps.toFixed(1)} req/s, ${rest!.cpuMsPerRequest.toFixed(2)} ms CPU/req, p50 ${rest!.p50} ms; ` +
      `GraphQL ${graphql!.rps.toFixed(1)} req/s, ${graphql!.cpuMsPerRequest.toFixed(2)} ms CPU/req, p50 ${graphql!.p50} ms; ` +
      `REST/GraphQL ${(rest!.rps / graphql!.rps).toFixed(3)}× req/s, ${(rest!.cpuMsPerRequest / graphql!.cpuMsPerRequest).toFixed(3)}× CPU`,
  );
}
const ratios = results.get(doors[0]!)!.map((rest, i) => rest.rps / results.get(doors[1]!)![i]!.rps);
const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
console.log(`REST/GraphQL req/s: mean ${mean(ratios).toFixed(3)}×, range ${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}×`);
for (const door of doors) {
  const measured = results.get(door)!;
  console.log(`${door.name.padEnd(8)} ${mean(measured.map((m) => m.rps)).toFixed(1)} req/s, ${mean(measured.map((m) => m.cpuMsPerRequest)).toFixed(2)} ms CPU/req`);
}

if (process.env.MEASURE_PROFILE) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  for (const door of doors) {
    await session.post('Profiler.start');
    await drive(door, seconds);
    const { profile } = await session.post('Profiler.stop');
    console.log(`\n${door.name}: functions with the most self time\n${topSelfTime(profile as never).join('\n')}`);
    if (process.env.MEASURE_PROFILE_OUT) {
      mkdirSync(process.env.MEASURE_PROFILE_OUT, { recursive: true });
      writeFileSync(join(process.env.MEASURE_PROFILE_OUT, `${door.name.toLowerCase()}.cpuprofile`), JSON.stringify(profile));
    }
  }
  session.disconnect();
}

await server.stop();
if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
