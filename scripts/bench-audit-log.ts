/**
 * `npm run bench:audit-log`: the audit log's queries on a large outbox. Fills `domain_event` with
 * BENCH_EVENTS events (default 100,000; half of them in one organization, the rest spread over 19
 * others, 50 actors, every type of the catalogue), analyzes it, then prints for each filter the plan
 * of a first page and of a later page (EXPLAIN ANALYZE): which index it reads, the rows it touches, its
 * time. Run it on a PostgreSQL server (DATABASE_URL) for plans that mean something.
 */
import { rmSync } from 'node:fs';
import sql, { raw, type Sql } from 'sql-template-tag';
import { auditLogQuery, type AuditLogFilter } from '../src/domain/audit/index.js';
import { execute, executeReturning, readRows } from '../src/db/statements.js';
import { EVENT_TYPES } from '../src/events/types.js';
import { startBenchServer } from './bench-server.js';

const events = Number(process.env.BENCH_EVENTS ?? 100_000);
const { server, embeddedDir } = await startBenchServer('audit-log');
const em = server.deps.orm.em.fork();
const types = Object.keys(EVENT_TYPES);

await execute(em, sql`delete from "domain_event"`);
// Event i: organization `org-0` for even i, else one of 19 others; actor i % 50; target ids of its own and a shared space.
await execute(
  em,
  sql`insert into "domain_event" ("id", "type", "organization_id", "actor_user_id", "actor_token_id", "client_ip", "door", "operation",
     "outcome", "target", "target_ids", "payload", "occurred_at", "dispatched_at")
   select 'ev-' || i, ${JSON.stringify(types)}::json ->> (i % ${types.length}), case when i % 2 = 0 then 'org-0' else 'org-' || (1 + i % 19) end,
     'user-' || (i % 50), 'token-' || (i % 50), '127.0.0.1', 'rest', 'postCommentInSpace',
     case when i % 25 = 0 then 'denied' else 'succeeded' end,
     jsonb_build_object('spaceId', 'space-' || (i % 200), 'commentId', 'comment-' || i),
     array['space-' || (i % 200), 'comment-' || i], '{}'::jsonb,
     timestamptz '2026-01-01' + i * interval '1 minute', timestamptz '2026-01-01' + i * interval '1 minute'
   from generate_series(1, ${events}) as i`,
);
await execute(em, sql`analyze "domain_event"`);

const [{ middle } = { middle: 0 }] = await executeReturning<{ middle: string }>(
  em,
  sql`select percentile_disc(0.5) within group (order by "seq") as "middle" from "domain_event" where "organization_id" = 'org-0'`,
);
const filters: [string, AuditLogFilter][] = [
  ['organization only', { organizationId: 'org-0' }],
  ['by type', { organizationId: 'org-0', type: types[0] }],
  ['by actor', { organizationId: 'org-0', actor: 'user-8' }],
  ['by target (a space)', { organizationId: 'org-0', target: 'space-42' }],
  ['by target (one comment)', { organizationId: 'org-0', target: 'comment-5000' }],
  ['by time (a day)', { organizationId: 'org-0', from: new Date('2026-02-01'), to: new Date('2026-02-02') }],
  ['by outcome denied', { organizationId: 'org-0', outcome: 'denied' }],
  ['by time (a year)', { organizationId: 'org-0', from: new Date('2026-01-01'), to: new Date('2027-01-01') }],
  // A small organization (1/38 of the events): its own index, not the others' rows.
  ['small organization only', { organizationId: 'org-7' }],
  ['small organization by target (a space)', { organizationId: 'org-7', target: 'space-43' }],
  ['small organization by outcome denied', { organizationId: 'org-7', outcome: 'denied' }],
];

const plan = async (statement: Sql) =>
  (await readRows<{ 'QUERY PLAN': string }>(em, sql`explain (analyze, buffers, costs off) ${statement}`)).map((row) => row['QUERY PLAN']);

console.log(`${events} events (${events / 2} in the organization listed); page of 50\n`);
for (const [name, filter] of filters) {
  const list = auditLogQuery(filter);
  for (const [which, after] of [
    ['first page', sql``],
    ['a later page', sql`and e."seq" < ${Number(middle)}`],
  ] as const) {
    const statement = sql`select e."id" from "domain_event" e where ${list.where} ${after} order by ${raw('e."seq" desc')} limit 51`;
    console.log(`── ${name}, ${which}`);
    const lines = await plan(statement);
    // The plan's nodes and what they touched; the planning lines say little here.
    for (const line of lines.filter((l) => !/^\s*(Planning|Buffers: shared hit=\d+$)/.test(l) || /->|Limit/.test(l))) console.log(`   ${line}`);
  }
}

await server.stop();
if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
