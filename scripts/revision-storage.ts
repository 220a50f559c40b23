/**
 * `npm run measure:revisions`: how many bytes a revision costs. Makes a space of PAGES pages (default
 * 100) in one change request, then edits one page EDITS times (default 200), each edit a revision, and
 * prints the bytes the edits added to the revision storage (every table that holds revisions or their
 * page lists) and to the page versions, per edit. Runs on DATABASE_URL, or on a fresh embedded database.
 */
import { rmSync } from 'node:fs';
import { systemClock } from '../src/kernel/clock.js';
import { readRows } from '../src/db/statements.js';
import sql from 'sql-template-tag';
import { createOrganization } from '../src/domain/organizations/index.js';
import { createApiToken, createUser } from '../src/domain/users/index.js';
import { newId } from '../src/kernel/ids.js';
import { startBenchServer } from './bench-server.js';

const pages = Number(process.env.PAGES ?? 100);
const edits = Number(process.env.EDITS ?? 200);

const { server, config, embeddedDir } = await startBenchServer('revisions');
const em = server.deps.orm.em.fork();
const owner = await createUser(em, systemClock, { email: `revisions-${newId().toLowerCase()}@example.com`, displayName: 'Measure' });
const { secret } = await createApiToken(em, systemClock, owner.id, 'measure');
const organization = await createOrganization(em, systemClock, owner.id, { title: 'Storage' });

async function gql(query: string, variables: Record<string, unknown>) {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = await res.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

async function rest(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Tables of the revision storage in either shape (the old one has no tree tables). */
const REVISION_TABLES = ['revision', 'content_entry', 'content_node'];

async function bytes(spaceId: string) {
  const [row] = await readRows<{ tables: string; rows: string; versions: string }>(
    em,
    sql`select
       (select coalesce(sum(pg_total_relation_size(to_regclass(t))), 0) from unnest(${REVISION_TABLES}::text[]) t)::text as "tables",
       (select coalesce(sum(pg_column_size(r.*)), 0) from revision r where r.space_id = ${spaceId})
         + (select coalesce(sum(pg_column_size(e.*)), 0) from content_entry e where e.space_id = ${spaceId})
         + (select coalesce(sum(pg_column_size(n.*)), 0) from content_node n where n.space_id = ${spaceId}) as "rows",
       (select coalesce(sum(pg_column_size(v.*)), 0) from page_version v where v.space_id = ${spaceId})::text as "versions"`,
  ).catch(async () =>
    // The old shape has no tree tables to name in the row sum.
    readRows<{ tables: string; rows: string; versions: string }>(
      em,
      sql`select
         (select coalesce(sum(pg_total_relation_size(to_regclass(t))), 0) from unnest(${REVISION_TABLES}::text[]) t)::text as "tables",
         (select coalesce(sum(pg_column_size(r.*)), 0) from revision r where r.space_id = ${spaceId})::text as "rows",
         (select coalesce(sum(pg_column_size(v.*)), 0) from page_version v where v.space_id = ${spaceId})::text as "versions"`,
    ),
  );
  return { tables: Number(row.tables), rows: Number(row.rows), versions: Number(row.versions) };
}

const space = await rest('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Measured' });
const cr = await rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Pages' });
const create = `mutation($s: ID!, $c: ID!, $input: CreatePageInput!) { createPage(spaceId: $s, changeRequestId: $c, input: $input) { page { id } } }`;
const update = `mutation($s: ID!, $c: ID!, $p: ID!, $input: UpdatePageInput!) { updatePage(spaceId: $s, changeRequestId: $c, pageId: $p, input: $input) { page { id } } }`;
let edited = '';
for (let i = 0; i < pages; i++) {
  const created = await gql(create, { s: space.id, c: cr.id, input: { title: `Page ${i}`, markdown: `Body of page ${i}.` } });
  if (i === Math.floor(pages / 2)) edited = created.createPage.page.id;
}
const before = await bytes(space.id);
for (let i = 0; i < edits; i++) await gql(update, { s: space.id, c: cr.id, p: edited, input: { markdown: `Edit ${i} of the page.` } });
const after = await bytes(space.id);

const per = (a: number, b: number) => ((b - a) / edits).toFixed(0).padStart(7);
console.log(`database: ${config.databaseUrl ? 'PostgreSQL server' : 'embedded (PGlite)'}; a space of ${pages} pages, one page edited ${edits} times`);
console.log(`revision storage, row bytes per edit:          ${per(before.rows, after.rows)} B`);
console.log(`revision storage, table+index bytes per edit:  ${per(before.tables, after.tables)} B (pg_total_relation_size, 8 KB pages)`);
console.log(`page versions, row bytes per edit:             ${per(before.versions, after.versions)} B (one new version per edit, either shape)`);

await server.stop();
if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
