/**
 * `npm run bench:events`: what the outbox costs a write, and how fast webhooks go out.
 *
 * 1. Comment posting (`POST /v1/spaces/{spaceId}/comments`, autocannon) with the outbox as it is, and
 *    with it cut out: a BEFORE INSERT trigger that this script adds to its own database drops every
 *    `domain_event` row, so the event is still built and sent in the change's transaction but nothing
 *    is stored, indexed or notified. The two modes alternate (BENCH_ROUNDS rounds each), so that drift
 *    of the machine falls on both. The JavaScript side of recordEvent stays in both: the figure is the
 *    database's share of the cost (the row, its six indexes, the NOTIFY), which is most of it.
 * 2. Webhook delivery rate: BENCH_DELIVERIES comments are posted with one endpoint subscribed, pointing
 *    at a local receiver that answers 204 at once; then the fan-out and the endpoint's delivery job run
 *    (as a worker runs them) until the receiver has every delivery: deliveries per second, end to end
 *    (fan-out, signing, the POST, the log's writes), one endpoint's ordered queue.
 *
 * Database: DATABASE_URL, or a fresh embedded one. Environment also: BENCH_SECONDS (default 10 per
 * round), BENCH_CONNECTIONS (default 10), BENCH_ROUNDS (default 2), BENCH_DELIVERIES (default 2000).
 */
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import autocannon from 'autocannon';
import { raw } from 'sql-template-tag';
import { systemClock } from '../src/kernel/clock.js';
import { execute } from '../src/db/statements.js';
import { createOrganization } from '../src/domain/organizations/index.js';
import { createApiToken, createUser } from '../src/domain/users/index.js';
import { FAN_OUT_JOB } from '../src/domain/webhooks/index.js';
import { newId } from '../src/kernel/ids.js';
import { enqueueUnlessPending } from '../src/jobs/queue.js';
import { startBenchServer } from './bench-server.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const deliveries = Number(process.env.BENCH_DELIVERIES ?? 2000);

process.env.FETCH_ALLOW_PRIVATE = '127.0.0.1';
const { server, embeddedDir } = await startBenchServer('events');
const em = () => server.deps.orm.em.fork();
const user = await createUser(em(), systemClock, { email: `bench-${newId().toLowerCase()}@example.com`, displayName: 'Bench' });
const { secret } = await createApiToken(em(), systemClock, user.id, 'bench');
const organization = await createOrganization(em(), systemClock, user.id, { title: 'Bench' });
const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; [key: string]: unknown };
}

const space = await call('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Bench' });
const commentsUrl = `${server.url}/v1/spaces/${space.id}/comments`;
const comment = JSON.stringify({ body: { markdown: 'A comment of the benchmark' } });

async function postComments(options: { duration?: number; amount?: number }) {
  const result = await autocannon({ url: commentsUrl, method: 'POST', headers, body: comment, connections, ...options });
  if (result.non2xx || result.errors) throw new Error(`comments: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  return result;
}

const DROP_EVENTS = `create or replace function "bench_drop_event"() returns trigger language plpgsql as $$ begin return null; end $$;
  create trigger "bench_drop_event" before insert on "domain_event" for each row execute function "bench_drop_event"()`;
const KEEP_EVENTS = `drop trigger if exists "bench_drop_event" on "domain_event"`;

// 1. The outbox's cost on comment posting.
await postComments({ duration: 2 }); // warm-up
const perMode: Record<string, number[]> = { outbox: [], 'no outbox': [] };
for (let round = 1; round <= rounds; round++) {
  for (const mode of ['outbox', 'no outbox'] as const) {
    // DDL takes no parameters: the statements are texts of the script's own.
    for (const statement of (mode === 'outbox' ? KEEP_EVENTS : DROP_EVENTS).split(';\n')) await execute(em(), raw(statement));
    const result = await postComments({ duration: seconds });
    perMode[mode].push(result.requests.average);
    console.log(
      `round ${round}  ${mode.padEnd(9)}  ${result.requests.average.toFixed(0).padStart(5)} comments/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms`,
    );
  }
}
await execute(em(), raw(KEEP_EVENTS));
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const withOutbox = mean(perMode.outbox);
const without = mean(perMode['no outbox']);
console.log(
  `comment posting: ${withOutbox.toFixed(0)}/s with the outbox, ${without.toFixed(0)}/s without: ${(100 * (1 - withOutbox / without)).toFixed(1)}% fewer`,
);

// 2. Webhook delivery rate to a local receiver.
async function runFanOutAndDeliveries() {
  const now = systemClock.now();
  await enqueueUnlessPending(em(), FAN_OUT_JOB, now, now, { earlier: true });
  await server.runDueJobs();
}
await runFanOutAndDeliveries(); // the events of part 1 are handed out (to no endpoint) first
let received = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received += 1;
    res.writeHead(204).end();
  });
}).listen(0, '127.0.0.1');
await once(receiver, 'listening');
const { port } = receiver.address() as { port: number };
await call('POST', `/v1/orgs/${organization.id}/webhooks`, { url: `http://127.0.0.1:${port}/hook`, eventTypes: ['comment.posted'] });
await postComments({ amount: deliveries });
const started = performance.now();
while (received < deliveries) await runFanOutAndDeliveries();
const elapsedS = (performance.now() - started) / 1000;
console.log(
  `webhook deliveries: ${deliveries} in ${elapsedS.toFixed(2)} s: ${(deliveries / elapsedS).toFixed(0)} deliveries/s (one endpoint, in order, fan-out included)`,
);

receiver.close();
await server.stop();
if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
