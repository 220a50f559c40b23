import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { extname } from 'node:path';

/** One HTTP request the bench sends again and again. */
/** A request to repeat; `expectStatus` when its answer is not a 2xx (a 304), which then counts as success. */
export type LoadTarget = { url: string; method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; expectStatus?: number };

export type LoadJob = { target: LoadTarget; connections: number; seconds: number };

/** What autocannon saw in one window: requests per second, latency (ms), requests sent and answered. */
export type LoadResult = { requestsPerSecond: number; p50: number; p99: number; sent: number; completed: number; non2xx: number; errors: number };

/**
 * Autocannon in a child process (load-worker.ts), kept for the whole run: the bench process then holds
 * only the servers, so its CPU time per window is theirs. Jobs run one at a time.
 */
export function startLoadGenerator() {
  // The child inherits Node's flags (`--import tsx` when run from the sources), and runs compiled when this does.
  const child = fork(fileURLToPath(new URL(`./load-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url)), { stdio: 'inherit' });
  const exited = once(child, 'exit').then(([code]) => Promise.reject(new Error(`the load generator exited (code ${code})`)));
  exited.catch(() => {}); // reported by the job it cuts short, if any
  return {
    async run(job: LoadJob): Promise<LoadResult> {
      child.send(job);
      const [result] = (await Promise.race([once(child, 'message'), exited])) as [LoadResult];
      return result;
    },
    stop() {
      child.kill();
    },
  };
}
