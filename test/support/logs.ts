import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/kernel/logger.js';

/** A logger at `level` whose JSON lines are kept in `lines`, for tests of what the server logs. */
export function capturedLogs(level = 'info'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger(level, sink), lines };
}
