/**
 * 0.202.0's createIntegrationInstallationToken through that client: a temporary token of the caller,
 * limited to the installation's organization and capped by the integration's scopes, validated
 * against 0.202.0's reference, with denials and unknown ids.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { currentClientFor, expectCurrent, expectRefused } from './support/current-client.js';
import { callerFor, newMember, newOrganization, newUser, type Caller } from './support/factories.js';
import { expectError } from './support/expectations.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();
const clientFor = (caller: Caller) => currentClientFor(server.url, caller);

let publisher: Caller;
let publisherOrg: string;
let admin: Caller;
let reader: Caller;
let outsider: Caller;
let organizationId: string;
let otherOrganizationId: string;

async function publishAndInstall(scopes: string[]) {
  const name = `tokens-${scopes.length}-${Date.now().toString(36)}`;
  const published = await publisher.rest('POST', `/v1/integrations/${name}`, {
    organization: publisherOrg,
    title: 'Sync',
    description: 'Syncs content',
    scopes,
    script: 'export default {}',
  });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  const installed = await expectCurrent('installIntegration', clientFor(admin).integrations.installIntegration(name, { organization: organizationId }));
  return { name, id: installed.id };
}

beforeAll(async () => {
  publisher = await newUser(server);
  publisherOrg = (await newOrganization(server, publisher, { title: 'Publisher' })).id;
  admin = await newUser(server);
  organizationId = (await newOrganization(server, admin, { title: 'Customer' })).id;
  otherOrganizationId = (await newOrganization(server, admin, { title: 'Other' })).id;
  reader = await newMember(server, organizationId, 'read');
  outsider = await newUser(server);
});

describe('createIntegrationInstallationToken', () => {
  it('answers a temporary token limited to the installation organization, capped by the integration scopes', async () => {
    const { name, id } = await publishAndInstall(['space:content:read']);
    const { token } = await expectCurrent('createIntegrationInstallationToken', clientFor(admin).integrations.createIntegrationInstallationToken(name, id));
    const installationToken = callerFor(server, admin.user, token);
    expect((await installationToken.rest('GET', `/v1/orgs/${organizationId}`)).status).toBe(200);
    expectError(await installationToken.rest('GET', `/v1/orgs/${otherOrganizationId}`), 404);
    expectError(await installationToken.rest('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'No' }), 403);
    const listed = await admin.gql<{ apiTokens: { label: string; organization: string; role: string; expiresAt: string }[] }>(
      'query { apiTokens { label organization role expiresAt } }',
    );
    const made = listed.data.apiTokens.find((t) => t.label.includes(id));
    expect(made).toMatchObject({ organization: organizationId, role: 'read', expiresAt: new Date(server.clock.now().getTime() + 3_600_000).toISOString() });
    server.clock.advance(3_600_000);
    expectError(await installationToken.rest('GET', `/v1/orgs/${organizationId}`), 401, /expired/);
  });

  it('caps at edit when the integration writes', async () => {
    const { name, id } = await publishAndInstall(['space:content:read', 'space:content:write']);
    const { token } = await expectCurrent('createIntegrationInstallationToken', clientFor(admin).integrations.createIntegrationInstallationToken(name, id));
    const listed = await callerFor(server, admin.user, token).gql<{ apiTokens: { label: string; role: string }[] }>('query { apiTokens { label role } }');
    expect(listed.data.apiTokens.find((t) => t.label.includes(id))?.role).toBe('edit');
  });

  it('refuses members below admin (403), outsiders and unknown ids (404), read tokens (403)', async () => {
    const { name, id } = await publishAndInstall(['space:content:read']);
    await expectRefused(clientFor(reader).integrations.createIntegrationInstallationToken(name, id), 403);
    await expectRefused(clientFor(publisher).integrations.createIntegrationInstallationToken(name, id), 403);
    await expectRefused(clientFor(outsider).integrations.createIntegrationInstallationToken(name, id), 404);
    await expectRefused(clientFor(admin).integrations.createIntegrationInstallationToken(name, 'no-such-installation'), 404);
    const readToken = await admin.gql<{ createApiToken: { token: string } }>('mutation { createApiToken(label: "r", scope: { role: read }) { token } }');
    const reading = callerFor(server, admin.user, readToken.data.createApiToken.token);
    await expectRefused(clientFor(reading).integrations.createIntegrationInstallationToken(name, id), 403);
    // A token limited to another organization sees no installation here.
    const elsewhere = await admin.gql<{ createApiToken: { token: string } }>(
      'mutation($o: ID!) { createApiToken(label: "o", scope: { organization: $o }) { token } }',
      {
        o: otherOrganizationId,
      },
    );
    await expectRefused(
      clientFor(callerFor(server, admin.user, elsewhere.data.createApiToken.token)).integrations.createIntegrationInstallationToken(name, id),
      404,
    );
  });
});
