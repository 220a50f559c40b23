import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { commentsPath, postComment } from './support/comments.js';
import { createCollection, createSpace, openChangeRequest } from './support/content.js';
import { newOrganizationWithRoles, type Caller } from './support/factories.js';
import { useTestServer, type TestServer } from './support/server.js';
import { insertSection, insertShareLink, insertSite, insertSiteSpace, siteBase } from './support/sites.js';

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
const bearer = (caller: Caller) => ({ authorization: `Bearer ${caller.token}` });
/** What these tests read of an answer's body. */
type Body = { id: string; title: string; deletedAt?: string; error: { code: number; message: string } };
const bodyOf = (answer: Raw): Body => JSON.parse(answer.body) as Body;

describe('conditional requests', () => {
  const server = useTestServer();
  const get = (caller: Caller, path: string, headers: Record<string, string> = {}) => raw(server, 'GET', path, { ...bearer(caller), ...headers });
  const etagAt = async (caller: Caller, path: string) => {
    const answer = await get(caller, path);
    expect(answer.status, answer.body).toBe(200);
    return answer.headers.etag as string;
  };
  const write = (caller: Caller, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    raw(server, method, path, { ...bearer(caller), ...headers }, body);

  describe('ETags and If-None-Match', () => {
    it('tags single resources and lists with a strong ETag that a matching If-None-Match answers 304 without a body', async () => {
      const { organization, admin } = await newOrganizationWithRoles(server);
      const space = await createSpace(admin, organization.id, 'Tagged');
      const collection = await createCollection(admin, organization.id, { title: 'Shelf' });
      const site = await insertSite(server, organization.id);
      const paths = [
        `/v1/orgs/${organization.id}`,
        `/v1/spaces/${space.id}`,
        `/v1/collections/${collection.id}`,
        `${siteBase(site)}`,
        `/v1/orgs/${organization.id}/spaces`,
        `/v1/orgs/${organization.id}/collections`,
        `/v1/orgs/${organization.id}/members`,
        `/v1/orgs/${organization.id}/sites`,
      ];
      for (const path of paths) {
        const first = await get(admin, path);
        expect(first.status, path).toBe(200);
        const etag = first.headers.etag as string;
        expect(etag, path).toMatch(STRONG);
        const again = await get(admin, path);
        expect(again.headers.etag, path).toBe(etag);
        for (const condition of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
          const notModified = await get(admin, path, { 'if-none-match': condition });
          expect(notModified.status, `${path} ${condition}`).toBe(304);
          expect(notModified.body).toBe('');
          expect(notModified.headers.etag).toBe(etag);
        }
        expect((await get(admin, path, { 'if-none-match': '"other"' })).status).toBe(200);
      }
    });

    it('gives each viewer the tag of its own answer (permissions differ), and moves it when the answer changes', async () => {
      const { organization, admin, read } = await newOrganizationWithRoles(server);
      const space = await createSpace(admin, organization.id, 'Seen by two');
      const path = `/v1/spaces/${space.id}`;
      const adminTag = await etagAt(admin, path);
      const readerTag = await etagAt(read, path);
      expect(readerTag).not.toBe(adminTag);
      expect((await write(admin, 'PATCH', path, { title: 'Moved on' })).status).toBe(200);
      const changed = await get(admin, path, { 'if-none-match': adminTag });
      expect(changed.status).toBe(200);
      expect(changed.headers.etag).not.toBe(adminTag);
      expect(bodyOf(changed).title).toBe('Moved on');
    });

    it('tags GraphQL GET queries the same way, 304 on a match; POSTs stay untagged', async () => {
      const { organization, admin } = await newOrganizationWithRoles(server);
      const query = encodeURIComponent(`{ organization(id: "${organization.id}") { id title } }`);
      const headers = { 'apollo-require-preflight': 'true' };
      const first = await get(admin, `/graphql?query=${query}`, headers);
      expect(first.status).toBe(200);
      expect(first.headers.etag).toMatch(STRONG);
      const again = await get(admin, `/graphql?query=${query}`, { ...headers, 'if-none-match': first.headers.etag as string });
      expect(again.status).toBe(304);
      // As fetch() sends it with a conditional header of its own (Cache-Control: no-cache, Pragma): still 304.
      const fromFetch = await get(admin, `/graphql?query=${query}`, {
        ...headers,
        'if-none-match': first.headers.etag as string,
        'cache-control': 'no-cache',
        pragma: 'no-cache',
      });
      expect(fromFetch.status).toBe(304);
      expect(again.body).toBe('');
      const posted = await raw(server, 'POST', '/graphql', bearer(admin), { query: decodeURIComponent(query) });
      expect(posted.status).toBe(200);
      expect(posted.headers.etag).toBeUndefined();
    });
  });

  describe('no-op writes', () => {
    it('leaves a resource, its updatedAt and its ETag as they were after an empty PATCH or one that sets current values', async () => {
      const { organization, admin } = await newOrganizationWithRoles(server);
      const space = await createSpace(admin, organization.id, 'Still');
      const collection = await createCollection(admin, organization.id, { title: 'Still' });
      const site = await insertSite(server, organization.id);
      const team = await write(admin, 'PUT', `/v1/orgs/${organization.id}/teams`, { title: 'Still' });
      expect(team.status, team.body).toBe(201);
      const teamId = bodyOf(team).id;
      const changeRequest = await openChangeRequest(admin, space.id, 'Still');
      const comment = await postComment(admin, commentsPath(space.id), 'Still');
      const shareLink = await insertShareLink(server, site);
      const other = await createSpace(admin, organization.id, 'Published');
      const siteSpace = await insertSiteSpace(server, site, { space: other.id, path: 'published', position: 'a0' });
      const section = await insertSection(server, site, { path: 'guides', position: 'a0' });
      const writes: [method: string, path: string, body: unknown, read: string][] = [
        ['PATCH', `/v1/orgs/${organization.id}`, {}, `/v1/orgs/${organization.id}`],
        ['PATCH', `/v1/orgs/${organization.id}`, { title: 'Test organization' }, `/v1/orgs/${organization.id}`],
        ['PATCH', `/v1/spaces/${space.id}`, {}, `/v1/spaces/${space.id}`],
        ['PATCH', `/v1/spaces/${space.id}`, { title: 'Still' }, `/v1/spaces/${space.id}`],
        ['PATCH', `/v1/collections/${collection.id}`, { title: 'Still' }, `/v1/collections/${collection.id}`],
        ['PATCH', siteBase(site), {}, siteBase(site)],
        ['PATCH', siteBase(site), { title: 'Docs' }, siteBase(site)],
        ['PATCH', `/v1/orgs/${organization.id}/teams/${teamId}`, { title: 'Still' }, `/v1/orgs/${organization.id}/teams/${teamId}`],
        [
          'PATCH',
          `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`,
          { subject: 'Still' },
          `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`,
        ],
        ['PUT', `${commentsPath(space.id)}/${comment.id}`, {}, `${commentsPath(space.id)}/${comment.id}`],
        ['PATCH', `${siteBase(site)}/share-links/${shareLink.id}`, { name: 'Partners' }, `${siteBase(site)}/share-links`],
        ['PATCH', `${siteBase(site)}/site-spaces/${siteSpace.id}`, { path: 'published' }, `${siteBase(site)}/site-spaces`],
        ['PATCH', `${siteBase(site)}/sections/${section.id}`, { title: 'Section guides' }, `${siteBase(site)}/sections`],
      ];
      for (const [method, path, body, read] of writes) {
        const before = await get(admin, read);
        server.clock.advance(60_000);
        const answer = await write(admin, method, path, body);
        expect(answer.status, `${method} ${path} ${answer.body}`).toBe(200);
        const after = await get(admin, read);
        expect(after.body, `${method} ${path} ${JSON.stringify(body)}`).toBe(before.body);
        expect(after.headers.etag).toBe(before.headers.etag);
      }
    });
  });

  describe('If-Match', () => {
    it('writes when If-Match names the current ETag (or is *), and answers 412 changing nothing when it does not', async () => {
      const { organization, admin } = await newOrganizationWithRoles(server);
      const space = await createSpace(admin, organization.id, 'Guarded');
      const path = `/v1/spaces/${space.id}`;
      const etag = await etagAt(admin, path);
      const before = (await get(admin, path)).body;

      for (const stale of ['"stale"', `W/${etag}`, '"a", "b"']) {
        const refused = await write(admin, 'PATCH', path, { title: 'Never' }, { 'if-match': stale });
        expect(refused.status, stale).toBe(412);
        expect(bodyOf(refused).error).toEqual({
          code: 412,
          message: 'Precondition failed: the resource has changed since the ETag that If-Match names (read it again)',
        });
      }
      expect((await write(admin, 'DELETE', path, undefined, { 'if-match': '"stale"' })).status).toBe(412);
      expect((await get(admin, path)).body).toBe(before);

      const patched = await write(admin, 'PATCH', path, { title: 'Renamed' }, { 'if-match': `"other", ${etag}` });
      expect(patched.status).toBe(200);
      expect(bodyOf(patched).title).toBe('Renamed');
      const renamed = await etagAt(admin, path);
      expect(renamed).not.toBe(etag);
      // The old tag no longer writes; * does while the resource exists.
      expect((await write(admin, 'PATCH', path, { title: 'Late' }, { 'if-match': etag })).status).toBe(412);
      expect((await write(admin, 'PATCH', path, { title: 'Any' }, { 'if-match': '*' })).status).toBe(200);
      expect((await write(admin, 'DELETE', path, undefined, { 'if-match': await etagAt(admin, path) })).status).toBe(204);
    });

    it('checks If-Match on organizations, collections, sites, teams, change requests and comments', async () => {
      const { organization, admin } = await newOrganizationWithRoles(server);
      const space = await createSpace(admin, organization.id, 'Parent');
      const collection = await createCollection(admin, organization.id, { title: 'Shelf' });
      const site = await insertSite(server, organization.id);
      const team = bodyOf(await write(admin, 'PUT', `/v1/orgs/${organization.id}/teams`, { title: 'Crew' }));
      const changeRequest = await openChangeRequest(admin, space.id, 'Edits');
      const comment = await postComment(admin, commentsPath(space.id), 'Hello');
      const crComment = await postComment(admin, commentsPath(space.id, changeRequest.id), 'On the change');
      const cases: [method: string, path: string, body: unknown][] = [
        ['PATCH', `/v1/orgs/${organization.id}`, { title: 'Renamed org' }],
        ['PATCH', `/v1/collections/${collection.id}`, { title: 'Renamed shelf' }],
        ['PATCH', siteBase(site), { title: 'Renamed site' }],
        ['PATCH', `/v1/orgs/${organization.id}/teams/${team.id}`, { title: 'Renamed crew' }],
        ['PATCH', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`, { subject: 'Renamed edits' }],
        ['PUT', `${commentsPath(space.id)}/${comment.id}`, { body: { markdown: 'Edited' } }],
        ['PUT', `${commentsPath(space.id, changeRequest.id)}/${crComment.id}`, { body: { markdown: 'Edited' } }],
      ];
      for (const [method, path, body] of cases) {
        const etag = await etagAt(admin, path);
        const refused = await write(admin, method, path, body, { 'if-match': '"stale"' });
        expect(refused.status, `${path} ${refused.body}`).toBe(412);
        expect(await etagAt(admin, path)).toBe(etag);
        const written = await write(admin, method, path, body, { 'if-match': etag });
        expect(written.status, `${path} ${written.body}`).toBe(200);
        expect(await etagAt(admin, path)).not.toBe(etag);
      }
      for (const path of [
        `/v1/collections/${collection.id}`,
        siteBase(site),
        `/v1/orgs/${organization.id}/teams/${team.id}`,
        `${commentsPath(space.id)}/${comment.id}`,
      ]) {
        expect((await write(admin, 'DELETE', path, undefined, { 'if-match': '"stale"' })).status, path).toBe(412);
        expect((await write(admin, 'DELETE', path, undefined, { 'if-match': await etagAt(admin, path) })).status, path).toBe(204);
        expect((await get(admin, path)).status, path).toBe(404);
      }
    });

    it('lets exactly one of 10 concurrent PATCHes holding the same ETag through; the other 9 answer 412', async () => {
      const { organization, admin } = await newOrganizationWithRoles(server);
      const space = await createSpace(admin, organization.id, 'Raced');
      const path = `/v1/spaces/${space.id}`;
      const etag = await etagAt(admin, path);
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => write(admin, 'PATCH', path, { title: `Writer ${i}` }, { 'if-match': etag })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array<number>(9).fill(412)]);
      const winner = bodyOf(answers.find((a) => a.status === 200)!).title;
      expect(bodyOf(await get(admin, path)).title).toBe(winner);
    });

    it('lets exactly one of 10 concurrent DELETEs holding the same ETag through; the other 9 answer 412', async () => {
      const { organization, admin } = await newOrganizationWithRoles(server);
      const space = await createSpace(admin, organization.id, 'Raced away');
      const path = `/v1/spaces/${space.id}`;
      const etag = await etagAt(admin, path);
      const answers = await Promise.all(Array.from({ length: 10 }, () => write(admin, 'DELETE', path, undefined, { 'if-match': etag })));
      expect(answers.map((a) => a.status).sort()).toEqual([204, ...Array<number>(9).fill(412)]);
      // Deleted spaces stay readable (restorable) for 7 days, marked deleted.
      expect(bodyOf(await get(admin, path)).deletedAt).toEqual(expect.any(String));
    });

    it('refuses before comparing: 403 below the role, 404 for an outsider, 401 without a token', async () => {
      const { organization, admin, read, outsider } = await newOrganizationWithRoles(server);
      const space = await createSpace(admin, organization.id, 'Private');
      const path = `/v1/spaces/${space.id}`;
      const etag = await etagAt(admin, path);
      expect((await write(read, 'PATCH', path, { title: 'No' }, { 'if-match': await etagAt(read, path) })).status).toBe(403);
      expect((await write(outsider, 'PATCH', path, { title: 'No' }, { 'if-match': '"stale"' })).status).toBe(404);
      expect((await raw(server, 'PATCH', path, { 'if-match': etag }, { title: 'No' })).status).toBe(401);
      expect(await etagAt(admin, path)).toBe(etag);
    });

    it('answers 400 to If-Match that is no list of entity tags, or on a write that does not take it, changing nothing', async () => {
      const { organization, admin } = await newOrganizationWithRoles(server);
      const space = await createSpace(admin, organization.id, 'Careful');
      const path = `/v1/spaces/${space.id}`;
      const etag = await etagAt(admin, path);
      for (const bad of ['abc', '"unterminated', '*, "a"', 'W/abc', ',']) {
        const refused = await write(admin, 'PATCH', path, { title: 'No' }, { 'if-match': bad });
        expect(refused.status, bad).toBe(400);
        expect(bodyOf(refused).error.message, bad).toMatch(/^If-Match: /);
      }
      const unsupported = await write(admin, 'PATCH', `/v1/spaces/${space.id}/permissions/users/${admin.user.id}`, { role: 'read' }, { 'if-match': etag });
      expect(unsupported.status).toBe(400);
      expect(bodyOf(unsupported).error.message).toMatch(/^If-Match: this operation does not take it/);
      expect(bodyOf(await write(admin, 'PATCH', path, { title: 'No', ifMatch: etag })).error.message).toBe('ifMatch: unknown field');
      expect(await etagAt(admin, path)).toBe(etag);
    });
  });

  describe('GraphQL', () => {
    it('exposes the REST ETag as etag, and takes it as ifMatch on updates and deletes (412 status in the error otherwise)', async () => {
      const { organization, admin } = await newOrganizationWithRoles(server);
      const space = await createSpace(admin, organization.id, 'Graph');
      const restTag = await etagAt(admin, `/v1/spaces/${space.id}`);
      const read = await admin.gql<{ space: { etag: string }; organization: { etag: string; spaces: { items: { id: string; etag: string }[] } } }>(
        `query($id: ID!) { space(id: $id) { etag } organization(id: "${organization.id}") { etag spaces { items { id etag } } } }`,
        {
          id: space.id,
        },
      );
      expect(read.errors).toBeUndefined();
      expect(read.data.space.etag).toBe(restTag);
      expect(read.data.organization.etag).toBe(await etagAt(admin, `/v1/orgs/${organization.id}`));
      expect(read.data.organization.spaces.items.find((s) => s.id === space.id)?.etag).toBe(restTag);

      const update = `mutation($id: ID!, $ifMatch: String) { updateSpace(id: $id, input: { title: "Renamed" }, ifMatch: $ifMatch) { title etag } }`;
      const refused = await admin.gql(update, { id: space.id, ifMatch: '"stale"' });
      expect(refused.data).toBeNull();
      expect(refused.errors?.[0].extensions).toMatchObject({ code: 'PRECONDITION_FAILED', status: 412 });
      const bad = await admin.gql(update, { id: space.id, ifMatch: 'nonsense' });
      expect(bad.errors?.[0].extensions).toMatchObject({ code: 'BAD_REQUEST' });
      expect(await etagAt(admin, `/v1/spaces/${space.id}`)).toBe(restTag);

      const updated = await admin.gql<{ updateSpace: { title: string; etag: string } }>(update, { id: space.id, ifMatch: restTag });
      expect(updated.errors).toBeUndefined();
      expect(updated.data.updateSpace.title).toBe('Renamed');
      expect(updated.data.updateSpace.etag).toBe(await etagAt(admin, `/v1/spaces/${space.id}`));

      const remove = `mutation($id: ID!, $ifMatch: String) { deleteSpace(id: $id, ifMatch: $ifMatch) }`;
      expect((await admin.gql(remove, { id: space.id, ifMatch: restTag })).errors?.[0].extensions).toMatchObject({ status: 412 });
      expect((await admin.gql<{ deleteSpace: boolean }>(remove, { id: space.id, ifMatch: updated.data.updateSpace.etag })).data.deleteSpace).toBe(true);
    });
  });
});
