import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../rest-facade/route.js';
import { routes } from '../rest-facade/routes/index.js';
import { expectError, expectGqlError } from './support/expectations.js';
import { examples, pathOf, startExampleWorld, type Example, type ExampleWorld } from './support/route-examples.js';
import { databaseDigest } from './support/sql.js';

/**
 * If-Match on every write of a resource that has a GET (docs/behaviour/conditional-requests.md), walked
 * from the route table: each PATCH, PUT and DELETE whose path is also a GET's answers 412 to a stale
 * If-Match and changes nothing, and writes with the current ETag. The writes without a GET of their own
 * (and the two below) refuse the header with a 400.
 */

/** Writes whose path has a GET, that do not honour If-Match: the GET is a paged list, not the resource written. */
const NOT_CONDITIONAL: Record<string, string> = {
  createOrganizationTeam: 'creates a team in the list (a PUT to the list), no existing resource to compare',
  updateMembersInOrganizationTeam: "changes some of a team's members; their GET is a paged list, whose page has no one tag",
};

/** Bodies for the routes whose example's body is refused (an empty PATCH where one field is required). */
const BODIES: Record<string, Record<string, unknown>> = { updateOrganizationSAMLProvider: { label: 'Renamed IdP' } };

const isWrite = (route: Route) => route.method === 'PATCH' || route.method === 'PUT' || route.method === 'DELETE';
const getAt = new Map(routes.filter((route) => route.method === 'GET').map((route) => [route.path, route]));
const takesIfMatch = (route: Route) => /\$ifMatch\b/.test(route.document);
const conditional = routes.filter((route) => isWrite(route) && getAt.has(route.path) && !(route.operationId in NOT_CONDITIONAL));

let world: ExampleWorld;
beforeAll(async () => {
  world = await startExampleWorld();
});
afterAll(() => world?.server.stop());

/**
 * A fresh target of `route` and a body it accepts: its own example, or for a DELETE the example of a
 * write at the same path (which makes the resource).
 */
async function exampleOf(route: Route): Promise<Example & { maker?: Route }> {
  if (examples[route.operationId]) return examples[route.operationId](world);
  const maker = routes.find((other) => other.path === route.path && other.method !== 'GET' && other.method !== 'DELETE' && examples[other.operationId]);
  if (!maker) throw new Error(`${route.operationId}: no example at ${route.path}`);
  return { ...(await examples[maker.operationId](world)), maker };
}

/** The resource's current ETag; a resource that a write at its path creates (a PUT, a publication) is made first. */
async function currentEtag(route: Route, example: Example & { maker?: Route }, path: string): Promise<string> {
  let read = await world.admin.rest('GET', path);
  if (read.status === 404) {
    const make = example.maker ?? route;
    const made = await world.admin.rest(make.method, pathOf(make, example.params), example.body);
    expect(made.status, `${make.operationId}: ${JSON.stringify(made.body)}`).toBeLessThan(300);
    read = await world.admin.rest('GET', path);
  }
  expect(read.status, `GET ${path}: ${JSON.stringify(read.body)}`).toBe(200);
  return read.headers.get('etag')!;
}

describe('If-Match on the route table', () => {
  it('is taken by exactly the PATCH, PUT and DELETE routes whose path has a GET (but the listed exceptions)', () => {
    const writes = routes.filter(isWrite);
    expect(writes.filter(takesIfMatch).map((route) => route.operationId)).toEqual(conditional.map((route) => route.operationId));
    for (const operationId of Object.keys(NOT_CONDITIONAL)) expect(routes.find((route) => route.operationId === operationId)).toBeDefined();
    // The table of docs/behaviour/conditional-requests.md lists them.
    expect(conditional).toHaveLength(40);
  });

  it.each(conditional.map((route) => [`${route.method} ${route.operationId}`, route] as const))(
    '%s: a stale If-Match answers 412 and changes nothing; the current ETag writes',
    async (_, route) => {
      const example = await exampleOf(route);
      const path = pathOf(route, example.params);
      const etag = await currentEtag(route, example, path);
      const body = route.method === 'DELETE' ? undefined : (BODIES[route.operationId] ?? example.body);

      const before = await databaseDigest(world.server.em());
      for (const stale of ['"stale"', `W/${etag}`]) {
        const refused = await world.admin.rest(route.method, path, body, { 'if-match': stale });
        expectError(refused, 412, 'Precondition failed: the resource has changed since the ETag that If-Match names (read it again)');
      }
      expect(await databaseDigest(world.server.em())).toEqual(before);
      expect((await world.admin.rest('GET', path)).headers.get('etag')).toBe(etag);

      const written = await world.admin.rest(route.method, path, body, { 'if-match': `"other", ${etag}` });
      expect(written.status, JSON.stringify(written.body)).toBe(route.upsert ? 200 : route.status);
      // Gone, or (a space, restorable for a while) marked deleted.
      const after = await world.admin.rest('GET', path);
      if (route.method === 'DELETE') expect(after.status !== 200 || after.headers.get('etag') !== etag).toBe(true);
    },
  );

  it('answers 412 to If-Match on a PUT of a specification that does not exist yet, creating nothing', async () => {
    const route = routes.find((r) => r.operationId === 'createOrUpdateOpenAPISpecBySlug')!;
    const { params, body } = await examples.createOrUpdateOpenAPISpecBySlug(world);
    const path = pathOf(route, params);
    expectError(await world.admin.rest('PUT', path, body, { 'if-match': '*' }), 412);
    expect((await world.admin.rest('GET', path)).status).toBe(404);
  });

  it.each(Object.keys(NOT_CONDITIONAL))('refuses If-Match on %s with a 400, changing nothing', async (operationId) => {
    const route = routes.find((r) => r.operationId === operationId)!;
    const { params, body } = await examples[operationId](world);
    const before = await databaseDigest(world.server.em());
    const refused = await world.admin.rest(route.method, pathOf(route, params), body, { 'if-match': '*' });
    expectError(refused, 400, /^If-Match: this operation does not take it/);
    expect(await databaseDigest(world.server.em())).toEqual(before);
  });
});

describe('If-Match races on a newly covered resource', () => {
  it('lets exactly one of 10 concurrent PATCHes of a webhook holding the same ETag through; the other 9 answer 412', async () => {
    const { params } = await examples.updateWebhook(world);
    const path = `/v1/orgs/${params.organizationId}/webhooks/${params.webhookId}`;
    const etag = (await world.admin.rest('GET', path)).headers.get('etag')!;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => world.admin.rest('PATCH', path, { description: `Writer ${i}` }, { 'if-match': etag })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array<number>(9).fill(412)]);
    const winner = answers.find((answer) => answer.status === 200)!.body as { description: string };
    expect((await world.admin.rest<{ description: string }>('GET', path)).body.description).toBe(winner.description);
  });
});

describe('etag and ifMatch in GraphQL on the newly covered types', () => {
  it('gives the REST ETag as etag, and fails a stale ifMatch with a 412 status', async () => {
    const { params } = await examples.updateWebhook(world);
    const path = `/v1/orgs/${params.organizationId}/webhooks/${params.webhookId}`;
    const restTag = (await world.admin.rest('GET', path)).headers.get('etag');
    const read = await world.admin.gql<{ webhook: { etag: string } }>(`query($o: ID!, $w: ID!) { webhook(organizationId: $o, webhookId: $w) { etag } }`, {
      o: params.organizationId,
      w: params.webhookId,
    });
    expect(read.data.webhook.etag).toBe(restTag);

    const update = `mutation($o: ID!, $w: ID!, $ifMatch: String) { updateWebhook(organizationId: $o, webhookId: $w, input: { description: "GraphQL" }, ifMatch: $ifMatch) { etag } }`;
    const refused = await world.admin.gql(update, { o: params.organizationId, w: params.webhookId, ifMatch: '"stale"' });
    expectGqlError(refused, 'PRECONDITION_FAILED');
    expect(refused.errors?.[0].extensions).toMatchObject({ status: 412 });
    const updated = await world.admin.gql<{ updateWebhook: { etag: string } }>(update, { o: params.organizationId, w: params.webhookId, ifMatch: restTag });
    expect(updated.errors).toBeUndefined();
    expect(updated.data.updateWebhook.etag).toBe((await world.admin.rest('GET', path)).headers.get('etag'));
  });

  it('tags members, users, replies, installations and adaptive schemas with their GET’s ETag', async () => {
    const member = await examples.updateMemberInOrganizationById(world);
    const reply = await examples.updateCommentReplyInChangeRequest(world);
    const installation = await examples.updateIntegrationSpaceInstallation(world);
    const site = await examples.updateSiteAdaptiveSchema(world);
    const { organizationId, userId } = member.params;
    const { spaceId, changeRequestId, commentId, commentReplyId } = reply.params;
    const { integrationName, installationId, spaceId: installedSpace } = installation.params;
    expect((await world.admin.rest('PUT', `/v1/orgs/${site.params.organizationId}/sites/${site.params.siteId}/adaptive-schema`, site.body)).status).toBe(200);
    const answer = await world.admin.gql(
      `query {
        member(organizationId: "${organizationId}", userId: "${userId}") { etag user { etag } }
        commentReply(spaceId: "${spaceId}", changeRequestId: "${changeRequestId}", commentId: "${commentId}", commentReplyId: "${commentReplyId}") { etag }
        integrationSpaceInstallation(integrationName: "${integrationName}", installationId: "${installationId}", spaceId: "${installedSpace}") { etag }
        integrationInstallationById(integrationName: "${integrationName}", installationId: "${installationId}") { etag integration { etag } }
        siteAdaptiveSchema(organizationId: "${site.params.organizationId}", siteId: "${site.params.siteId}") { etag }
      }`,
    );
    expect(answer.errors).toBeUndefined();
    const tagOf = async (path: string) => (await world.admin.rest('GET', path)).headers.get('etag');
    const installationPath = `/v1/integrations/${integrationName}/installations/${installationId}`;
    expect(answer.data).toEqual({
      member: { etag: await tagOf(`/v1/orgs/${organizationId}/members/${userId}`), user: { etag: await tagOf(`/v1/users/${userId}`) } },
      commentReply: { etag: await tagOf(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/comments/${commentId}/replies/${commentReplyId}`) },
      integrationSpaceInstallation: { etag: await tagOf(`${installationPath}/spaces/${installedSpace}`) },
      integrationInstallationById: { etag: await tagOf(installationPath), integration: { etag: await tagOf(`/v1/integrations/${integrationName}`) } },
      siteAdaptiveSchema: { etag: await tagOf(`/v1/orgs/${site.params.organizationId}/sites/${site.params.siteId}/adaptive-schema`) },
    });
  });
});
