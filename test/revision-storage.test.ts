/**
 * How revisions are stored (content-addressed trees, src/domain/content/tree.ts), on the real
 * database: N edits of one page add O(N) rows and bytes whatever the number of pages of the space,
 * and the migration from whole manifests per revision converts revisions written in the old shape
 * (built here with SQL) so that they read the same through the API, history merges included.
 */
import { describe, expect, it } from 'vitest';
import { newOrganizationWithRoles, type Caller } from './support/factories.js';
import { createPage as createPageIn, editChangeRequest } from '../src/domain/content/index.js';
import { createPage, createSpace, merge, openChangeRequest, updatePage } from './support/content.js';
import { runMigration } from './support/migrations.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await server.em().getConnection().execute(text, params)) as T[];
}

/** Rows and bytes (as PostgreSQL stores each row) of a space's revisions and their trees. */
async function storageOf(spaceId: string) {
  const [row] = await sql<Record<string, string | number>>(
    `select (select count(*) from revision where space_id = ?) as revisions,
       (select count(*) from content_entry where space_id = ?) as entries,
       (select count(*) from content_node where space_id = ?) as nodes,
       (select coalesce(sum(pg_column_size(r.*)), 0) from revision r where space_id = ?)
         + (select coalesce(sum(pg_column_size(e.*)), 0) from content_entry e where space_id = ?)
         + (select coalesce(sum(pg_column_size(n.*)), 0) from content_node n where space_id = ?) as bytes`,
    Array(6).fill(spaceId),
  );
  return { revisions: Number(row.revisions), entries: Number(row.entries), nodes: Number(row.nodes), bytes: Number(row.bytes) };
}

const minus = (a: Awaited<ReturnType<typeof storageOf>>, b: typeof a) => ({
  revisions: a.revisions - b.revisions,
  entries: a.entries - b.entries,
  nodes: a.nodes - b.nodes,
  bytes: a.bytes - b.bytes,
});

describe('revision storage', () => {
  it('stores N edits of one page in O(N) rows and bytes, whatever the number of pages of the space', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const EDITS = 12;
    const added: Record<number, ReturnType<typeof minus>> = {};
    for (const pages of [10, 100]) {
      const space = await createSpace(admin, organization.id);
      const cr = await openChangeRequest(admin, space.id);
      // The pages in one edit, through the service (a hundred requests would only slow the test).
      const { result: ids } = await editChangeRequest(server.context({ user: admin.user, tokenId: 'test' }), space.id, cr.id, (draft) =>
        Array.from({ length: pages }, (_, i) => createPageIn(draft, { title: `Page ${i}`, markdown: `Body ${i}` })),
      );
      const before = await storageOf(space.id);
      for (let i = 0; i < EDITS; i++) await updatePage(admin, space.id, cr.id, ids[0], { markdown: `Edit ${i}` });
      added[pages] = minus(await storageOf(space.id), before);
      const read = await admin.gql(`query($s: ID!, $c: ID!) { changeRequestContent(spaceId: $s, changeRequestId: $c) { pages { title markdown } } }`, {
        s: space.id,
        c: cr.id,
      });
      expect(read.data.changeRequestContent.pages).toHaveLength(pages);
      expect(read.data.changeRequestContent.pages[0]).toEqual({ title: 'Page 0', markdown: `Edit ${EDITS - 1}` });
    }
    for (const pages of [10, 100]) {
      // Each edit: one revision, one entry (the page's new version), its leaf and the branch above it.
      expect(added[pages]).toMatchObject({ revisions: EDITS, entries: EDITS });
      expect(added[pages].nodes).toBeLessThanOrEqual(2 * EDITS);
    }
    // Ten times the pages: one more level of the tree per edit (~1.7× the bytes), where a whole
    // manifest per revision grew with every page (6 KB per edit at 100 pages).
    expect(added[100].bytes).toBeLessThan(2.5 * added[10].bytes);
  });
});

/** Runs the content-tree migration's `up` or `down`. */
const runConversion = (method: 'up' | 'down') => runMigration(server.deps.orm, 'Migration20261201090000', method);

const PAGE = 'id title slug path markdown documentId git { oid path } createdAt updatedAt createdBy { id } updatedBy { id }';
const CONTENT = `pages { ${PAGE} pages { ${PAGE} pages { ${PAGE} } } } files { id name size git { oid path } }`;

async function upload(caller: Caller, spaceId: string, crId: string, name: string) {
  const res = await caller.gql(`mutation($s: ID!, $c: ID!, $i: UploadFileInput!) { uploadFile(spaceId: $s, changeRequestId: $c, input: $i) { file { id } } }`, {
    s: spaceId,
    c: crId,
    i: { name, content: Buffer.from(`bytes of ${name}`).toString('base64'), contentType: 'text/plain' },
  });
  expect(res.errors).toBeUndefined();
  return res.data.uploadFile.file.id as string;
}

describe('migration to content trees', () => {
  it('converts revisions written as whole manifests (old rows built with SQL) so that they read and merge the same', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id, { title: 'Converted' });
    const first = await openChangeRequest(admin, space.id);
    const guide = (await createPage(admin, space.id, first.id, { title: 'Guide', markdown: 'The guide.' })).page!;
    const child = (await createPage(admin, space.id, first.id, { title: 'Child', parent: guide.id, markdown: 'A child.' })).page!;
    const other = (await createPage(admin, space.id, first.id, { title: 'Other', markdown: 'Other page.' })).page!;
    // Same instant: the files keep the order they were added in, not an order of their ids.
    const [alpha, beta] = [await upload(admin, space.id, first.id, 'alpha.txt'), await upload(admin, space.id, first.id, 'beta.txt')];
    expect((await merge(admin, space.id, first.id)).status).toBe(200);
    // A change request left open on the first main revision, while main moves on.
    const open = await openChangeRequest(admin, space.id);
    await updatePage(admin, space.id, open.id, child.id, { markdown: 'The child, rewritten.' });
    const added = (await createPage(admin, space.id, open.id, { title: 'Added', markdown: 'New here.' })).page!;
    const later = await openChangeRequest(admin, space.id);
    await updatePage(admin, space.id, later.id, other.id, { title: 'Other, renamed' });
    expect((await merge(admin, space.id, later.id)).status).toBe(200);
    const copy = await admin.rest('POST', `/v1/spaces/${space.id}/duplicate`);
    expect(copy.status).toBe(201);

    const snapshot = async () => {
      const res = await admin.gql(
        `query($s: ID!, $copy: ID!, $c: ID!) {
          main: space(id: $s) { content { id type parents ${CONTENT} } }
          copy: space(id: $copy) { content { id ${CONTENT} } }
          open: changeRequest(spaceId: $s, changeRequestId: $c) { revision outdated content { id ${CONTENT} } }
        }`,
        { s: space.id, copy: copy.body.id, c: open.id },
      );
      expect(res.errors).toBeUndefined();
      const pages = await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/${open.id}/content/pages`);
      expect(pages.status).toBe(200);
      return { ...res.data, restPages: pages.body };
    };
    const before = await snapshot();
    expect(before.open.content.pages.map((p: { title: string }) => p.title)).toEqual(['Guide', 'Other', 'Added']);
    expect(before.open.content.files.map((f: { id: string }) => f.id)).toEqual([alpha, beta]);

    await runConversion('down');
    // The old shape: each revision's row holds its whole manifest, paths included.
    const [main] = await sql<{ pages: { page: string; path: string; slug: string }[]; files: { file: string }[] }>(
      `select pages, files from revision where id = (select revision from space where id = ?)`,
      [space.id],
    );
    expect(main.pages.map((p) => [p.page, p.path])).toEqual([
      [guide.id, 'guide'],
      [child.id, 'guide/child'],
      [other.id, 'other-renamed'],
    ]);
    expect(main.files.map((f) => f.file)).toEqual([alpha, beta]);
    // A revision written in the old shape: the open change request's content without the added page
    // and with its files in the other order.
    const [{ id: openRevision }] = await sql<{ id: string }>(`select revision as id from change_request where id = ?`, [open.id]);
    await sql(
      `insert into revision (id, organization_id, space_id, parents, type, change_request, created_by, pages, files, created_at)
       select 'oldshape' || id, organization_id, space_id, jsonb_build_array(id), 'edits', change_request, created_by,
         (select jsonb_agg(p order by n) from jsonb_array_elements(pages) with ordinality as x(p, n) where p->>'page' <> ?),
         (select jsonb_agg(f order by n desc) from jsonb_array_elements(files) with ordinality as x(f, n)),
         created_at
       from revision where id = ?`,
      [added.id, openRevision],
    );
    await sql(`update change_request set revision = ? where id = ?`, [`oldshape${openRevision}`, open.id]);
    await runConversion('up');

    const after = await snapshot();
    expect(after.main).toEqual(before.main);
    expect(after.copy).toEqual(before.copy);
    expect(after.open.revision).toBe(`oldshape${openRevision}`);
    expect(after.open.outdated).toBe(true);
    expect(after.open.content.pages).toEqual(before.open.content.pages.filter((p: { id: string }) => p.id !== added.id));
    expect(after.open.content.files).toEqual([...before.open.content.files].reverse());
    expect(after.restPages.pages).toEqual(before.restPages.pages.filter((p: { id: string }) => p.id !== added.id));

    // History still merges: base (the first main revision), the converted change request and main.
    expect((await merge(admin, space.id, open.id)).status).toBe(200);
    const merged = await admin.gql(`query($s: ID!) { space(id: $s) { content { pages { title markdown pages { title markdown } } files { id } } } }`, {
      s: space.id,
    });
    expect(merged.data.space.content).toEqual({
      pages: [
        { title: 'Guide', markdown: 'The guide.', pages: [{ title: 'Child', markdown: 'The child, rewritten.' }] },
        { title: 'Other, renamed', markdown: 'Other page.', pages: [] },
      ],
      files: [{ id: alpha }, { id: beta }],
    });
  });
});
