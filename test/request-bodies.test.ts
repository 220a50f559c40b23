import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf } from '../rest-facade/route.js';
import { routes } from '../rest-facade/routes/index.js';
import { contractOperations as contractOperationRows } from './support/contract-operations.js';
import { expectError } from './support/expectations.js';
import { currentReference, referenceBody } from './support/openapi.js';
import { examples, pathOf, startExampleWorld, type ExampleWorld } from './support/route-examples.js';
import { databaseDigest } from './support/sql.js';

/**
 * A missing body: where the contract requires one (the reference's `requestBody.required`), a request
 * without it answers 400 and changes nothing; where the body is optional, none reads as `{}`.
 */

/** The contract's operation ids. */
const contractOperations = new Set(contractOperationRows().map((operation) => operation.operationId));
/** The operations the current client (0.202.0) adds (test/fixtures/operations-current-client.tsv): their body is 0.202.0's. */
const currentClientOperations = new Set(
  readFileSync(new URL('./fixtures/operations-current-client.tsv', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t')[3]),
);

/**
 * Routes outside the contract's 129 operations choose their body here, explicitly: the reference's
 * operations of the same ids (routed for the contract tests' and frontends' sake) say the same; this
 * server's own extras (webhooks) are in no reference.
 */
const OUTSIDE_THE_CONTRACT: Record<string, 'required' | 'optional' | 'none'> = {
  getAuthenticatedUser: 'none',
  createSpace: 'optional',
  listSpacesInOrganizationById: 'none',
  publishSite: 'none',
  unpublishSite: 'none',
};

/** This server's extras, in neither the contract nor the reference (issue 20): they choose their body here. */
const EXTRAS: Record<string, 'required' | 'optional' | 'none'> = {
  listOrganizationAuditLog: 'none',
  listWebhooks: 'none',
  createWebhook: 'required',
  getWebhook: 'none',
  updateWebhook: 'required',
  deleteWebhook: 'none',
  rotateWebhookSecret: 'none',
  listWebhookDeliveries: 'none',
  redeliverWebhookDelivery: 'none',
};

function referenceRule(operationId: string): 'required' | 'optional' | 'none' {
  const body = referenceBody(operationId);
  return !body ? 'none' : body.required ? 'required' : 'optional';
}

let world: ExampleWorld;

beforeAll(async () => {
  world = await startExampleWorld();
});
afterAll(() => world?.server.stop());

describe('which routes take a body', () => {
  it('every route of the contract requires a body exactly where the reference does', () => {
    const mismatches = routes
      .filter((route) => contractOperations.has(route.operationId))
      .map((route) => ({ operationId: route.operationId, route: bodyOf(route), reference: referenceRule(route.operationId) }))
      .filter((row) => row.route !== row.reference);
    expect(mismatches).toEqual([]);
    const contractRoutes = routes.filter((route) => contractOperations.has(route.operationId));
    expect(contractRoutes).toHaveLength(129);
    expect(
      contractRoutes
        .filter((route) => bodyOf(route) === 'optional')
        .map((route) => route.operationId)
        .sort(),
    ).toEqual(['addMemberToOrganizationTeamById', 'createCollection', 'createSite', 'moveSiteSection', 'moveSiteSectionGroup', 'moveSiteSpace'].sort());
  });

  it("every route of the current client's operations takes a body exactly where 0.202.0's reference does", () => {
    const mismatches = routes
      .filter((route) => currentClientOperations.has(route.operationId) && !(route.operationId in OUTSIDE_THE_CONTRACT))
      .map((route) => {
        const body = currentReference.referenceBody(route.operationId);
        return { operationId: route.operationId, route: bodyOf(route), reference: !body ? 'none' : body.required ? 'required' : 'optional' };
      })
      .filter((row) => row.route !== row.reference);
    expect(mismatches).toEqual([]);
  });

  it('every other route outside the contract says explicitly whether it takes a body', () => {
    const others = routes.filter(
      (route) => !contractOperations.has(route.operationId) && (!currentClientOperations.has(route.operationId) || route.operationId in OUTSIDE_THE_CONTRACT),
    );
    expect(Object.fromEntries(others.map((route) => [route.operationId, bodyOf(route)]))).toEqual({ ...OUTSIDE_THE_CONTRACT, ...EXTRAS });
    for (const operationId of Object.keys(OUTSIDE_THE_CONTRACT))
      expect(bodyOf(routes.find((r) => r.operationId === operationId)!)).toBe(referenceRule(operationId));
  });

  it('has an example request for every route that takes a body', () => {
    const missing = routes.filter((route) => bodyOf(route) !== 'none' && !examples[route.operationId]).map((route) => route.operationId);
    expect(missing).toEqual([]);
  });
});

describe('a missing body', () => {
  const required = routes.filter((route) => bodyOf(route) === 'required');
  const optional = routes.filter((route) => bodyOf(route) === 'optional');

  it(`is refused with a 400 by the ${required.length} routes that require one, which change nothing`, async () => {
    const targets = [];
    for (const route of required) targets.push({ route, path: pathOf(route, (await examples[route.operationId](world)).params) });
    const before = await databaseDigest(world.server.em());
    for (const { route, path } of targets) {
      // No body at all, and an empty one that claims to be JSON (which a JSON parser reads as {}).
      const bare = await world.admin.rest(route.method, path);
      expectError(bare, 400, 'body: a JSON object is required');
      expectError(await world.admin.rest(route.method, path, '', { 'content-type': 'application/json' }), 400, 'body: a JSON object is required');
    }
    expect(await databaseDigest(world.server.em())).toEqual(before);
  });

  it.each(optional.map((route) => [route.operationId, route] as const))('reads as an empty object for %s', async (_, route) => {
    const { params } = await examples[route.operationId](world);
    const res = await world.admin.rest(route.method, pathOf(route, params));
    expect(res.status, JSON.stringify(res.body)).toBe(route.status);
  });

  it('is still a body for a route that requires one when it is an empty JSON object', async () => {
    const route = routes.find((r) => r.operationId === 'updateSpaceById')!;
    const { params } = await examples.updateSpaceById(world);
    const before = await world.admin.rest('GET', pathOf(route, params));
    world.server.clock.advance(60_000);
    const res = await world.admin.rest(route.method, pathOf(route, params), {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Nothing to change: nothing changed (updatedAt used to move).
    expect(res.body.updatedAt).toBe(before.body.updatedAt);
  });
});

describe('an update that changes nothing', () => {
  // Every update of the API: PATCH, PUT, and publishing an integration (a POST that replaces its definition).
  const updates = routes.filter(
    (route) =>
      (route.method === 'PATCH' || route.method === 'PUT' || route.operationId === 'publishIntegration') && route.operationId !== 'createOrganizationTeam',
  );
  // Their examples' bodies are empty (which these refuse): a field set to the value it has.
  const SAME_VALUES: Record<string, Record<string, unknown>> = {
    updateSiteShareLinkById: { name: 'Partners' },
    updateOrganizationSAMLProvider: { label: 'Example IdP' },
  };

  it.each(updates.map((route) => [route.operationId, route] as const))(
    'changes nothing for %s, given its values again or {}: no updatedAt moved, no event, no audit row',
    async (_, route) => {
      const example = await examples[route.operationId](world);
      const body = SAME_VALUES[route.operationId] ?? example.body;
      const path = pathOf(route, example.params);
      const first = await world.admin.rest(route.method, path, body);
      expect(first.status, JSON.stringify(first.body)).toBeLessThan(300);
      const before = await databaseDigest(world.server.em());
      // Later, so that a moved updatedAt would show.
      world.server.clock.advance(60_000);
      const again = await world.admin.rest(route.method, path, body);
      expect(again.status, JSON.stringify(again.body)).toBeLessThan(300);
      expect(again.status).not.toBe(201);
      const empty = await world.admin.rest(route.method, path, {});
      expect(empty.status, JSON.stringify(empty.body)).toBeLessThan(500);
      expect(await databaseDigest(world.server.em())).toEqual(before);
    },
  );
});
