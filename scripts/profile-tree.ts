/**
 * Profiles the nested site-tree GraphQL query in-process: seeds a 20 × 25 site on DATABASE_URL (or a
 * temporary embedded database), warms up, then runs PROFILE_RUNS sequential requests under the V8
 * profiler, prints the average latency and writes the profile to PROFILE_OUT (default
 * /tmp/tree.cpuprofile; open it in Chrome DevTools; `none` measures without profiling), with its top
 * PROFILE_TOP (25) functions by self time and the time by package.
 */
import { systemClock } from '../src/kernel/clock.js';
import { startBenchServer } from './bench-server.js';
import { createOrganization } from '../src/domain/organizations/index.js';
import { createApiToken, createUser } from '../src/domain/users/index.js';
import { seedSiteTree, SITE_TREE_QUERY } from './site-tree.js';
import { STRUCTURE_QUERY } from './bench-tree/structural-tree.js';
import { printTopEntries } from './profile-summary.js';
import { Session } from 'node:inspector/promises';
import http from 'node:http';
import { rmSync, writeFileSync } from 'node:fs';
const runs = Number(process.env.PROFILE_RUNS ?? 30);
// PROFILE_CONNECTIONS requests in flight (default 1: sequential), as the benchmark's concurrency.
const connections = Number(process.env.PROFILE_CONNECTIONS ?? 1);
const { server, embeddedDir } = await startBenchServer('profile');
const em = server.deps.orm.em.fork();
const owner = await createUser(em, systemClock, { email: `p-${Date.now()}@example.com`, displayName: 'P' });
const { secret } = await createApiToken(em, systemClock, owner.id, 'p');
const org = await createOrganization(em, systemClock, owner.id, { title: 'P org' });
const siteId = await seedSiteTree(em, org.id, 20, 25, 5);
// PROFILE_QUERY=structure profiles the structural tree (bench:tree's c) instead of the full tree (b).
const query = process.env.PROFILE_QUERY === 'structure' ? STRUCTURE_QUERY : SITE_TREE_QUERY;
const body = JSON.stringify({ query, variables: { id: siteId } });
// A bare keep-alive HTTP client that drops the body: the client's own cost stays small in the figures.
const agent = new http.Agent({ keepAlive: true });
const target = new URL(`${server.url}/graphql`);
const call = () =>
  new Promise<void>((resolve, reject) => {
    const req = http.request(
      target,
      { method: 'POST', agent, headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
        res
          .on('data', () => {})
          .on('end', resolve)
          .on('error', reject);
      },
    );
    req.on('error', reject).end(body);
  });
for (let i = 0; i < 5; i++) await call();
const profiling = process.env.PROFILE_OUT !== 'none';
// PROFILE_KIND=heap samples allocations (what keeps the garbage collector busy) instead of CPU time.
const heap = process.env.PROFILE_KIND === 'heap';
const session = new Session();
session.connect();
if (profiling && heap)
  await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
else if (profiling) {
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
// Batches of 10: the best batch shows the cost itself, the others also what else the machine was doing.
let best = { wall: Infinity, cpu: Infinity };
for (let done = 0; done < runs; done += 10 * connections) {
  const t = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (let i = 0; i < 10; i++) await call();
    }),
  );
  const { user, system } = process.cpuUsage(cpu);
  const requests = 10 * connections;
  best = { wall: Math.min(best.wall, (performance.now() - t) / requests), cpu: Math.min(best.cpu, (user + system) / 1000 / requests) };
}
console.log(
  `site tree query over ${runs} requests: ${connections} in flight, best batch ${best.wall.toFixed(1)} ms each, ${best.cpu.toFixed(1)} ms CPU each (server and in-process client)`,
);
if (profiling) {
  const { profile } = heap ? await session.post('HeapProfiler.stopSampling') : await session.post('Profiler.stop');
  writeFileSync(process.env.PROFILE_OUT ?? (heap ? '/tmp/tree.heapprofile' : '/tmp/tree.cpuprofile'), JSON.stringify(profile));
  if (!heap) printTopEntries(profile as Parameters<typeof printTopEntries>[0], Number(process.env.PROFILE_TOP ?? 25));
}
await server.stop();
if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
