/**
 * Website import into a change request (contract §4.6) through both doors on the real database: a
 * local site (node:http, allowed through FETCH_ALLOW_PRIVATE) crawled within the page, depth, size
 * and time bounds; refused private and loopback addresses (literal, after DNS, on redirects); a site
 * that never answers; bad input and callers without access.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContract, expectError, expectGqlError } from './support/expectations.js';
import { newOrganizationWithRoles, rest, type Caller } from './support/factories.js';
import { createSpace, openChangeRequest } from './support/content.js';
import { type TestServer, useTestServer } from './support/server.js';

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title><script>alert(1)</script></head>
<body><nav><a href="/">Home</a> Site menu</nav><main><h1>${title}</h1>${body}</main><footer>© Footer text</footer></body></html>`;

const SITE: Record<string, string> = {
  '/': page(
    'Welcome',
    '<p>Start <strong>here</strong>.</p><ul><li><a href="/guide">Guide</a></li><li><a href="/about#team">About</a></li><li><a href="https://example.com/">Elsewhere</a></li><li><a href="/data.json">Data</a></li></ul>',
  ),
  '/guide': page('Guide', '<h2>Install</h2><pre><code>npm install</code></pre><p><a href="/guide/deep">Deeper</a></p>'),
  '/about': page('About us', '<p>We write docs.</p>'),
  '/guide/deep': page('Deep page', '<p>Too deep for depth 1 <a href="/guide/deeper">deeper</a></p>'),
  '/big': page('Big', `<p>${'x'.repeat(5000)}</p>`),
};

let site: Server;
let siteUrl: string;
const server = useTestServer({
  FETCH_ALLOW_PRIVATE: '127.0.0.1',
  IMPORT_MAX_PAGES: '4',
  IMPORT_MAX_DEPTH: '1',
  IMPORT_MAX_BYTES: '4096',
  IMPORT_TIMEOUT_MS: '1500',
});
const strict = useTestServer({ IMPORT_TIMEOUT_MS: '1500' });

beforeAll(async () => {
  site = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/hang') return; // never answers
    if (path === '/to-private') return res.writeHead(302, { location: 'http://10.0.0.1/' }).end();
    if (path === '/to-home') return res.writeHead(301, { location: '/' }).end();
    if (path === '/data.json') return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    if (path === '/many')
      return res.writeHead(200, { 'content-type': 'text/html' }).end(page('Many', [1, 2, 3, 4, 5, 6].map((n) => `<a href="/about?n=${n}">${n}</a>`).join(' ')));
    if (path === '/with-big')
      return res.writeHead(200, { 'content-type': 'text/html' }).end(page('Has big', '<a href="/big">big</a> <a href="/about">about</a>'));
    const html = SITE[path];
    if (!html) return res.writeHead(404).end('no');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => {
  site?.closeAllConnections();
  site?.close();
});

async function changeRequest(on: TestServer) {
  const team = await newOrganizationWithRoles(on);
  const space = await createSpace(team.admin, team.organization.id);
  const cr = await openChangeRequest(team.admin, space.id);
  return { ...team, space, cr, path: `/v1/spaces/${space.id}/change-requests/${cr.id}/content/import` };
}

type Page = { title: string; markdown?: string; pages: Page[] };

async function pagesOf(caller: Caller, spaceId: string, crId: string) {
  const res = await caller.gql(
    `query($s: ID!, $c: ID!) { changeRequestPages(spaceId: $s, changeRequestId: $c) { pages { title markdown pages { title markdown pages { title } } } } }`,
    { s: spaceId, c: crId },
  );
  return res.data.changeRequestPages.pages as Page[];
}

describe('website import', () => {
  it('imports the page and the same-site pages it links to, as markdown, within the depth', async () => {
    const { admin, space, cr, path } = await changeRequest(server);
    const res = await admin.rest('POST', path, { url: `${siteUrl}/`, source: 'website' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expectContract('importContentInChangeRequest', res);
    // Found: /, /guide, /about and /data.json (not HTML: skipped); depth 1 leaves the links of /guide unfollowed.
    expect(res.body).toMatchObject({ importedResources: 3, totalResources: 4 });
    const change = await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`);
    expect(change.body.revision).toBe(res.body.revision);
    const pages = await pagesOf(admin, space.id, cr.id);
    expect(pages.map((p) => [p.title, p.pages.map((c) => c.title)])).toEqual([['Welcome', ['Guide', 'About us']]]);
    const [welcome] = pages;
    expect(welcome.markdown).toContain('Start **here**.');
    expect(welcome.markdown).toContain(`[Guide](/guide)`);
    expect(welcome.markdown).not.toMatch(/Site menu|Footer text|alert|# Welcome/);
    expect(welcome.pages[0].markdown).toContain('## Install');
    expect(welcome.pages[0].markdown).toContain('```\nnpm install\n```');
  });

  it('skips pages over the size bound and follows redirects on the same site', async () => {
    const { admin, space, cr, path } = await changeRequest(server);
    const res = await admin.gql(
      `mutation($s: ID!, $c: ID!, $i: ImportContentInput!) { importContent(spaceId: $s, changeRequestId: $c, input: $i) { importedResources totalResources } }`,
      {
        s: space.id,
        c: cr.id,
        i: { url: `${siteUrl}/with-big`, source: 'website' },
      },
    );
    // Found: /with-big, its menu's /, /big (over 4096 bytes: skipped) and /about.
    expect(res.data.importContent).toEqual({ importedResources: 3, totalResources: 4 });
    expect((await pagesOf(admin, space.id, cr.id))[0].pages.map((p) => p.title)).toEqual(['Welcome', 'About us']);
    const redirected = await admin.rest('POST', path, { url: `${siteUrl}/to-home`, source: 'website' });
    expect(redirected.status).toBe(201);
    expect((await pagesOf(admin, space.id, cr.id)).map((p) => p.title)).toEqual(['Has big', 'Welcome']);
  });

  it('stops at the page bound', async () => {
    const { admin, path } = await changeRequest(server);
    const res = await admin.rest('POST', path, { url: `${siteUrl}/many`, source: 'website' });
    expect(res.body).toEqual({ revision: expect.any(String), importedResources: 4, totalResources: 8 });
  });

  it('refuses private and loopback addresses, before and after DNS and on redirects', async () => {
    const { admin, path } = await changeRequest(strict);
    expectError(await admin.rest('POST', path, { url: `${siteUrl}/`, source: 'website' }), 400, /^url: 127\.0\.0\.1 is a loopback address/);
    expectError(
      await admin.rest('POST', path, { url: `http://localhost:${new URL(siteUrl).port}/`, source: 'website' }),
      400,
      /^url: localhost is at .*, a loopback address/,
    );
    expectError(await admin.rest('POST', path, { url: 'http://10.1.2.3/', source: 'website' }), 400, /^url: 10\.1\.2\.3 is a private address/);
    expectError(await admin.rest('POST', path, { url: 'http://[::1]/', source: 'website' }), 400, /^url: ::1 is a loopback address/);
    const allowed = await changeRequest(server);
    expectError(
      await allowed.admin.rest('POST', allowed.path, { url: `${siteUrl}/to-private`, source: 'website' }),
      400,
      /^url: 10\.0\.0\.1 is a private address/,
    );
  });

  it('gives up on a site that never answers', async () => {
    const { admin, space, cr, path } = await changeRequest(server);
    const started = Date.now();
    expectError(await admin.rest('POST', path, { url: `${siteUrl}/hang`, source: 'website' }), 400, /^url: .*\/hang did not answer in time/);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await pagesOf(admin, space.id, cr.id)).toEqual([]);
  });

  it('refuses bad input and callers without the edit role', async () => {
    const { admin, read, outsider, path, space } = await changeRequest(server);
    expectError(await admin.rest('POST', path, { url: 'ftp://example.com/', source: 'website' }), 400, /^url: only http and https/);
    expectError(await admin.rest('POST', path, { url: 'not a url', source: 'website' }), 400, 'url: must be a URL');
    expectError(await admin.rest('POST', path, { url: `${siteUrl}/`, source: 'notion' }), 400, 'source: only "website" is supported by this server');
    expectError(await admin.rest('POST', path, { url: `${siteUrl}/`, source: 'nope' }), 400, /^source: must be one of/);
    expectError(await admin.rest('POST', path, { source: 'website' }), 400, /url/);
    expectError(await rest(server, null, 'POST', path, { url: `${siteUrl}/`, source: 'website' }), 401, /Authentication required/);
    expectError(await read.rest('POST', path, { url: `${siteUrl}/`, source: 'website' }), 403, /.+/);
    expectError(await outsider.rest('POST', path, { url: `${siteUrl}/`, source: 'website' }), 404, /not found/);
    expectError(
      await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/NOPE/content/import`, { url: `${siteUrl}/`, source: 'website' }),
      404,
      /not found/,
    );
    expectGqlError(
      await admin.gql(`mutation($s: ID!) { importContent(spaceId: $s, changeRequestId: "NOPE", input: { url: "http://x", source: "website" }) { revision } }`, {
        s: space.id,
      }),
      'NOT_FOUND',
    );
  });
});
