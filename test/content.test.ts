/**
 * Change-request content (contract §2.10, §4.6) through both doors on the real database: revision,
 * pages, page by id (markdown / document formats, metadata=false), files (upload, paginated list,
 * download by signed URL, image dimensions, size limit), file backlinks, duplication carrying content,
 * and a change request with its pages and authors at a fixed number of SQL statements.
 */
import { describe, expect, it } from 'vitest';
import { expectContract, expectError, expectGqlError } from './support/expectations.js';
import { newOrganizationWithRoles, type Caller } from './support/factories.js';
import { createPage, createSpace, merge, newOrganizationWithSpace, openChangeRequest } from './support/content.js';
import { useTestServer } from './support/server.js';
import { countStatements } from './support/sql.js';

// Uploads travel as base64 in the GraphQL body: room for the largest file (5 MiB) and one byte more.
const server = useTestServer({ BODY_LIMIT: '8mb' });

// A 3×2 PNG: signature, IHDR with width 3 and height 2 (image-size reads the header only).
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.from('000000030000000208060000', 'hex'), Buffer.alloc(16)]);

async function upload(caller: Caller, spaceId: string, crId: string, name: string, bytes: Buffer, contentType?: string) {
  return caller.gql(
    `mutation($s: ID!, $c: ID!, $i: UploadFileInput!) { uploadFile(spaceId: $s, changeRequestId: $c, input: $i) { file { id name size contentType dimensions { width height } downloadURL } revision { id } } }`,
    { s: spaceId, c: crId, i: { name, content: bytes.toString('base64'), ...(contentType ? { contentType } : {}) } },
  );
}

const content = (spaceId: string, crId: string) => `/v1/spaces/${spaceId}/change-requests/${crId}/content`;

describe('content reads', () => {
  it('answers the revision, the page tree and a page in the reference shapes, in both formats', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    const cr = await openChangeRequest(admin, space.id);
    const guide = (
      await createPage(admin, space.id, cr.id, {
        title: 'Guide',
        emoji: '📘',
        description: 'How to',
        markdown: '# Title\n\nSome **bold** and [a link](https://example.com).\n\n- one\n- two\n\n```js\nlet x;\n```',
        layout: { width: 'wide' },
      })
    ).page!;
    await createPage(admin, space.id, cr.id, { title: 'Child', parent: guide.id, hidden: true });
    const revision = await admin.rest('GET', content(space.id, cr.id));
    expect(revision.status).toBe(200);
    expectContract('getRevisionOfChangeRequestById', revision);
    expect(revision.body).toMatchObject({
      object: 'revision',
      type: 'edits',
      pages: [{ title: 'Guide', pages: [{ title: 'Child', hidden: true, path: 'guide/child' }] }],
      files: [],
    });
    const pages = await admin.rest('GET', `${content(space.id, cr.id)}/pages`);
    expectContract('listPagesInChangeRequest', pages);
    const page = await admin.rest('GET', `${content(space.id, cr.id)}/page/${guide.id}`);
    expectContract('getPageInChangeRequestById', page);
    expect(page.body).toMatchObject({
      id: guide.id,
      kind: 'sheet',
      type: 'document',
      emoji: '📘',
      description: 'How to',
      slug: 'guide',
      path: 'guide',
      layout: { width: 'wide', cover: true },
      git: { path: 'guide/README.md', oid: expect.stringMatching(/^[0-9a-f]{40}$/) },
    });
    expect(page.body.markdown).toContain('Some **bold**');
    const document = await admin.rest('GET', `${content(space.id, cr.id)}/page/${guide.id}?format=document&metadata=false`);
    expectContract('getPageInChangeRequestById', document);
    expect(document.body.markdown).toBeUndefined();
    expect(document.body.git).toBeUndefined();
    expect(document.body.document.nodes.map((n: { type: string }) => n.type)).toEqual(['heading-1', 'paragraph', 'list-unordered', 'code']);
    expectError(await admin.rest('GET', `${content(space.id, cr.id)}/page/${guide.id}?format=pdf`), 400, /format/);
    const byPath = await admin.gql(
      `query($s: ID!, $c: ID!) { changeRequestContent(spaceId: $s, changeRequestId: $c) { page(path: "guide/child") { title } } }`,
      { s: space.id, c: cr.id },
    );
    expect(byPath.data.changeRequestContent.page).toEqual({ title: 'Child' });
  });

  it('keeps a change request with its pages and their authors at a fixed number of SQL statements', async () => {
    const { organization, admin, edit } = await newOrganizationWithRoles(server);
    const query = `query($s: ID!, $c: ID!) { changeRequest(spaceId: $s, changeRequestId: $c) {
      id outdated createdBy { displayName } space { title changeRequestsOpen }
      content { pages { title markdown createdBy { id } updatedBy { id } pages { title updatedBy { id } pages { title } } } files { name } }
    } }`;
    const counts: number[] = [];
    for (const size of [2, 12]) {
      const space = await createSpace(admin, organization.id);
      const cr = await openChangeRequest(admin, space.id);
      for (let i = 0; i < size; i++) {
        const parent = (await createPage(i % 2 ? edit : admin, space.id, cr.id, { title: `Page ${i}`, markdown: `Body ${i}` })).page!;
        await createPage(edit, space.id, cr.id, { title: `Child ${i}`, parent: parent.id });
      }
      let result: any;
      counts.push(await countStatements(async () => void (result = await admin.gql(query, { s: space.id, c: cr.id }))));
      expect(result.errors).toBeUndefined();
      expect(result.data.changeRequest.content.pages).toHaveLength(size);
    }
    expect(counts[1]).toBe(counts[0]);
  });
});

describe('files', () => {
  it('uploads, lists, reads and downloads files, with image dimensions and a size limit', async () => {
    const { admin, outsider, space } = await newOrganizationWithSpace(server);
    const cr = await openChangeRequest(admin, space.id);
    const image = await upload(admin, space.id, cr.id, 'diagram.png', PNG);
    expect(image.errors).toBeUndefined();
    const file = image.data.uploadFile.file;
    expect(file).toMatchObject({ name: 'diagram.png', size: PNG.length, contentType: 'image/png', dimensions: { width: 3, height: 2 } });
    server.clock.advance(1000); // files list oldest first; same-instant uploads would order by random id
    const text = await upload(admin, space.id, cr.id, 'notes.txt', Buffer.from('hello'), 'text/plain');
    expect(text.data.uploadFile.file.dimensions).toBeNull();
    const list = await admin.rest('GET', `${content(space.id, cr.id)}/files?limit=1`);
    expectContract('listFilesInChangeRequestById', list);
    expect(list.body).toMatchObject({ count: 2, items: [{ id: file.id }] });
    const next = await admin.rest('GET', `${content(space.id, cr.id)}/files?limit=1&page=${list.body.next.page}`);
    expect(next.body.items[0].name).toBe('notes.txt');
    const got = await admin.rest('GET', `${content(space.id, cr.id)}/files/${file.id}`);
    expectContract('getFileInChangeRequestById', got);
    expect(got.body.git).toEqual({ oid: expect.any(String), path: '.gitbook/assets/diagram.png' });
    // The signed URL works without a token; a tampered signature does not.
    const url = new URL(got.body.downloadURL);
    const download = await fetch(`${server.url}${url.pathname}${url.search}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG);
    // One character changed, always to a different one (replacing it with a fixed one left 1 in 64 unchanged).
    const signature = url.searchParams.get('signature')!;
    const forged = `${signature[0] === 'x' ? 'y' : 'x'}${signature.slice(1)}`;
    const tampered = await fetch(`${server.url}${url.pathname}?expires=${url.searchParams.get('expires')}&signature=${forged}`);
    expect(tampered.status).toBe(403);
    server.clock.advance(3 * 60 * 60 * 1000);
    expect((await fetch(`${server.url}${url.pathname}${url.search}`)).status).toBe(403);
    // Too large: 413; not base64: 400; nothing changed.
    const before = (await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`)).body.revision;
    expectGqlError(
      await upload(admin, space.id, cr.id, 'big.bin', Buffer.alloc(5 * 1024 * 1024 + 1)),
      'PAYLOAD_TOO_LARGE',
      /content: files are limited to 5242880 bytes/,
    );
    const bad = await admin.gql(
      `mutation($s: ID!, $c: ID!) { uploadFile(spaceId: $s, changeRequestId: $c, input: { name: "x", content: "%%%" }) { revision { id } } }`,
      { s: space.id, c: cr.id },
    );
    expectGqlError(bad, 'BAD_REQUEST', 'content: must be base64');
    expectGqlError(await upload(admin, space.id, cr.id, 'a/b', Buffer.from('x')), 'BAD_REQUEST', /^name:/);
    expect((await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`)).body.revision).toBe(before);
    expectError(await outsider.rest('GET', `${content(space.id, cr.id)}/files/${file.id}`), 404, 'Space not found');
    expectError(await admin.rest('GET', `${content(space.id, cr.id)}/files/nofile`), 404, 'File not found');
    // Removing a file makes a revision without it.
    const removed = await admin.gql(
      `mutation($s: ID!, $c: ID!, $f: ID!) { removeFile(spaceId: $s, changeRequestId: $c, fileId: $f) { revision { files { id } } } }`,
      { s: space.id, c: cr.id, f: text.data.uploadFile.file.id },
    );
    expect(removed.data.removeFile.revision.files).toEqual([{ id: file.id }]);
  });

  it('lists the pages that refer to a file as its backlinks', async () => {
    const { organization, admin, space } = await newOrganizationWithSpace(server);
    const cr = await openChangeRequest(admin, space.id);
    const file = (await upload(admin, space.id, cr.id, 'diagram.png', PNG)).data.uploadFile.file;
    const inline = (await createPage(admin, space.id, cr.id, { title: 'Uses it', markdown: 'See ![diagram](../.gitbook/assets/diagram.png)' })).page!;
    const cover = (await createPage(admin, space.id, cr.id, { title: 'Cover', cover: { file: file.id, yPos: 10 } })).page!;
    await createPage(admin, space.id, cr.id, { title: 'Unrelated', markdown: 'diagram.png is mentioned, not linked' });
    const res = await admin.rest('GET', `${content(space.id, cr.id)}/files/${file.id}/backlinks`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectContract('listChangeRequestFileBacklinks', res);
    expect(res.body.items.map((l: { page: { id: string } }) => l.page.id)).toEqual([inline.id, cover.id]);
    expect(res.body.items[0]).toMatchObject({
      kind: 'page',
      organization: { id: organization.id },
      space: { id: space.id },
      versionContext: { type: 'changeRequest', changeRequest: { id: cr.id } },
    });
  });
});

describe('duplicating and transferring a space carry its content', () => {
  it('copies the main content into the duplicate', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    const cr = await openChangeRequest(admin, space.id);
    await upload(admin, space.id, cr.id, 'diagram.png', PNG);
    await createPage(admin, space.id, cr.id, { title: 'Kept', markdown: 'copied body' });
    await merge(admin, space.id, cr.id);
    const copy = await admin.rest('POST', `/v1/spaces/${space.id}/duplicate`);
    expect(copy.status).toBe(201);
    const read = await admin.gql(`query($id: ID!) { space(id: $id) { changeRequests content { pages { title markdown } files { name size } } } }`, {
      id: copy.body.id,
    });
    expect(read.data.space).toEqual({
      changeRequests: 0,
      content: { pages: [{ title: 'Kept', markdown: 'copied body' }], files: [{ name: 'diagram.png', size: PNG.length }] },
    });
  });
});
