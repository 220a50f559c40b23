/*
 * A worker thread of the insights batch pool (batch-pool.ts): checks and encodes the batches of request
 * bodies it is sent, and answers each with the events' COPY text as bytes (moved, not copied, back to
 * the main thread) or with the error the request must answer.
 */
import { parentPort } from 'node:worker_threads';
import { DomainError } from '../../kernel/errors.js';
import { prepareBatchBody } from './batch.js';
import type { BatchTask, BatchAnswer } from './batch-pool.js';

const encoder = new TextEncoder();

parentPort!.on('message', ({ id, body, site }: BatchTask) => {
  let answer: BatchAnswer;
  const transfer: ArrayBuffer[] = [];
  try {
    const ids = Object.fromEntries(Object.entries(site.ids).map(([field, values]) => [field, new Set(values)]));
    const batch = prepareBatchBody(body, { ...site, ids: ids as never });
    const events = encoder.encode(batch.events);
    transfer.push(events.buffer);
    answer = { id, batch: { ...batch, events } };
  } catch (error) {
    answer =
      error instanceof DomainError
        ? { id, error: { code: error.code, message: error.message } }
        : { id, error: { code: 'INTERNAL_SERVER_ERROR', message: String((error as Error)?.stack ?? error) } };
  }
  parentPort!.postMessage(answer, transfer);
});
