import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { newOrganizationWithRoles, type Caller } from './support/factories.js';
import { useTestServer, type TestServer } from './support/server.js';

/**
 * Conditional requests (docs/behaviour/conditional-requests.md): strong ETags on GETs of both doors,
 * If-None-Match → 304, If-Match on writes checked inside the writing transaction → 412, no-op writes
 * that change nothing, and the GraphQL `etag` field and `ifMatch` argument.
 */

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** One request as sent (no Accept-Encoding, so the bytes come as they are). */
function raw(server: TestServer, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const sent = body === undefined ? undefined : JSON.stringify(body);
    const all = sent === undefined ? headers : { 'content-type': 'application/json', ...headers };
    const req = request(`${server.url}${path}`, { method, headers: all }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(sent);
  });
}

const STRONG = /^"[\w-]+"$/;

describe('conditional requests', () => {
  const server = useTestServer();
  const auth = (caller: Caller) => ({ authorization: `Bearer ${caller.token}` });

  async function newSpace(admin: Caller, organizationId: string, title = 'Tagged') {
    const created = await admin.rest('POST', `/v1/orgs/${organizationId}/spaces`, { title });
    expect(created.status).toBe(201);
    return created.body as { id: string; title: string };
  }

  it('tags a space with a strong ETag, answers If-None-Match 304 with no body, and PATCH with a matching If-Match', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const space = await newSpace(admin, organization.id);
    const path = `/v1/spaces/${space.id}`;
    const first = await raw(server, 'GET', path, auth(admin));
    expect(first.status).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(STRONG);

    const notModified = await raw(server, 'GET', path, { ...auth(admin), 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBe('');

    const stale = await raw(server, 'PATCH', path, { ...auth(admin), 'if-match': '"stale"' }, { title: 'Never' });
    expect(stale.status).toBe(412);
    expect(JSON.parse(stale.body)).toEqual({ error: { code: 412, message: expect.stringContaining('Precondition failed') } });
    expect((await raw(server, 'GET', path, auth(admin))).headers.etag).toBe(etag);

    const patched = await raw(server, 'PATCH', path, { ...auth(admin), 'if-match': etag }, { title: 'Renamed' });
    expect(patched.status).toBe(200);
    expect(JSON.parse(patched.body).title).toBe('Renamed');
    const after = await raw(server, 'GET', path, auth(admin));
    expect(after.headers.etag).not.toBe(etag);
  });

  it('lets exactly one of 10 concurrent PATCHes holding the same ETag through; the others answer 412', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const space = await newSpace(admin, organization.id);
    const path = `/v1/spaces/${space.id}`;
    const etag = (await raw(server, 'GET', path, auth(admin))).headers.etag as string;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => raw(server, 'PATCH', path, { ...auth(admin), 'if-match': etag }, { title: `Writer ${i}` })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(412)]);
    const winner = JSON.parse(answers.find((a) => a.status === 200)!.body).title;
    expect(JSON.parse((await raw(server, 'GET', path, auth(admin))).body).title).toBe(winner);
  });
});
