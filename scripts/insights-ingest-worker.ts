/**
 * The load generator of `npm run bench:insights`, on a thread of its own so that making and sending
 * events takes no time from the server's thread. It first makes every request body of the run (as the
 * COPY baseline makes its text before its clock starts: on this machine the generator shares the cores
 * with the server and the database, where a real client would not) and says `ready`; then, for each
 * round it is given (`{from, to}`, batch numbers), it sends those batches to the ingestion operation,
 * `concurrency` requests in flight, reporting each hundredth batch and the round's end.
 */
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { events, type TrafficSite } from './insights-traffic.js';

type Job = { url: string; token: string; site: TrafficSite; total: number; batch: number; concurrency: number; end: number };
const { url, token, site, total, batch, concurrency, end } = workerData as Job;

const path = `${url}/v1/orgs/${site.organization}/sites/${site.id}/insights/events`;
const batches = Math.ceil(total / batch);
const bodies = Array.from({ length: batches }, (_, b) =>
  Buffer.from(JSON.stringify({ events: events(site, b * batch, Math.min(total, (b + 1) * batch), total, end) })),
);
parentPort!.postMessage({ ready: true, bytes: bodies.reduce((sum, body) => sum + body.length, 0) });

// node:http rather than fetch: the generator shares the machine's cores with the server, and fetch
// copies each body once more on its way out.
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
function send(body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(path, { method: 'POST', agent, headers: { ...headers, 'content-length': body.length } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

parentPort!.on('message', async ({ from, to }: { from: number; to: number }) => {
  let next = from;
  let reported = from * batch;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let b = next++; b < to; b = next++) {
        const { status, text } = await send(bodies[b]);
        if (status !== 204) throw new Error(`batch ${b}: ${status} ${text.slice(0, 500)}`);
        const sent = (b + 1) * batch;
        if (sent - reported >= 100_000) parentPort!.postMessage({ sent: (reported = sent) });
      }
    }),
  );
  parentPort!.postMessage({ done: true });
});
