/**
 * The job queue's claims within one process, on the real database, driven by the manual clock: a run
 * whose lease ran out and whose job was claimed again changes nothing (its completion, failure and
 * claimed writes are discarded, its signal aborted), a heartbeat keeps a long run's job, a transaction
 * holding the claim keeps the job from others, a stopping worker gives back the job it cut short.
 * Several processes on one PostgreSQL: several-instances.test.ts.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EntityManager } from '@mikro-orm/postgresql';
import { embeddedDatabaseOf } from '../src/db/embedded-databases.js';
import { Job } from '../src/jobs/entities.js';
import { LeaseLost } from '../src/jobs/lease.js';
import { enqueue, runDueJobs, startWorker, type JobHandler, type JobRun } from '../src/jobs/queue.js';
import { capturedLogs } from './support/logs.js';
import { useTestServer } from './support/server.js';

const SECOND = 1000;
/** A lease whose heartbeat (every third of it) never beats during a test: only the manual clock ends it. */
const LONG_LEASE_MS = 600 * SECOND;
/** A lease whose heartbeat beats every second of real time. */
const SHORT_LEASE_MS = 3 * SECOND;
const KIND = 'lease-test';
/** Jobs written by test runs as their effect: never due during the tests, never run. */
const EFFECT = 'lease-test-effect';

const logs = capturedLogs('warn');
const server = useTestServer({}, { logger: logs.logger });
let embedded: boolean;

beforeAll(async () => {
  embedded = embeddedDatabaseOf(server.em()) !== undefined;
});
afterEach(async () => {
  await server.em().nativeDelete(Job, {});
  logs.lines.length = 0;
});

/** Runs the due jobs with these handlers and lease, as the worker does. */
function run(handlers: Record<string, JobHandler>, leaseMs: number, stop?: AbortSignal, cutShort?: AbortSignal) {
  const env = { config: { ...server.deps.config, jobLeaseMs: leaseMs }, logger: server.deps.logger };
  return runDueJobs(server.deps.orm, server.clock, handlers, env, stop, cutShort);
}

async function schedule(payload: Record<string, unknown> = {}) {
  const em = server.em();
  const job = enqueue(em, server.clock, KIND, payload);
  await em.flush();
  return job.id;
}

/** A promise with its resolver. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** A job's work that can be held: it counts its runs, opens `entered` when it starts and waits for `resume`. */
function heldWork() {
  const entered = gate();
  const resume = gate();
  const runs = { count: 0 };
  const hold = async () => {
    runs.count += 1;
    entered.open();
    await resume.opened;
  };
  return { entered, resume, runs, hold };
}

/** What the test runs wrote as their effect (through `whileClaimed`), by run name. */
async function effects(): Promise<string[]> {
  const rows = await server.em().find(Job, { kind: EFFECT }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return rows.map((row) => String(row.payload.by));
}
const writeEffect = (run: JobRun, em: EntityManager, by: string) =>
  run.whileClaimed(em, async (tx) => void enqueue(tx, { now: () => new Date(server.clock.now().getTime() + 365 * 24 * 3600 * SECOND) }, EFFECT, { by }));

const jobRow = (id: string) => server.em().findOne(Job, { id });

describe('a run that lost its claim', () => {
  it('is discarded once its lease ran out and the job was claimed again: claimed writes refused, signal aborted, no completion', async () => {
    await schedule();
    const first = { entered: gate(), resume: gate(), signal: undefined as AbortSignal | undefined, error: undefined as unknown };
    let calls = 0;
    const handlers: Record<string, JobHandler> = {
      [KIND]: Object.assign(
        async (em: EntityManager, _payload: Record<string, unknown>, _now: Date, job: JobRun) => {
          calls += 1;
          if (calls === 1) {
            first.signal = job.signal;
            first.entered.open();
            await first.resume.opened;
            try {
              await writeEffect(job, em, 'first');
            } catch (error) {
              first.error = error;
              throw error;
            }
            return;
          }
          await writeEffect(job, em, 'second');
        },
        { outsideTransaction: true },
      ),
    };
    const firstRun = run(handlers, LONG_LEASE_MS);
    await first.entered.opened;
    // The first run stalls past its lease (its heartbeat would beat only after 200 s): another takes the job.
    server.clock.advance(LONG_LEASE_MS + SECOND);
    expect(await run(handlers, LONG_LEASE_MS)).toBe(1);
    expect(await effects()).toEqual(['second']);

    first.resume.open();
    expect(await firstRun).toBe(0);
    expect(first.error).toBeInstanceOf(LeaseLost);
    expect(first.signal?.aborted).toBe(true);
    expect(await effects()).toEqual(['second']);
    expect(await server.em().count(Job, { kind: KIND })).toBe(0);
    expect(logs.lines.some((line) => line.includes('lost its claim'))).toBe(true);
  });

  it('does not complete the job that another run holds: that run completes it', async () => {
    const id = await schedule();
    const first = { entered: gate(), resume: gate() };
    const second = { entered: gate(), resume: gate() };
    let calls = 0;
    const handlers: Record<string, JobHandler> = {
      [KIND]: Object.assign(
        async () => {
          const mine = ++calls === 1 ? first : second;
          mine.entered.open();
          await mine.resume.opened;
        },
        { outsideTransaction: true },
      ),
    };
    const firstRun = run(handlers, LONG_LEASE_MS);
    await first.entered.opened;
    server.clock.advance(LONG_LEASE_MS + SECOND);
    const secondRun = run(handlers, LONG_LEASE_MS);
    await second.entered.opened;
    const claimedAgain = await jobRow(id);
    expect(claimedAgain).toMatchObject({ attempts: 2 });

    first.resume.open();
    expect(await firstRun).toBe(0); // its delete matched no row: the claim is the second run's
    expect(await jobRow(id)).toMatchObject({ claim: claimedAgain!.claim, lockedUntil: claimedAgain!.lockedUntil, lastError: null });
    expect(logs.lines.some((line) => line.includes('job finished after another run had claimed it'))).toBe(true);

    second.resume.open();
    expect(await secondRun).toBe(1);
    expect(await jobRow(id)).toBeNull();
  });

  it('does not record its failure over the run that holds the job', async () => {
    const id = await schedule();
    const entered = gate();
    const handlers: Record<string, JobHandler> = {
      [KIND]: Object.assign(
        async (_em: EntityManager, _payload: Record<string, unknown>, _now: Date, job: JobRun) => {
          entered.open();
          // Long work that stops when the claim is lost, as a fetch does.
          await new Promise((_resolve, reject) => job.signal.addEventListener('abort', () => reject(job.signal.reason), { once: true }));
        },
        { outsideTransaction: true },
      ),
    };
    const running = run(handlers, SHORT_LEASE_MS);
    await entered.opened;
    // Another run takes the job (as after a lease that ran out while this one was stalled).
    await server.em().nativeUpdate(Job, { id }, { claim: 'another-run' });
    // Within a heartbeat (a second), the run learns it and stops.
    expect(await running).toBe(0);
    expect(await jobRow(id)).toMatchObject({ claim: 'another-run', lastError: null, attempts: 1 });
  });
});

describe('a run that holds its claim', () => {
  it('keeps its job past the first lease: the heartbeat renews the lease', async () => {
    const id = await schedule();
    const { entered, resume, runs, hold } = heldWork();
    const handlers: Record<string, JobHandler> = { [KIND]: Object.assign(hold, { outsideTransaction: true }) };
    const running = run(handlers, SHORT_LEASE_MS);
    await entered.opened;
    server.clock.advance(2 * SECOND);
    // The next beat (each second of real time) renews the lease from the clock's now.
    const renewedUntil = server.clock.now().getTime() + SHORT_LEASE_MS;
    await vi.waitFor(async () => expect((await jobRow(id))?.lockedUntil?.getTime()).toBe(renewedUntil), { timeout: 10 * SECOND, interval: 50 });
    server.clock.advance(2 * SECOND); // past the first lease, within the renewed one
    expect(await run(handlers, SHORT_LEASE_MS)).toBe(0);
    resume.open();
    expect(await running).toBe(1);
    expect(runs.count).toBe(1);
    expect(await jobRow(id)).toBeNull();
  });

  it("in a transaction, holds its job's row: past its lease nobody claims it, and the job ends with what the transaction wrote", async () => {
    const id = await schedule();
    const { entered, resume, runs, hold } = heldWork();
    const handlers: Record<string, JobHandler> = {
      [KIND]: async (tx: EntityManager, _payload: Record<string, unknown>, _now: Date, job: JobRun) => {
        await hold();
        await writeEffect(job, tx, 'in-transaction');
      },
    };
    const running = run(handlers, LONG_LEASE_MS);
    await entered.opened;
    server.clock.advance(LONG_LEASE_MS + SECOND);
    // On a server the claim skips the locked row at once; the embedded database's one connection
    // waits for the transaction.
    const other = run(handlers, LONG_LEASE_MS);
    if (!embedded) expect(await other).toBe(0);
    resume.open();
    expect(await running).toBe(1);
    expect(await other).toBe(0);
    expect(runs.count).toBe(1);
    expect(await jobRow(id)).toBeNull();
    expect(await effects()).toEqual(['in-transaction']);
  });

  it('in a transaction, writes nothing when it fails: the job is due again after its backoff', async () => {
    const id = await schedule();
    const handlers: Record<string, JobHandler> = {
      [KIND]: async (tx: EntityManager, _payload: Record<string, unknown>, _now: Date, job: JobRun) => {
        await writeEffect(job, tx, 'rolled back');
        throw new Error('failed on purpose');
      },
    };
    expect(await run(handlers, LONG_LEASE_MS)).toBe(0);
    expect(await effects()).toEqual([]);
    expect(await jobRow(id)).toMatchObject({ claim: null, lockedUntil: null, attempts: 1, lastError: 'Error: failed on purpose' });
    expect((await jobRow(id))!.runAt.getTime()).toBe(server.clock.now().getTime() + 2 * SECOND);
  });
});

describe('the worker', () => {
  it('runs one due job after another at once, not one per poll', async () => {
    for (const n of [1, 2, 3]) await schedule({ n });
    const ran: unknown[] = [];
    const worker = startWorker(
      server.deps.orm,
      server.clock,
      { [KIND]: async (_em, payload) => void ran.push(payload.n) },
      { config: server.deps.config, logger: server.deps.logger },
      50,
    );
    try {
      await vi.waitFor(() => expect(ran).toHaveLength(3), { timeout: 10 * SECOND, interval: 20 });
    } finally {
      await worker.stop(AbortSignal.timeout(5 * SECOND));
    }
    expect(await server.em().count(Job, { kind: KIND })).toBe(0);
  });

  it('stopping past its deadline, gives back the job it cut short: another run takes it at once', async () => {
    const id = await schedule();
    const entered = gate();
    let cutShort: unknown;
    const stalled: JobHandler = Object.assign(
      async (_em: EntityManager, _payload: Record<string, unknown>, _now: Date, job: JobRun) => {
        entered.open();
        await new Promise((_resolve, reject) =>
          job.signal.addEventListener('abort', () => {
            cutShort = job.signal.reason;
            reject(job.signal.reason);
          }),
        );
      },
      { outsideTransaction: true },
    );
    const env = { config: { ...server.deps.config, jobLeaseMs: LONG_LEASE_MS }, logger: server.deps.logger };
    const worker = startWorker(server.deps.orm, server.clock, { [KIND]: stalled }, env, 20);
    await entered.opened;
    await worker.stop(AbortSignal.timeout(100));
    expect(cutShort).toBeInstanceOf(LeaseLost);
    // Due again now, its try counted; not after a lease.
    expect(await jobRow(id)).toMatchObject({ claim: null, lockedUntil: null, attempts: 1 });
    expect(await run({ [KIND]: async () => undefined }, LONG_LEASE_MS)).toBe(1);
  });

  it('on the embedded database, gives back at start the jobs the previous process had claimed', async () => {
    if (!embedded) return; // on a server, other instances may be running them: their leases tell
    const id = await schedule();
    // Claimed by a process that died (the data directory's lock says no other process holds it now).
    await server.em().nativeUpdate(Job, { id }, { claim: 'dead-process', lockedUntil: new Date(server.clock.now().getTime() + LONG_LEASE_MS), attempts: 1 });
    const ran: string[] = [];
    const worker = startWorker(
      server.deps.orm,
      server.clock,
      { [KIND]: async () => void ran.push('ran') },
      { config: server.deps.config, logger: server.deps.logger },
      20,
    );
    try {
      await vi.waitFor(() => expect(ran).toEqual(['ran']), { timeout: 10 * SECOND, interval: 20 });
    } finally {
      await worker.stop(AbortSignal.timeout(5 * SECOND));
    }
    expect(await jobRow(id)).toBeNull();
  });
});
