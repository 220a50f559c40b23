/**
 * Link checks (contract §4.2 space links, §4.6 page links) through both doors on the real database:
 * classification (in-app pages, files and spaces; broken targets; ok external URLs), stats, the status
 * filter, change-request page links with `broken.changeRequest`, and the errors.
 */
import { describe, expect, it } from 'vitest';
import { expectContract, expectError, expectGqlError } from './support/expectations.js';
import { newOrganizationWithRoles, rest } from './support/factories.js';
import { createPage, createSpace, merge, openChangeRequest, updatePage } from './support/content.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452000000030000000208060000', 'hex'), Buffer.alloc(16)]);

type Usage = {
  status: string;
  targetReference: { kind: string; url?: string; page?: { id: string }; file?: { id: string }; space?: { id: string } };
  locationReferences: { kind: string; page: { id: string } }[];
};
const summary = (items: Usage[]) =>
  items.map((u) => [
    u.status,
    u.targetReference.kind,
    u.targetReference.url ?? u.targetReference.page?.id ?? u.targetReference.file?.id ?? u.targetReference.space?.id,
  ]);

async function setup() {
  const team = await newOrganizationWithRoles(server);
  const { organization, admin } = team;
  const other = await createSpace(admin, organization.id, { title: 'Other' });
  const space = await createSpace(admin, organization.id, { title: 'Docs' });
  const cr = await openChangeRequest(admin, space.id);
  const upload = await admin.gql(
    `mutation($s: ID!, $c: ID!, $i: UploadFileInput!) { uploadFile(spaceId: $s, changeRequestId: $c, input: $i) { file { id } } }`,
    {
      s: space.id,
      c: cr.id,
      i: { name: 'diagram.png', content: PNG.toString('base64') },
    },
  );
  const fileId = upload.data.uploadFile.file.id as string;
  const guide = (await createPage(admin, space.id, cr.id, { title: 'Guide', markdown: 'See [setup](setup.md).' })).page!;
  const setupPage = (await createPage(admin, space.id, cr.id, { title: 'Setup', markdown: '' })).page!;
  const markdown = [
    '[back to the guide](guide.md) and [again](./guide.md#intro)',
    '![diagram](.gitbook/assets/diagram.png) ![gone](.gitbook/assets/missing.png)',
    '[nowhere](no-such-page.md)',
    '[external](https://example.com/docs) [mail](mailto:team@example.com)',
    `[other space](http://docs.test/o/${organization.id}/s/${other.id}) [missing space](http://docs.test/o/${organization.id}/s/NOSPACE/x)`,
    `[guide by URL](http://docs.test/o/${organization.id}/s/${space.id}/guide) [bad page by URL](http://docs.test/o/${organization.id}/s/${space.id}/nope)`,
    '[bad](http://) [script](javascript:alert(1))',
  ].join('\n\n');
  await updatePage(admin, space.id, cr.id, setupPage.id, { markdown });
  expect((await merge(admin, space.id, cr.id)).status).toBe(200);
  return { ...team, space, other, guide, setupPage, fileId };
}

describe('space links', () => {
  it('classifies the links of the main content, with stats and the status filter', async () => {
    const { organization, admin, space, other, guide, setupPage, fileId } = await setup();
    const res = await admin.rest('GET', `/v1/spaces/${space.id}/links`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectContract('listSpaceLinks', res);
    expect(summary(res.body.items)).toEqual([
      ['in-app', 'page', setupPage.id],
      ['in-app', 'page', guide.id],
      ['in-app', 'file', fileId],
      ['broken', 'url', '.gitbook/assets/missing.png'],
      ['broken', 'url', 'no-such-page.md'],
      ['ok', 'url', 'https://example.com/docs'],
      ['ok', 'url', 'mailto:team@example.com'],
      ['in-app', 'space', other.id],
      ['broken', 'url', `http://docs.test/o/${organization.id}/s/NOSPACE/x`],
      ['broken', 'url', `http://docs.test/o/${organization.id}/s/${space.id}/nope`],
      ['broken', 'url', 'http://'],
      ['broken', 'url', 'javascript:alert(1)'],
    ]);
    // The guide is linked from two pages (setup links it twice, by path and by URL: one usage each target).
    const toGuide = res.body.items[1] as Usage;
    expect(toGuide.locationReferences.map((l) => [l.kind, l.page.id])).toEqual([['page', setupPage.id]]);
    expect(res.body.stats).toEqual({ total: 12, broken: { total: 6 } });

    const brokenOnly = await admin.rest('GET', `/v1/spaces/${space.id}/links?status=broken&limit=2`);
    expectContract('listSpaceLinks', brokenOnly);
    expect(brokenOnly.body).toMatchObject({ count: 6, stats: { total: 12, broken: { total: 6 } }, next: { page: expect.any(String) } });
    expect(brokenOnly.body.items.every((u: Usage) => u.status === 'broken')).toBe(true);
    const inApp = await admin.gql(`query($s: ID!) { spaceLinks(spaceId: $s, status: "in-app") { count items { targetReference { kind } } } }`, { s: space.id });
    expect(inApp.data.spaceLinks.count).toBe(4);
  });

  it('refuses a bad status, callers without access and unknown spaces', async () => {
    const { admin, outsider, space } = await setup();
    expectError(await admin.rest('GET', `/v1/spaces/${space.id}/links?status=weird`), 400, /^status: must be one of: ok, broken, in-app/);
    expectError(await rest(server, null, 'GET', `/v1/spaces/${space.id}/links`), 401, /Authentication required/);
    expectError(await outsider.rest('GET', `/v1/spaces/${space.id}/links`), 404, /not found/);
    expectError(await admin.rest('GET', `/v1/spaces/NOPE/links`), 404, /not found/);
    expectGqlError(await admin.gql(`query($s: ID!) { spaceLinks(spaceId: $s, limit: 0) { count } }`, { s: space.id }), 'BAD_REQUEST', /^limit/);
  });
});

describe('page links in a change request', () => {
  it('lists the page links and counts the broken ones the change request brought', async () => {
    const { admin, read, space, setupPage, guide } = await setup();
    const cr = await openChangeRequest(admin, space.id);
    await updatePage(admin, space.id, cr.id, guide.id, { markdown: 'See [setup](setup.md), [a typo](setpu.md) and [nowhere](no-such-page.md).' });
    const path = `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${guide.id}/links`;
    const res = await read.rest('GET', path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectContract('listPageLinksInChangeRequest', res);
    expect(summary(res.body.items)).toEqual([
      ['in-app', 'page', setupPage.id],
      ['broken', 'url', 'setpu.md'],
      ['broken', 'url', 'no-such-page.md'],
    ]);
    // Both broken links are new on this page: the main content's guide links to setup only.
    expect(res.body.stats).toEqual({ total: 3, broken: { total: 2, changeRequest: 2 } });
    expect(res.body.items[0].locationReferences[0]).toMatchObject({
      kind: 'page',
      page: { id: guide.id },
      versionContext: { type: 'changeRequest', changeRequest: { id: cr.id } },
    });
    // On the setup page, unchanged, no broken link is the change request's doing.
    const setupLinks = await read.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${setupPage.id}/links`);
    expect(setupLinks.body.stats).toEqual({ total: 11, broken: { total: 6, changeRequest: 0 } });
    expectError(await read.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/NOPAGE/links`), 404, /Page not found/);
  });
});
