import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DomainError, type ErrorCode } from '../../kernel/errors.js';
import type { BatchSite } from './batch.js';
import type { EncodedBatch } from './encode.js';

/*
 * Worker threads that turn ingestion request bodies into COPY text: parsing, checking and encoding a
 * batch is most of an ingest's CPU, and on the thread that serves every request it was the bound of
 * ingestion (measured: that thread saturated while a core stayed partly idle). A task is the body's
 * bytes and what the batch is checked against; the answer is the encoded batch with its text as bytes,
 * or the error the request must answer. Tasks wait in order for a free worker; a worker that dies fails
 * its task and is replaced.
 */

/** What a worker is sent: location ids as lists (sets do not cross threads as cheaply). */
export type BatchTask = { id: number; body: Uint8Array; site: Omit<BatchSite, 'ids'> & { ids: Record<keyof BatchSite['ids'], string[]> } };
export type PreparedBatch = EncodedBatch<Uint8Array>;
export type BatchAnswer = { id: number; batch?: PreparedBatch; error?: { code: ErrorCode; message: string } };

type Waiting = { task: BatchTask; resolve: (batch: PreparedBatch) => void; reject: (error: Error) => void };

/**
 * The worker module: compiled (`npm run build`), the JavaScript file beside this one; run from the
 * TypeScript source, loaded through tsx's loader (a worker thread does not inherit it from `tsx`).
 */
function workerUrl(): URL {
  if (import.meta.url.endsWith('.js')) return new URL('./batch-worker.js', import.meta.url);
  const loader =
    typeof import.meta.resolve === 'function' ? import.meta.resolve('tsx/esm/api') : pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
  const bootstrap = `import { register } from ${JSON.stringify(loader)};
    register();
    await import(${JSON.stringify(new URL('./batch-worker.ts', import.meta.url).href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}

export class BatchPool {
  private readonly idle: Worker[] = [];
  private readonly running = new Map<Worker, Waiting>();
  private readonly queue: Waiting[] = [];
  /** Every task given and not answered yet, queued or running. */
  private readonly pending = new Set<Promise<PreparedBatch>>();
  private nextId = 0;
  private closed = false;

  constructor(private readonly size: number) {
    for (let i = 0; i < size; i++) this.idle.push(this.spawn());
  }

  private spawn(): Worker {
    // No inherited Node flags: the loader comes from the bootstrap. The worker must not keep the process alive.
    const worker = new Worker(workerUrl(), { execArgv: [] });
    worker.on('message', (answer: BatchAnswer) => {
      const waiting = this.running.get(worker);
      this.running.delete(worker);
      if (waiting) {
        if (answer.batch) waiting.resolve(answer.batch);
        else
          waiting.reject(
            answer.error!.code === 'INTERNAL_SERVER_ERROR' ? new Error(answer.error!.message) : new DomainError(answer.error!.code, answer.error!.message),
          );
      }
      this.release(worker);
    });
    worker.on('error', (error) => this.lose(worker, error));
    worker.on('exit', (code) => this.lose(worker, new Error(`insights batch worker exited with code ${code}`)));
    // After the listeners: attaching a message listener refs the worker's port again.
    worker.unref();
    return worker;
  }

  /** A worker died: its task fails, another takes its place. */
  private lose(worker: Worker, error: Error): void {
    const waiting = this.running.get(worker);
    this.running.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
    waiting?.reject(error);
    if (!this.closed && this.running.size + this.idle.length < this.size) this.release(this.spawn());
  }

  private release(worker: Worker): void {
    const next = this.queue.shift();
    if (!next) {
      this.idle.push(worker);
      return;
    }
    this.running.set(worker, next);
    worker.postMessage(next.task);
  }

  /** Parses, checks and encodes a request body's batch on a worker thread. */
  prepare(body: Uint8Array, site: BatchSite): Promise<PreparedBatch> {
    if (this.closed) return Promise.reject(new Error('insights batch pool is closed'));
    const ids = Object.fromEntries(Object.entries(site.ids).map(([field, values]) => [field, [...values]])) as BatchTask['site']['ids'];
    const task: BatchTask = { id: this.nextId++, body, site: { ...site, ids } };
    const prepared = new Promise<PreparedBatch>((resolve, reject) => {
      this.queue.push({ task, resolve, reject });
      const worker = this.idle.pop();
      if (worker) this.release(worker);
    });
    this.pending.add(prepared);
    const answered = () => this.pending.delete(prepared);
    prepared.then(answered, answered);
    return prepared;
  }

  /** Takes no further task, answers those given (their requests wait for them), then ends the workers. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled(this.pending);
    const workers = [...this.idle, ...this.running.keys()];
    this.idle.length = 0;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
