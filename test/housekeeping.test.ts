/**
 * Housekeeping jobs: the vacuum of the embedded database (periodic, and soon after large deletes; left to
 * autovacuum on a PostgreSQL server) and the retention of raw insights events, driven by the manual
 * clock and run with runDueJobs, on the real database.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { embeddedDatabaseOf } from '../src/db/embedded-databases.js';
import { VACUUM_INTERVAL_MS, VACUUM_JOB } from '../src/jobs/vacuum.js';
import { RETENTION_INTERVAL_MS, RETENTION_JOB } from '../src/domain/insights/index.js';
import { Job } from '../src/jobs/entities.js';
import { enqueueUnlessPending } from '../src/jobs/queue.js';
import { newOrganizationWithSpace } from './support/content.js';
import { newOrganizationWithRoles, type Caller } from './support/factories.js';
import { aggregate, siteEvent, track } from './support/insights.js';
import { useTestServer } from './support/server.js';
import { insertSite, type SiteRef } from './support/sites.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const RETENTION_DAYS = 30;

// A job worker that never polls during the tests: the server schedules the housekeeping jobs at
// start as an instance running jobs does, and the tests run them with runDueJobs.
const server = useTestServer({ JOB_POLL_MS: String(DAY), INSIGHTS_RETENTION_DAYS: String(RETENTION_DAYS) });
let embedded: boolean;

beforeAll(async () => {
  embedded = embeddedDatabaseOf(server.em()) !== undefined;
});

/** The pending (unclaimed) jobs of a kind, by when they are due. */
const pending = async (kind: string) =>
  (await server.em().find(Job, { kind, lockedUntil: null }, { orderBy: { runAt: 'asc' } })).map((job) => job.runAt.getTime());

/** A table's statistics (the session's latest counts pushed to them first on the embedded database). */
async function tableStats(table: string): Promise<{ dead: number; vacuums: number; rows: number }> {
  const connection = server.em().getConnection();
  if (embedded) await connection.execute('select pg_stat_force_next_flush()');
  const [stats] = await connection.execute<{ dead: number; vacuums: number; rows: number }[]>(
    `select s.n_dead_tup::int as dead, s.vacuum_count::int as vacuums, greatest(c.reltuples, 0)::int as rows
     from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.schemaname = current_schema() and s.relname = ?`,
    [table],
  );
  return stats;
}

describe('the recurring housekeeping jobs', () => {
  it('keep one run of each scheduled (the vacuum on the embedded database only), each run scheduling the next', async () => {
    const start = server.clock.now().getTime();
    expect(await pending(RETENTION_JOB)).toEqual([start + RETENTION_INTERVAL_MS]);
    expect(await pending(VACUUM_JOB)).toEqual(embedded ? [start + VACUUM_INTERVAL_MS] : []);
    server.clock.advance(RETENTION_INTERVAL_MS);
    await server.runDueJobs();
    const now = server.clock.now().getTime();
    expect(await pending(RETENTION_JOB)).toEqual([now + RETENTION_INTERVAL_MS]);
    expect(await pending(VACUUM_JOB)).toEqual(embedded ? [now + VACUUM_INTERVAL_MS] : []);
    // Nothing more is due: running again does nothing and schedules nothing.
    expect(await server.runDueJobs()).toBe(0);
    expect(await pending(RETENTION_JOB)).toHaveLength(1);
  });

  it('stay one pending run when instances schedule at once (they take turns on an advisory lock)', async () => {
    const kind = 'housekeeping-test';
    const now = server.clock.now();
    // Each from an EntityManager of its own: on a server, each its own connection and transaction.
    await Promise.all(Array.from({ length: 8 }, () => enqueueUnlessPending(server.em(), kind, now, now)));
    expect(await pending(kind)).toEqual([now.getTime()]);
    await server.em().nativeDelete(Job, { kind });
  });
});

describe('the vacuum', () => {
  it("runs soon after a large delete, vacuuming the tables whose dead rows pass autovacuum's threshold; on a server, autovacuum does", async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    const posted = await admin.rest('POST', `/v1/spaces/${space.id}/comments`, { body: { markdown: 'First' } });
    expect(posted.status).toBe(200);
    // Many comments, copied in SQL from the one the API made (every column kept but the id).
    const connection = server.em().getConnection();
    const columns = (
      await connection.execute<{ name: string }[]>(
        `select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = 'comment' order by ordinal_position`,
      )
    ).map((c) => `"${c.name}"`);
    const copied = columns.map((c) => (c === '"id"' ? `"id" || '-' || g` : c));
    await connection.execute(
      `insert into "comment" (${columns.join(', ')}) select ${copied.join(', ')} from "comment", generate_series(1, 400) g where "id" = ?`,
      [posted.body.id],
    );

    expect((await admin.rest('DELETE', `/v1/spaces/${space.id}`)).status).toBe(204);
    const before = await tableStats('comment');
    server.clock.advance(8 * DAY); // past the restore window: the purge deletes the space and its comments
    await server.runDueJobs();
    if (!embedded) {
      expect(await pending(VACUUM_JOB)).toEqual([]);
      await server.runDueJobs();
      expect((await tableStats('comment')).vacuums).toBe(before.vacuums);
      return;
    }
    // The purge brought the vacuum forward to now: it ran in the same pass, right after the purge.
    const after = await tableStats('comment');
    expect(after.dead).toBe(0);
    expect(after.vacuums).toBeGreaterThan(before.vacuums);
    expect(await pending(VACUUM_JOB)).toEqual([server.clock.now().getTime() + VACUUM_INTERVAL_MS]);
    expect(await server.runDueJobs()).toBe(0);
  });

  it('leaves alone the tables below the threshold', async () => {
    if (!embedded) return;
    server.clock.advance(VACUUM_INTERVAL_MS);
    const before = await tableStats('comment');
    await server.runDueJobs();
    expect((await tableStats('comment')).vacuums).toBe(before.vacuums);
  });
});

describe('the retention of raw insights events', () => {
  type Sent = { time: number; visitor: string; browser: 'chrome' | 'firefox' };
  const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0';

  async function countsOf(caller: Caller, site: SiteRef, body: Record<string, unknown>) {
    const res = await aggregate(caller, site, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.columns;
  }

  /** Events of the site stored before or from a time, counted behind the doors. */
  async function stored(siteId: string, condition: 'before' | 'from', time: number): Promise<number> {
    const [row] = await server
      .em()
      .getConnection()
      .execute<{ count: number }[]>(
        `select count(*)::int as count from "insight_event" where "site_id" = ? and "time" ${condition === 'before' ? '<' : '>='} ?`,
        [siteId, new Date(time)],
      );
    return row.count;
  }

  it('deletes the events older than the retention and keeps newer ones; retained ranges answer as before, rollups keep counting older hours', async () => {
    const { admin, organization } = await newOrganizationWithRoles(server);
    const site = await insertSite(server, organization.id);
    const now = Date.UTC(2026, 3, 15, 12, 0); // events over three months and four monthly partitions
    server.clock.set(new Date(now));
    const sent: Sent[] = Array.from({ length: 270 }, (_, i) => ({
      time: now - Math.floor(i / 3) * DAY - (i % 3) * 5 * HOUR - 17 * MINUTE,
      visitor: `visitor-${i % 11}`,
      browser: i % 4 === 0 ? 'firefox' : 'chrome',
    }));
    const events = sent.map((e) =>
      siteEvent({
        timestamp: new Date(e.time).toISOString(),
        session: { visitorId: e.visitor, sessionId: e.visitor, ...(e.browser === 'firefox' ? { userAgent: FIREFOX } : {}) },
      }),
    );
    expect((await track(admin, site, events)).status).toBe(204);

    const retained = { from: new Date(now - 20 * DAY).toISOString(), to: new Date(now).toISOString() };
    const expired = { from: new Date(now - 80 * DAY - 30 * MINUTE).toISOString(), to: new Date(now - 50 * DAY).toISOString() };
    // Raw rows only (distinct visitors and sessions), and over a rollup (events per browser).
    const rawQuery = (range: object) => ({ select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }], range });
    const rollupQuery = (range: object) => ({ select: [{ column: 'eventsCount' }], groupBy: [{ column: 'visitorBrowser' }], range });
    const beforePurge = {
      retainedRaw: await countsOf(admin, site, rawQuery(retained)),
      retainedRollup: await countsOf(admin, site, rollupQuery(retained)),
      expiredRollup: await countsOf(admin, site, rollupQuery(expired)),
    };
    const inExpired = sent.filter((e) => e.time >= Date.parse(expired.from) && e.time < Date.parse(expired.to));
    expect(beforePurge.expiredRollup).toEqual([
      { column: 'eventsCount', values: [inExpired.filter((e) => e.browser === 'chrome').length, inExpired.filter((e) => e.browser === 'firefox').length] },
      { column: 'visitorBrowser', values: ['chrome', 'firefox'] },
    ]);

    // The retention job is overdue (its last run was months ago by this clock); the site's roll-up is not due yet.
    server.clock.set(new Date(now + MINUTE));
    expect((await pending(RETENTION_JOB))[0]).toBeLessThan(now);
    const cutoff = server.clock.now().getTime() - RETENTION_DAYS * DAY;
    const kept = sent.filter((e) => e.time >= cutoff).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(sent.length);
    await server.runDueJobs();

    expect(await stored(site.id, 'before', cutoff)).toBe(0);
    expect(await stored(site.id, 'from', cutoff)).toBe(kept);
    expect(await countsOf(admin, site, rawQuery(retained))).toEqual(beforePurge.retainedRaw);
    expect(await countsOf(admin, site, rollupQuery(retained))).toEqual(beforePurge.retainedRollup);
    // Rolled up before the purge: whole hours of the expired range still count; its partial hour at the start (raw) is gone.
    const afterPurge = await countsOf(admin, site, rollupQuery(expired));
    const wholeHours = inExpired.filter((e) => e.time >= Date.parse(expired.from) + 30 * MINUTE);
    expect(afterPurge).toEqual([
      { column: 'eventsCount', values: [wholeHours.filter((e) => e.browser === 'chrome').length, wholeHours.filter((e) => e.browser === 'firefox').length] },
      { column: 'visitorBrowser', values: ['chrome', 'firefox'] },
    ]);
    // What raw rows alone answer is gone before the cutoff.
    expect(await countsOf(admin, site, rawQuery(expired))).toEqual([
      { column: 'eventsCount', values: [0] },
      { column: 'visitorsCount', values: [0] },
      { column: 'sessionsCount', values: [0] },
    ]);
    expect(await pending(RETENTION_JOB)).toEqual([server.clock.now().getTime() + RETENTION_INTERVAL_MS]);

    // An hour later, what expired meanwhile goes too; nothing newer.
    server.clock.advance(RETENTION_INTERVAL_MS);
    const later = server.clock.now().getTime() - RETENTION_DAYS * DAY;
    await server.runDueJobs();
    expect(await stored(site.id, 'before', later)).toBe(0);
    expect(await stored(site.id, 'from', later)).toBe(sent.filter((e) => e.time >= later).length);
  });
});
