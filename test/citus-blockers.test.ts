/**
 * The Citus plan made checkable (docs/scaling.md, "Beyond one PostgreSQL"): reads the catalog of a
 * migrated database and lists what blocks distributing the tenant tables (those with an
 * `organization_id` column) by `organization_id`: primary keys, unique constraints and unique indexes
 * without it, foreign keys between tenant tables without it, and triggers on tenant tables. The count
 * must be the one docs/scaling.md states, so a migration that adds or removes a blocker fails here
 * until the plan says so.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestServer } from './support/server.js';

const server = useTestServer();

/** The statement of docs/scaling.md that this test holds to: "… blocks distribution: N blockers". */
const STATED = /distributing the tenant tables by `organization_id` today: \*\*(\d+) blockers\*\*/;

/**
 * Tables with an `organization_id` column that the plan makes reference tables rather than distribute:
 * `integration` (the catalog of published integrations; its column names the publisher).
 */
const REFERENCE_TABLES = ['integration'];

/** The tables to distribute: those with an `organization_id` column (partitions are their parents'), but reference tables. */
const TENANT_TABLES = `
  select c.oid, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition
    and c.relname <> all(array[${REFERENCE_TABLES.map((name) => `'${name}'`).join(', ')}])
    and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'organization_id' and not a.attisdropped)`;

const BLOCKERS = `
  with tenant as (${TENANT_TABLES}),
  org_column as (select a.attrelid, a.attnum from pg_attribute a join tenant t on t.oid = a.attrelid where a.attname = 'organization_id'),
  columns_of as (
    select i.indexrelid, string_agg(a.attname, ', ' order by k.ord) as names
    from pg_index i cross join lateral unnest(i.indkey) with ordinality k(attnum, ord)
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum group by i.indexrelid)
  select format('%s %s on %s (%s)', case when i.indisprimary then 'primary key' else 'unique' end, ic.relname, t.relname, co.names) as blocker
    from tenant t join pg_index i on i.indrelid = t.oid join pg_class ic on ic.oid = i.indexrelid join columns_of co on co.indexrelid = i.indexrelid
    join org_column oc on oc.attrelid = t.oid
    where i.indisunique and not (oc.attnum = any(i.indkey::int2[]))
  union all
  select format('foreign key %s on %s references %s', f.conname, t.relname, r.relname)
    from pg_constraint f join tenant t on t.oid = f.conrelid join tenant r on r.oid = f.confrelid
    join org_column oc on oc.attrelid = t.oid join org_column orc on orc.attrelid = r.oid
    where f.contype = 'f' and not (oc.attnum = any(f.conkey) and orc.attnum = any(f.confkey))
  union all
  select format('trigger %s on %s', g.tgname, t.relname)
    from pg_trigger g join tenant t on t.oid = g.tgrelid where not g.tgisinternal
  order by 1`;

describe('what blocks distributing the tenant tables by organization_id (Citus)', () => {
  it('is listed from the catalog, and counted as docs/scaling.md states', async () => {
    const connection = server.em().getConnection();
    const tenants = await connection.execute<{ relname: string }[]>(TENANT_TABLES);
    expect(tenants.map((t) => t.relname)).toContain('space');
    const blockers = (await connection.execute<{ blocker: string }[]>(BLOCKERS)).map((row) => row.blocker);
    // Each kind the plan names is there today: the list is read, not assumed empty.
    expect(blockers.some((b) => b.startsWith('primary key '))).toBe(true);
    expect(blockers.some((b) => b.startsWith('trigger '))).toBe(true);
    const stated = STATED.exec(readFileSync(new URL('../docs/scaling.md', import.meta.url), 'utf8'));
    expect(stated, 'docs/scaling.md states the count of blockers').not.toBeNull();
    expect(blockers.length, `docs/scaling.md states ${stated![1]}; the catalog lists:\n${blockers.join('\n')}`).toBe(Number(stated![1]));
  });
});
