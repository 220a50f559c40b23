/**
 * Semantic changes through the current official client (`@gitbook/api@0.202.0`): what a revision
 * changed against its parent, and what a change request changes against its base, computed from the
 * stored revisions, with the limit, permission denials and bad input, answers validated against that
 * version's reference.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createPage, createSpace, deletePage, merge, movePage, openChangeRequest, updatePage } from './support/content.js';
import { currentClientFor, expectCurrent, expectRefused } from './support/current-client.js';
import { newOrganizationWithRoles, type Caller } from './support/factories.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();
const clientFor = (caller: Caller) => currentClientFor(server.url, caller);

let admin: Caller;
let read: Caller;
let guest: Caller;
let outsider: Caller;
let spaceId: string;
let otherSpaceId: string;
let guideId: string;
let installId: string;
let oldId: string;
let newId: string;
/** The first change request's revision that created Install; the second change request; the merge of the second. */
let installRevision: string;
let secondChangeRequest: string;
let mergeRevision: string;

async function upload(caller: Caller, space: string, changeRequest: string, name: string, text: string) {
  const res = await caller.gql(`mutation($s: ID!, $c: ID!, $i: UploadFileInput!) { uploadFile(spaceId: $s, changeRequestId: $c, input: $i) { file { id } } }`, {
    s: space,
    c: changeRequest,
    i: { name, content: Buffer.from(text).toString('base64'), contentType: 'text/plain' },
  });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return (res.data as { uploadFile: { file: { id: string } } }).uploadFile.file.id;
}

type Change = {
  type: string;
  page?: { id: string; title: string; path?: string };
  file?: { id: string; name: string };
  attributes?: Record<string, unknown>;
  parent?: Record<string, unknown>;
};
const summary = (changes: unknown[]) => (changes as Change[]).map((c) => [c.type, c.page?.id ?? c.file?.id]);

beforeAll(async () => {
  const roles = await newOrganizationWithRoles(server);
  ({ admin, read, guest, outsider } = roles);
  spaceId = (await createSpace(admin, roles.organization.id, 'Handbook')).id;
  otherSpaceId = (await createSpace(admin, roles.organization.id, 'Other')).id;
  const first = await openChangeRequest(admin, spaceId);
  guideId = (await createPage(admin, spaceId, first.id, { title: 'Guide', markdown: 'Read me.' })).page!.id;
  const install = await createPage(admin, spaceId, first.id, { title: 'Install', parent: guideId, markdown: 'Run it.' });
  installId = install.page!.id;
  installRevision = install.revision.id;
  oldId = (await createPage(admin, spaceId, first.id, { title: 'Old', markdown: 'Gone soon.' })).page!.id;
  await upload(admin, spaceId, first.id, 'notes.txt', 'first');
  expect((await merge(admin, spaceId, first.id)).status).toBe(200);

  const second = await openChangeRequest(admin, spaceId);
  secondChangeRequest = second.id;
  await updatePage(admin, spaceId, second.id, guideId, { title: 'Getting started', markdown: 'Read me first.' });
  await movePage(admin, spaceId, second.id, installId, { parent: null });
  await deletePage(admin, spaceId, second.id, oldId);
  newId = (await createPage(admin, spaceId, second.id, { title: 'New', markdown: 'Fresh.' })).page!.id;
  await upload(admin, spaceId, second.id, 'more.txt', 'second');
});

describe('the current client: semantic changes', () => {
  it('answers what a change request changes against its base: pages edited, moved, created and deleted, files created', async () => {
    const found = await expectCurrent('getChangeRequestChanges', clientFor(read).spaces.getChangeRequestChanges(spaceId, secondChangeRequest, { limit: 100 }));
    const changes = found.changes as Change[];
    expect(summary(changes)).toEqual([
      ['page_edited', guideId],
      ['page_moved', installId],
      ['page_created', newId],
      ['page_deleted', oldId],
      ['file_created', expect.any(String)],
    ]);
    expect(changes[0]).toMatchObject({
      page: { id: guideId, type: 'document', title: 'Getting started', path: 'getting-started' },
      attributes: { title: { before: 'Guide', after: 'Getting started' }, slug: { before: 'guide', after: 'getting-started' }, document: {} },
    });
    expect(Object.keys(changes[0].attributes!).sort()).toEqual(['document', 'slug', 'title']);
    expect(changes[1]).toMatchObject({ page: { id: installId, path: 'install' }, parent: { before: { id: guideId, title: 'Guide' } } });
    expect(changes[1].parent).not.toHaveProperty('after');
    expect(changes[4].file).toMatchObject({ name: 'more.txt', contentType: 'text/plain' });
    expect(found.more).toBeUndefined();
  });

  it("answers what a revision changed against its parent, naming a merge's change request", async () => {
    expect((await merge(admin, spaceId, secondChangeRequest)).status).toBe(200);
    mergeRevision = ((await admin.rest('GET', `/v1/spaces/${spaceId}`)).body as { revision: string }).revision;
    const api = clientFor(read).spaces;
    const merged = await expectCurrent('getRevisionSemanticChanges', api.getRevisionSemanticChanges(spaceId, mergeRevision, { limit: 100 }));
    expect(merged.mergedFrom).toMatchObject({ id: secondChangeRequest, status: 'merged' });
    expect(summary(merged.changes)).toEqual([
      ['page_edited', guideId],
      ['page_moved', installId],
      ['page_created', newId],
      ['page_deleted', oldId],
      ['file_created', expect.any(String)],
    ]);
    const edit = await expectCurrent('getRevisionSemanticChanges', api.getRevisionSemanticChanges(spaceId, installRevision));
    expect(summary(edit.changes)).toEqual([['page_created', installId]]);
    expect(edit.mergedFrom).toBeUndefined();
    expect((edit.changes[0] as Change).page).toMatchObject({ title: 'Install', path: 'guide/install' });
    // The space's first revision has no parent: everything it holds is new.
    const first = ((await admin.rest('GET', `/v1/spaces/${otherSpaceId}`)).body as { revision: string }).revision;
    expect(await expectCurrent('getRevisionSemanticChanges', api.getRevisionSemanticChanges(otherSpaceId, first))).toEqual({ changes: [] });
  });

  it('lists 10 changes unless told otherwise, and says how many more there were; the same to concurrent reads', async () => {
    const api = clientFor(read).spaces;
    const two = await expectCurrent('getRevisionSemanticChanges', api.getRevisionSemanticChanges(spaceId, mergeRevision, { limit: 2 }));
    expect(two).toMatchObject({ more: 3 });
    expect(summary(two.changes)).toEqual([
      ['page_edited', guideId],
      ['page_moved', installId],
    ]);
    const answers = await Promise.all([1, 2, 3].map(() => expectCurrent('getChangeRequestChanges', api.getChangeRequestChanges(spaceId, secondChangeRequest))));
    expect(new Set(answers.map((answer) => JSON.stringify(summary(answer.changes)))).size).toBe(1);
    expect(answers[0].changes).toHaveLength(5);
  });

  it('refuses bad limits, unknown revisions and change requests, and callers who cannot read the space', async () => {
    const api = clientFor(read).spaces;
    await expectRefused(api.getRevisionSemanticChanges(spaceId, mergeRevision, { limit: 0 }), 400);
    await expectRefused(api.getRevisionSemanticChanges(spaceId, mergeRevision, { limit: 1001 }), 400);
    await expectRefused(api.getChangeRequestChanges(spaceId, secondChangeRequest, { limit: 'many' as never }), 400);
    await expectRefused(api.getRevisionSemanticChanges(spaceId, 'no-such-revision'), 404);
    await expectRefused(api.getRevisionSemanticChanges(otherSpaceId, mergeRevision), 404);
    await expectRefused(api.getChangeRequestChanges(spaceId, 'no-such-change-request'), 404);
    await expectRefused(api.getChangeRequestChanges(otherSpaceId, secondChangeRequest), 404);
    for (const caller of [guest, outsider]) {
      await expectRefused(clientFor(caller).spaces.getRevisionSemanticChanges(spaceId, mergeRevision), 404);
      await expectRefused(clientFor(caller).spaces.getChangeRequestChanges(spaceId, secondChangeRequest), 404);
    }
    expect((await fetch(`${server.url}/v1/spaces/${spaceId}/revisions/${mergeRevision}/changes`)).status).toBe(401);
  });
});
