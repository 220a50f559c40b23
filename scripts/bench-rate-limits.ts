/**
 * `npm run bench:rate-limits`: what rate limits cost a request. Starts the server twice on the
 * configured database (DATABASE_URL, or a fresh embedded one), with every limit off and then on (limits
 * too high to be reached), and measures with autocannon the cheapest authenticated calls, where the
 * limiter's share is largest: `GET /v1/user` and the GraphQL query `{ viewer { id } }`. On PostgreSQL
 * the limiter adds one upsert per request. Prints requests/s and p50/p99 latency per mode.
 * Environment also: BENCH_SECONDS (default 10 per target and mode), BENCH_CONNECTIONS (default 10).
 */
import { rmSync } from 'node:fs';
import autocannon from 'autocannon';
import { systemClock } from '../src/kernel/clock.js';
import { createApiToken, createUser } from '../src/domain/users/index.js';
import { newId } from '../src/kernel/ids.js';
import { startBenchServer } from './bench-server.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const MODES = {
  off: { RATE_LIMIT_READS: '0', RATE_LIMIT_WRITES: '0', RATE_LIMIT_INSIGHTS: '0' },
  on: { RATE_LIMIT_READS: '1000000000', RATE_LIMIT_WRITES: '1000000000', RATE_LIMIT_INSIGHTS: '1000000000' },
};

for (const [mode, env] of Object.entries(MODES)) {
  Object.assign(process.env, env);
  const { server, embeddedDir } = await startBenchServer(`rate-limits-${mode}`);
  const em = server.deps.orm.em.fork();
  const user = await createUser(em, systemClock, { email: `bench-${newId().toLowerCase()}@example.com`, displayName: 'Bench' });
  const { secret } = await createApiToken(em, systemClock, user.id, 'bench');
  const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
  const targets = [
    { name: 'GET /v1/user', url: `${server.url}/v1/user`, method: 'GET' as const, headers },
    { name: 'graphql viewer', url: `${server.url}/graphql`, method: 'POST' as const, headers, body: JSON.stringify({ query: '{ viewer { id } }' }) },
  ];
  for (const target of targets) {
    const result = await autocannon({ ...target, connections, duration: seconds });
    if (result.non2xx || result.errors) throw new Error(`${target.name}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
    console.log(
      `limits ${mode.padEnd(3)}  ${target.name.padEnd(15)}  ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms`,
    );
  }
  await server.stop();
  if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
}
