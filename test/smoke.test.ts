import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';
import { newTeam } from './support/factories.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

describe('smoke', () => {
  it('creates and reads a space through both doors', async () => {
    const { organization, admin } = await newTeam(server);
    const created = await admin.rest('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Docs', emoji: '🎉' });
    expect(created.status).toBe(201);
    const got = await admin.gql(`query($id: ID!) { space(id: $id) { id title emoji owningOrganization { id } } }`, { id: created.body.id });
    expect(got.data.space).toMatchObject({ title: 'Docs', emoji: '🎉', owningOrganization: { id: organization.id } });
  });
});
