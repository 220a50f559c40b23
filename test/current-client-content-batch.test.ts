/**
 * Navigation meta-links of a page and batches of content changes through the current official client
 * (`@gitbook/api@0.202.0`): previous, next and parent of a page of the live content, of a revision and
 * of a change request; a batch applied to a change request as one revision, all or nothing; with
 * permission denials and bad input, answers validated against that version's reference.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createPage, createSpace, merge, openChangeRequest, updatePage } from './support/content.js';
import { currentClientFor, expectCurrent, expectRefused } from './support/current-client.js';
import { eventsOf, lastEventSeq } from './support/events.js';
import { newOrganizationWithRoles, type Caller } from './support/factories.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();
const clientFor = (caller: Caller) => currentClientFor(server.url, caller);

let organizationId: string;
let admin: Caller;
let edit: Caller;
let read: Caller;
let guest: Caller;
let outsider: Caller;
let spaceId: string;
/** Guide (Install, Secret: hidden, Configure), Reference. */
let guide: string;
let install: string;
let secret: string;
let configure: string;
let reference: string;
/** The space's revision after the first merge. */
let firstMain: string;

type Links = { previous?: { kind: string; page: string }; next?: { kind: string; page: string }; parent?: { kind: string; page: string } };
const ref = (page: string) => ({ kind: 'page', page });

beforeAll(async () => {
  const roles = await newOrganizationWithRoles(server);
  ({ admin, edit, read, guest, outsider } = roles);
  organizationId = roles.organization.id;
  spaceId = (await createSpace(admin, organizationId, 'Handbook')).id;
  const first = await openChangeRequest(admin, spaceId);
  guide = (await createPage(admin, spaceId, first.id, { title: 'Guide', markdown: 'Start.' })).page!.id;
  install = (await createPage(admin, spaceId, first.id, { title: 'Install', parent: guide })).page!.id;
  secret = (await createPage(admin, spaceId, first.id, { title: 'Secret', parent: guide, hidden: true })).page!.id;
  configure = (await createPage(admin, spaceId, first.id, { title: 'Configure', parent: guide })).page!.id;
  reference = (await createPage(admin, spaceId, first.id, { title: 'Reference' })).page!.id;
  expect((await merge(admin, spaceId, first.id)).status).toBe(200);
  firstMain = ((await admin.rest('GET', `/v1/spaces/${spaceId}`)).body as { revision: string }).revision;
});

describe('the current client: page meta-links', () => {
  it('answers the previous and next page in reading order and the parent, skipping hidden pages', async () => {
    const api = clientFor(read).spaces;
    const links = async (page: string) => (await expectCurrent('listSpacePageMetaLinks', api.listSpacePageMetaLinks(spaceId, page))) as Links;
    expect(await links(guide)).toEqual({ next: ref(install) });
    expect(await links(install)).toEqual({ previous: ref(guide), next: ref(configure), parent: ref(guide) });
    expect(await links(configure)).toEqual({ previous: ref(install), next: ref(reference), parent: ref(guide) });
    expect(await links(reference)).toEqual({ previous: ref(configure) });
    // A hidden page has its visible neighbours.
    expect(await links(secret)).toEqual({ previous: ref(install), next: ref(configure), parent: ref(guide) });
  });

  it("answers a revision's and a change request's tree", async () => {
    const cr = await openChangeRequest(edit, spaceId, 'Reorder');
    await updatePage(edit, spaceId, cr.id, secret, { hidden: false });
    const api = clientFor(read).spaces;
    const inChangeRequest = (await expectCurrent('listChangeRequestPageMetaLinks', api.listChangeRequestPageMetaLinks(spaceId, cr.id, secret))) as Links;
    expect(inChangeRequest).toEqual({ previous: ref(install), next: ref(configure), parent: ref(guide) });
    expect(await expectCurrent('listChangeRequestPageMetaLinks', api.listChangeRequestPageMetaLinks(spaceId, cr.id, configure))).toEqual({
      previous: ref(secret),
      next: ref(reference),
      parent: ref(guide),
    });
    // The first merge's revision keeps its own tree, whatever came after it.
    expect(await expectCurrent('listRevisionPageMetaLinks', api.listRevisionPageMetaLinks(spaceId, firstMain, configure))).toEqual({
      previous: ref(install),
      next: ref(reference),
      parent: ref(guide),
    });
  });

  it('refuses unknown pages, revisions and change requests, and callers who cannot read the space', async () => {
    const otherSpace = (await createSpace(admin, organizationId, 'Other')).id;
    const api = clientFor(read).spaces;
    await expectRefused(api.listSpacePageMetaLinks(spaceId, 'no-such-page'), 404);
    await expectRefused(api.listRevisionPageMetaLinks(spaceId, 'no-such-revision', guide), 404);
    await expectRefused(api.listRevisionPageMetaLinks(otherSpace, firstMain, guide), 404);
    await expectRefused(api.listChangeRequestPageMetaLinks(spaceId, 'no-such-change-request', guide), 404);
    for (const caller of [guest, outsider]) {
      await expectRefused(clientFor(caller).spaces.listSpacePageMetaLinks(spaceId, guide), 404);
      await expectRefused(clientFor(caller).spaces.listRevisionPageMetaLinks(spaceId, firstMain, guide), 404);
    }
    expect((await fetch(`${server.url}/v1/spaces/${spaceId}/content/page/${guide}/meta-links`)).status).toBe(401);
  });
});

type Outcome = { object: string; ref?: string; page: string | { object: string; id: string; urls: { location: string } } };
type Update = { changeRequest: { id: string; revision: string }; changes: Outcome[]; insertedFiles?: { id: string; name: string }[] };
type ReadPage = { id: string; title: string; slug: string; path: string; markdown?: string; emoji?: string; hidden: boolean; pages: ReadPage[] };

async function pagesOf(changeRequest: string): Promise<ReadPage[]> {
  const res = await read.rest('GET', `/v1/spaces/${spaceId}/change-requests/${changeRequest}/content/pages`);
  expect(res.status).toBe(200);
  return (res.body as { pages: ReadPage[] }).pages;
}
const titles = (pages: ReadPage[]): unknown[] => pages.map((p) => (p.pages.length ? [p.title, titles(p.pages)] : p.title));
const pngBase64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('the current client: a batch of content changes', () => {
  it('applies inserts, updates, moves and files as one revision, resolving links, and answers the change request', async () => {
    const cr = await openChangeRequest(edit, spaceId, 'Batch');
    const since = await lastEventSeq(server);
    const api = clientFor(edit).spaces;
    const answer = await expectCurrent(
      'updateChangeRequestContent',
      api.updateChangeRequestContent(spaceId, cr.id, {
        changes: [
          {
            operation: 'insert_page',
            into: guide,
            at: 0,
            ref: 'intro',
            document: { markdown: '# Introduction\n\nSee [the diagram](./diagram) and [setup](./setup.md) and [gone](/pages/nowhere).' },
          },
          {
            operation: 'insert_page',
            ref: 'setup',
            title: 'Set up',
            slug: 'setup',
            document: { markdown: '---\nemoji: "🚀"\ndescription: First steps\n---\nBack to [guide](/pages/guide).' },
          },
          { operation: 'update_page', page: reference, title: 'API reference', into: guide, at: 1 },
          { operation: 'update_page', page: install, document: { markdown: `See [config](/pages/${configure}#top).` } },
          { operation: 'insert_files', files: [{ ref: 'diagram', name: 'diagram.png', contentType: 'image/png', base64: pngBase64 }] },
        ],
      }),
    );
    expect(answer).toMatchObject({ id: cr.id, status: 'open' });
    const pages = await pagesOf(cr.id);
    expect(titles(pages)).toEqual([['Guide', ['Introduction', 'API reference', 'Install', 'Secret', 'Configure']], 'Set up']);
    const intro = pages[0].pages[0];
    // The leading heading became the title; refs and page ids became this server's links; an unknown page is plain text.
    expect(intro.markdown).toBe('See [the diagram](/.gitbook/assets/diagram.png) and [setup](/setup.md) and gone.');
    // Renaming without a slug keeps the page's path.
    expect(pages[0].pages[1]).toMatchObject({ id: reference, slug: 'reference', path: 'guide/reference' });
    expect(pages[1]).toMatchObject({ slug: 'setup', emoji: '🚀', markdown: 'Back to [guide](/guide/README.md).' });
    expect(pages[0].pages[2].markdown).toBe('See [config](/guide/configure.md#top).');
    const events = (await eventsOf(server, organizationId, since)).map((e) => e.type);
    expect(events).toEqual(['content.edited']);
  });

  it('answers the affected pages and inserted files with compat=false', async () => {
    const cr = await openChangeRequest(edit, spaceId, 'Batch with outcome');
    const api = clientFor(edit).spaces;
    const found = (await expectCurrent(
      'updateChangeRequestContent',
      api.updateChangeRequestContent(
        spaceId,
        cr.id,
        {
          changes: [
            { operation: 'update_page', page: install, title: 'Installation' },
            { operation: 'insert_page', ref: 'new', title: 'New', document: {} },
            { operation: 'delete_page', page: reference },
            { operation: 'insert_files', files: [{ name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('hi').toString('base64') }] },
            { operation: 'update_page', page: install, hidden: true },
          ],
        },
        { compat: false },
      ),
    )) as unknown as Update;
    expect(found.changeRequest.id).toBe(cr.id);
    const created = found.changes[1].page as { id: string; urls: { location: string } };
    // Locations are on the server's public URL (PUBLIC_URL).
    const pageLocation = (page: string) => `http://docs.test/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${page}`;
    expect(found.changes).toEqual([
      { object: 'updated_page', page: { object: 'page', id: install, urls: { location: pageLocation(install) } } },
      { object: 'created_page', ref: 'new', page: { object: 'page', id: created.id, urls: { location: pageLocation(created.id) } } },
      { object: 'deleted_page', page: reference },
    ]);
    expect(found.insertedFiles).toMatchObject([{ name: 'notes.txt', contentType: 'text/plain', size: 2 }]);
    // Every location resolves on this server.
    const location = new URL(created.urls.location);
    expect((await edit.rest('GET', location.pathname)).body).toMatchObject({ id: created.id, title: 'New' });
    // Reverting: the deleted page comes back, the created one goes, the edited one is as in the base.
    await expectCurrent(
      'updateChangeRequestContent',
      api.updateChangeRequestContent(spaceId, cr.id, {
        changes: [
          { operation: 'revert_page', page: reference },
          { operation: 'revert_page', page: created.id },
          { operation: 'revert_page', page: install, revision: firstMain },
        ],
      }),
    );
    expect(titles(await pagesOf(cr.id))).toEqual([['Guide', ['Install', 'Secret', 'Configure']], 'Reference']);
  });

  it('refuses a batch with one bad change as a whole, and bad input', async () => {
    const cr = await openChangeRequest(edit, spaceId, 'Refused');
    const before = (await edit.rest('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body as { revision: string };
    const since = await lastEventSeq(server);
    const api = clientFor(edit).spaces;
    const bad: unknown[][] = [
      [
        { operation: 'insert_page', title: 'Fine', document: {} },
        { operation: 'delete_page', page: 'no-such-page' },
      ],
      [{ operation: 'update_page', page: guide, into: install }],
      [{ operation: 'insert_page', title: 'Clash', slug: 'guide', document: {} }],
      [{ operation: 'insert_page', document: { document: { nodes: [] } } }],
      [{ operation: 'rename_page', page: guide }],
      [{ operation: 'revert_page', page: guide, block: ['b1'] }],
      [{ operation: 'insert_files', files: [{ name: 'x.png', url: 'https://example.com/x.png' }] }],
      [{ operation: 'update_page', page: guide, condition: 'visitor.claims.beta' }],
      [],
      Array.from({ length: 51 }, () => ({ operation: 'delete_page', page: guide })),
    ];
    for (const changes of bad) await expectRefused(api.updateChangeRequestContent(spaceId, cr.id, { changes: changes as never }), 400);
    const refused = await edit.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes: bad[0] });
    expect(refused.status).toBe(400);
    expect((refused.body as { error: { message: string } }).error.message).toBe('changes[1]: Page not found');
    const after = (await edit.rest('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body as { revision: string };
    expect(after.revision).toBe(before.revision);
    expect(await eventsOf(server, organizationId, since)).toEqual([]);
  });

  it('refuses readers, strangers, unknown and merged change requests', async () => {
    const cr = await openChangeRequest(edit, spaceId, 'Guarded');
    const changes = [{ operation: 'delete_page' as const, page: guide }];
    await expectRefused(clientFor(read).spaces.updateChangeRequestContent(spaceId, cr.id, { changes }), 403);
    for (const caller of [guest, outsider]) await expectRefused(clientFor(caller).spaces.updateChangeRequestContent(spaceId, cr.id, { changes }), 404);
    await expectRefused(clientFor(edit).spaces.updateChangeRequestContent(spaceId, 'no-such-change-request', { changes }), 404);
    expect((await merge(admin, spaceId, cr.id)).status).toBe(200);
    await expectRefused(clientFor(edit).spaces.updateChangeRequestContent(spaceId, cr.id, { changes }), 409);
  });
});
