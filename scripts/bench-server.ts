import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/kernel/config.js';
import { createLogger } from '../src/kernel/logger.js';
import { startServer } from '../src/server.js';
import { BENCH_SECRET_KEY } from './bench-secret-key.js';

/**
 * Starts the server of a benchmark or measurement run, silent and without a job worker, on an
 * ephemeral port: on DATABASE_URL, or else on a fresh embedded database in a temporary directory
 * named after the run (`embeddedDir`, which the run removes when it ends). Rate limits are off unless
 * the environment sets them: a benchmark's one token sends far more than a client's budget.
 */
const RATE_LIMITS_OFF = { RATE_LIMIT_READS: '0', RATE_LIMIT_WRITES: '0', RATE_LIMIT_INSIGHTS: '0' };

export async function startBenchServer(run: string) {
  const embeddedDir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), `dp-${run}-`));
  const config = loadConfig({
    SECRET_KEY: BENCH_SECRET_KEY,
    ...RATE_LIMITS_OFF,
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    JOB_POLL_MS: '0',
    ...(embeddedDir ? { DATA_DIR: embeddedDir } : {}),
  });
  const server = await startServer(config, { logger: createLogger('silent') });
  return { server, config, embeddedDir };
}
