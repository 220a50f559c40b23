/**
 * Secrets never reach the logs: real requests carrying each kind of secret a URL of this server can
 * hold (share keys, signed download and PDF URLs, invite-link ids, GraphQL GET variables, a token put
 * in the URL), and an error quoting a URL with credentials, logged at `info` into memory. No line holds
 * a secret, and the request lines still name their route.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPage, createSpace, openChangeRequest } from './support/content.js';
import { newOrganizationWithRoles, newUser, rest } from './support/factories.js';
import { createInviteLink } from './support/people.js';
import { useTestServer } from './support/server.js';
import { insertSite, siteBase } from './support/sites.js';
import { capturedLogs } from './support/logs.js';

const { logger, lines } = capturedLogs('info');
const server = useTestServer({}, { logger });
beforeEach(() => {
  lines.length = 0;
});

/** The logged URLs of the requests answered (their `request completed` lines). */
const loggedUrls = () =>
  lines
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.req?.url)
    .map((entry) => entry.req.url as string);

/** No log line holds any of the secrets; each pattern matches the URL of a logged request. */
function expectRedacted(secrets: string[], routes: RegExp[]) {
  const text = lines.join('\n');
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(8);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(encodeURIComponent(secret));
  }
  const urls = loggedUrls();
  for (const route of routes)
    expect(
      urls.some((url) => route.test(url)),
      `${route} among ${JSON.stringify(urls)}`,
    ).toBe(true);
}

/** Path and query of a URL this server handed out (built on PUBLIC_URL), requested on the test server. */
const fetchLocal = (url: string) => {
  const { pathname, search } = new URL(url);
  return fetch(`${server.url}${pathname}${search}`);
};

describe('request logs', () => {
  it('redact share keys in query strings, through REST and GraphQL GET, keeping the other parameters', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const site = await insertSite(server, organization.id, { visibility: 'share-link' });
    const space = await createSpace(admin, organization.id, { title: 'Partner guide' });
    expect((await admin.rest('POST', `${siteBase(site)}/site-spaces`, { spaceId: space.id })).status).toBe(201);
    const link = await admin.rest('POST', `${siteBase(site)}/share-links`, { name: 'Partners' });
    const key = new URL(link.body.urls.published).searchParams.get('shareKey')!;
    const visitor = await newUser(server);

    expect((await visitor.rest('GET', `/v1/spaces/${space.id}?shareKey=${encodeURIComponent(key)}`)).status).toBe(200);
    expect((await visitor.rest('GET', `${siteBase(site)}/site-spaces?limit=5&shareKey=${encodeURIComponent(key)}`)).status).toBe(200);
    const query = encodeURIComponent('query Shared($id: ID!, $k: String) { space(id: $id, shareKey: $k) { id } }');
    const variables = encodeURIComponent(JSON.stringify({ id: space.id, k: key }));
    const viaGet = await rest(server, visitor.token, 'GET', `/graphql?query=${query}&variables=${variables}&operationName=Shared`, undefined, {
      'apollo-require-preflight': 'true',
    });
    expect(viaGet.body.data, JSON.stringify(viaGet.body)).toEqual({ space: { id: space.id } });

    expectRedacted(
      [key],
      [
        new RegExp(`^/v1/spaces/${space.id}\\?shareKey=\\[redacted\\]$`),
        new RegExp(`^${siteBase(site).replace(/[/]/g, '\\/')}/site-spaces\\?limit=5&shareKey=\\[redacted\\]$`),
        /^\/graphql\?query=\[redacted\]&variables=\[redacted\]&operationName=Shared$/,
      ],
    );
  });

  it('redact the signatures of file download and PDF URLs', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id, { title: 'Handbook' });
    const cr = await openChangeRequest(admin, space.id);
    await createPage(admin, space.id, cr.id, { title: 'Introduction', markdown: 'Welcome aboard.' });
    const uploaded = await admin.gql(
      `mutation($s: ID!, $c: ID!, $i: UploadFileInput!) { uploadFile(spaceId: $s, changeRequestId: $c, input: $i) { file { downloadURL } } }`,
      { s: space.id, c: cr.id, i: { name: 'notes.txt', content: Buffer.from('hello').toString('base64') } },
    );
    const downloadUrl = new URL(uploaded.data.uploadFile.file.downloadURL);
    const pdfUrl = new URL((await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/pdf`)).body.url);

    expect((await fetchLocal(downloadUrl.href)).status).toBe(200);
    expect((await fetchLocal(pdfUrl.href)).status).toBe(200);
    // A wrong signature is answered 403 and logged at warn: redacted too.
    expect((await fetchLocal(pdfUrl.href.replace(/signature=[^&]+/, 'signature=forged-signature-value'))).status).toBe(403);

    const signatures = [downloadUrl.searchParams.get('signature')!, pdfUrl.searchParams.get('signature')!, 'forged-signature-value'];
    const expires = downloadUrl.searchParams.get('expires');
    expectRedacted(signatures, [
      new RegExp(`^${downloadUrl.pathname.replace(/[.]/g, '\\.')}\\?expires=${expires}&signature=\\[redacted\\]$`),
      new RegExp(`^/pdf/${space.id}\\?revision=\\w+&expires=\\d+&signature=\\[redacted\\]$`),
    ]);
  });

  it('redact invite-link ids, the join secret, in /link-invites/{inviteId}', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const link = await createInviteLink(admin, organization.id, { role: 'read' });
    const path = `/v1/orgs/${organization.id}/link-invites/${link.id}`;
    expect((await admin.rest('GET', path)).status).toBe(200);
    expect((await admin.rest('PATCH', path, { role: 'edit' })).status).toBe(200);
    expect((await admin.rest('DELETE', path)).status).toBe(204);
    expect((await admin.rest('GET', path)).status).toBe(404);
    expectRedacted([link.id], [new RegExp(`^/v1/orgs/${organization.id}/link-invites/\\[redacted\\]$`)]);
    const methods = lines
      .map((line) => JSON.parse(line))
      .filter((e) => e.req?.url?.includes('link-invites'))
      .map((e) => e.req.method);
    expect(methods).toEqual(['GET', 'PATCH', 'DELETE', 'GET']);
  });

  it('redact an API token put in the URL instead of the Authorization header', async () => {
    const caller = await newUser(server);
    expect((await rest(server, null, 'GET', `/v1/user?access_token=${caller.token}`)).status).toBe(401);
    expectRedacted([caller.token], [/^\/v1\/user\?access_token=\[redacted\]$/]);
  });
});

describe('error logs', () => {
  it('quote a URL that failed without its credentials', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const url = 'http://reader:hunter2-password@no-such-host.invalid/spec.json?token=spec-access-token';
    expect((await admin.rest('POST', `/v1/orgs/${organization.id}/openapi`, { slug: 'private-spec', source: { url } })).status).toBe(201);
    for (let i = 0; i < 5 && (await server.runDueJobs()) > 0; i++);
    const failure = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'OpenAPI specification not processed');
    // The reason names the host alone (it does not resolve), never the URL's credentials.
    expect(failure?.reason).toContain('no-such-host.invalid does not resolve');
    expectRedacted(['hunter2-password', 'spec-access-token'], []);
  });
});
