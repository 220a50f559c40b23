/**
 * The load generator's child process (forked by load-generator.ts): runs autocannon for each job the
 * parent sends over IPC and sends back what it measured. Autocannon's CPU is thus not the bench
 * process's, whose CPU time is the servers' alone.
 */
import autocannon from 'autocannon';
import type { LoadJob, LoadResult } from './load-generator.js';

process.on('message', async (job: LoadJob) => {
  const { expectStatus, ...request } = job.target;
  const result = await autocannon({ ...request, connections: job.connections, duration: job.seconds });
  const expected = expectStatus ? ((result.statusCodeStats?.[String(expectStatus) as never] as { count: number } | undefined)?.count ?? 0) : 0;
  const answer: LoadResult = {
    // Answers over the window's time: steadier than autocannon's mean of per-second counts in short windows.
    requestsPerSecond: result.requests.total / ((result.finish.getTime() - result.start.getTime()) / 1000),
    p50: result.latency.p50,
    p99: result.latency.p99,
    sent: result.requests.sent,
    completed: result.requests.total,
    non2xx: expectStatus ? result.requests.total - expected : result.non2xx,
    errors: result.errors,
  };
  process.send!(answer);
});
