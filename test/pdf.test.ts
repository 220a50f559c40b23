/**
 * PDF export of a change request (contract §4.4) through both doors on the real database: the signed
 * URL, the PDF it serves opened and read back (all pages, a page with its descendants, one page only),
 * expiry and tampering, and the errors.
 */
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { expectContract, expectError, expectGqlError } from './support/expectations.js';
import { newOrganizationWithRoles, rest } from './support/factories.js';
import { createPage, createSpace, openChangeRequest } from './support/content.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

/** Fetches a URL of the test server (PUBLIC_URL is http://docs.test) and returns the PDF's text. */
async function pdfText(url: string): Promise<{ status: number; type: string | null; text: string; pages: number }> {
  const local = url.replace('http://docs.test', server.url);
  const res = await fetch(local);
  if (res.status !== 200) return { status: res.status, type: res.headers.get('content-type'), text: await res.text(), pages: 0 };
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
  const { text, totalPages } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return { status: res.status, type: res.headers.get('content-type'), text, pages: totalPages };
}

async function setup() {
  const team = await newOrganizationWithRoles(server);
  const space = await createSpace(team.admin, team.organization.id, { title: 'Handbook' });
  const cr = await openChangeRequest(team.admin, space.id);
  const intro = (await createPage(team.admin, space.id, cr.id, { title: 'Introduction', markdown: 'Welcome aboard.\n\n## Goals\n\n- Ship\n- Learn' })).page!;
  const deploy = (
    await createPage(team.admin, space.id, cr.id, { title: 'Deployment', description: 'Getting it live', markdown: 'Run the server.\n\n```sh\nnpm start\n```' })
  ).page!;
  const child = (await createPage(team.admin, space.id, cr.id, { title: 'Rollbacks', parent: deploy.id, markdown: 'Undo a release.' })).page!;
  return { ...team, space, cr, intro, deploy, child };
}

describe('change request PDF', () => {
  it('answers a signed URL whose PDF holds every page', async () => {
    const { admin, read, space, cr } = await setup();
    const res = await read.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/pdf`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectContract('getChangeRequestPDF', res);
    expect(res.body.url).toMatch(/^http:\/\/docs\.test\/pdf\//);
    const pdf = await pdfText(res.body.url);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.pages).toBe(3);
    for (const words of ['Introduction', 'Welcome aboard.', 'Goals', 'Ship', 'Deployment', 'Getting it live', 'npm start', 'Rollbacks', 'Undo a release.'])
      expect(pdf.text).toContain(words);
    const gql = await admin.gql(`query($s: ID!, $c: ID!) { changeRequestPDF(spaceId: $s, changeRequestId: $c) { url } }`, { s: space.id, c: cr.id });
    expect(gql.data.changeRequestPDF.url).toMatch(/signature=/);
  });

  it('prints a page with its descendants, or that page only', async () => {
    const { admin, space, cr, deploy } = await setup();
    const base = `/v1/spaces/${space.id}/change-requests/${cr.id}/pdf?page=${deploy.id}`;
    const withChildren = await pdfText((await admin.rest('GET', base)).body.url);
    expect(withChildren.text).toContain('Deployment');
    expect(withChildren.text).toContain('Rollbacks');
    expect(withChildren.text).not.toContain('Introduction');
    const only = await pdfText((await admin.rest('GET', `${base}&only=true`)).body.url);
    expect(only.text).toContain('Deployment');
    expect(only.text).not.toContain('Rollbacks');
    expect(only.pages).toBe(1);
  });

  it('refuses tampered and expired URLs', async () => {
    const { admin, space, cr, intro } = await setup();
    const { url } = (await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/pdf?page=${intro.id}&only=true`)).body;
    expect((await pdfText(url.replace(`page=${intro.id}`, 'page=other'))).status).toBe(403);
    expect((await pdfText(url.replace(/signature=[^&]+/, 'signature=x'))).status).toBe(403);
    expect((await pdfText(url.replace(/&expires=[^&]+/, ''))).status).toBe(400);
    server.clock.advance(3 * 60 * 60 * 1000);
    const expired = await fetch(url.replace('http://docs.test', server.url));
    expect(expired.status).toBe(403);
    expect(await expired.json()).toEqual({ error: { code: 403, message: 'This URL has expired' } });
  });

  it('refuses bad input and callers without access', async () => {
    const { admin, outsider, space, cr } = await setup();
    const path = `/v1/spaces/${space.id}/change-requests/${cr.id}/pdf`;
    expectError(await rest(server, null, 'GET', path), 401, /Authentication required/);
    expectError(await outsider.rest('GET', path), 404, /not found/);
    expectError(await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/NOPE/pdf`), 404, /not found/);
    expectError(await admin.rest('GET', `${path}?page=NOPAGE`), 404, /Page not found/);
    expectError(await admin.rest('GET', `${path}?only=true`), 400, 'page: required when only is true');
    expectError(await admin.rest('GET', `${path}?only=maybe`), 400, /only/);
    expectGqlError(await admin.gql(`query($s: ID!) { changeRequestPDF(spaceId: $s, changeRequestId: "NOPE") { url } }`, { s: space.id }), 'NOT_FOUND');
  });
});
