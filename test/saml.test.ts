/**
 * SAML providers (contract §2.12, §4.10, §8) and the login page's SSO list, through both doors on the
 * real database: shapes, limits, permissions, and the service provider's metadata.
 */
import { X509Certificate } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SamlProvider } from '../src/domain/saml/index.js';
import { Team } from '../src/domain/teams/index.js';
import { newOrganization, newOrganizationWithRoles, newUser, rest, type Caller } from './support/factories.js';
import { expectAuthRequired, expectContract, expectError, expectGqlAuthRequired, expectGqlError } from './support/expectations.js';
import { identityProviderKeys, insertTeam } from './support/saml.js';
import { serverNow, useTestServer } from './support/server.js';

const PUBLIC_URL = 'http://docs.test';
const SECOND = 1000;

const server = useTestServer();
let certificate: string;
beforeAll(async () => {
  certificate = identityProviderKeys().certificate;
});
beforeEach(() => server.clock.advance(SECOND));

const base = (organizationId: string) => `/v1/orgs/${organizationId}/saml`;

/** A complete provider body (active once created). */
const complete = (overrides: Record<string, unknown> = {}) => ({
  label: 'Okta',
  entityID: 'https://idp.example.com/metadata',
  ssoURL: 'https://idp.example.com/sso',
  certificate,
  ...overrides,
});

async function createProvider(caller: Caller, organizationId: string, body: Record<string, unknown> = complete()) {
  const res = await caller.rest('POST', base(organizationId), body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const service = (id: string) => ({
  acsURL: `${PUBLIC_URL}/saml/${id}/acs`,
  startURL: `${PUBLIC_URL}/saml/${id}/start`,
  entityID: `${PUBLIC_URL}/saml/${id}/metadata`,
});

// ─── authentication ─────────────────────────────────────────────────────────────────────────────────

describe('authentication', () => {
  it('answers 401 on every provider operation without a token or with a bad one', async () => {
    const { organization } = await newOrganizationWithRoles(server);
    const calls: [string, string, unknown?][] = [
      ['GET', base(organization.id)],
      ['POST', base(organization.id), { label: 'x' }],
      ['GET', `${base(organization.id)}/x`],
      ['PATCH', `${base(organization.id)}/x`, { label: 'y' }],
      ['DELETE', `${base(organization.id)}/x`],
    ];
    await expectAuthRequired(server, calls);
    await expectGqlAuthRequired(server, `{ samlProviders(organizationId: "${organization.id}") { count } }`);
  });
});

// ─── the operations ─────────────────────────────────────────────────────────────────────────────────

describe('creating a provider', () => {
  it('answers the provider with its service URLs, its default team as a Team and the Location header', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const team = await insertTeam(server, organization.id, 'Engineering');
    const res = await admin.rest('POST', base(organization.id), complete({ defaultTeam: team.id, defaultRole: 'edit' }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.id;
    expect(res.body).toEqual({
      object: 'saml-provider',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      label: 'Okta',
      ssoURL: 'https://idp.example.com/sso',
      entityID: 'https://idp.example.com/metadata',
      certificate,
      defaultTeam: {
        object: 'team',
        id: team.id,
        title: 'Engineering',
        members: 0,
        spaces: 0,
        createdAt: team.createdAt.toISOString(),
        permissions: { admin: true, view: true },
      },
      defaultRole: 'edit',
      createdAt: serverNow(server),
      status: 'active',
      service: service(id),
      urls: { location: `${PUBLIC_URL}/v1/orgs/${organization.id}/saml/${id}` },
    });
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    expect(await server.em().findOneOrFail(SamlProvider, { id })).toMatchObject({ organization: organization.id, defaultTeam: team.id });
  });

  it("needs only a label: the provider is pending, and new members get the organization's defaultRole", async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const provider = await createProvider(admin, organization.id, { label: 'Later' });
    expect(provider).toEqual({
      object: 'saml-provider',
      id: provider.id,
      label: 'Later',
      defaultRole: 'read',
      createdAt: serverNow(server),
      status: 'pending',
      service: service(provider.id),
      urls: { location: `${PUBLIC_URL}/v1/orgs/${organization.id}/saml/${provider.id}` },
    });
    // A guest default is kept as null, never left out.
    expect((await createProvider(admin, organization.id, { label: 'Guests', defaultRole: null })).defaultRole).toBeNull();
  });

  it('enforces the limits with a 400 naming the field, and creates nothing', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const otherTeam = await insertTeam(server, (await newOrganization(server, admin)).id);
    const url = base(organization.id);
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [{ entityID: 'x' }, 'label: is required'],
      [complete({ label: '' }), 'label: must be at least 1 character'],
      [complete({ label: 'x'.repeat(31) }), 'label: must be at most 30 characters'],
      [complete({ label: 5 }), /^label: /],
      [complete({ entityID: 'x'.repeat(1025) }), 'entityID: must be at most 1024 characters'],
      [complete({ entityID: '' }), 'entityID: must be at least 1 character'],
      [complete({ certificate: 'not a certificate' }), /^certificate: must be a PEM-encoded X\.509 certificate/],
      [complete({ certificate: certificate.replace(/[A-Za-z]{8}\n/, 'AAAAAAAA\n') }), /^certificate: must be a PEM-encoded X\.509 certificate/],
      [complete({ certificate: `${certificate}\n${certificate}` }), /^certificate: must be a PEM-encoded X\.509 certificate/],
      [complete({ certificate: certificate.replaceAll('CERTIFICATE', 'PUBLIC KEY') }), /^certificate: must be a PEM-encoded X\.509 certificate/],
      [complete({ certificate: 'x'.repeat(10001) }), 'certificate: must be at most 10000 characters'],
      [complete({ ssoURL: 'not a url' }), 'ssoURL: must be an http(s) URL'],
      [complete({ ssoURL: 'ftp://idp.example.com/sso' }), 'ssoURL: must be an http(s) URL'],
      [complete({ ssoURL: `https://idp.example.com/${'x'.repeat(2030)}` }), 'ssoURL: must be at most 2048 characters'],
      [complete({ defaultRole: 'owner' }), /^defaultRole: /],
      [complete({ defaultTeam: 'no-such-team' }), 'defaultTeam: no team "no-such-team" in this organization'],
      [complete({ defaultTeam: otherTeam.id }), `defaultTeam: no team "${otherTeam.id}" in this organization`],
      [complete({ colour: 'red' }), 'colour: unknown field'],
    ];
    for (const [body, message] of cases) expectError(await admin.rest('POST', url, body), 400, message);
    expect(await server.em().count(SamlProvider, { organization: organization.id })).toBe(0);
    // The bounds themselves are accepted; surrounding whitespace of a certificate is dropped.
    const edge = await createProvider(
      admin,
      organization.id,
      complete({ label: 'x'.repeat(30), entityID: 'e'.repeat(1024), certificate: `\n${certificate}\n` }),
    );
    expect(edge.certificate).toBe(certificate);
  });
});

describe('reading providers', () => {
  it("lists an organization's providers oldest first, with pages, and only that organization's", async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const created = [];
    for (const label of ['First', 'Second', 'Third']) {
      created.push(await createProvider(admin, organization.id, complete({ label })));
      server.clock.advance(SECOND);
    }
    await createProvider(admin, (await newOrganization(server, admin)).id, complete({ label: 'Elsewhere' }));
    const res = await admin.rest('GET', base(organization.id));
    expect(res.status).toBe(200);
    expectContract('listSAMLProvidersInOrganizationById', res);
    expect(res.body).toEqual({ items: created, count: 3 });
    const page1 = await admin.rest('GET', `${base(organization.id)}?limit=2`);
    expect(page1.body.items.map((p: { label: string }) => p.label)).toEqual(['First', 'Second']);
    const page2 = await admin.rest('GET', `${base(organization.id)}?limit=2&page=${page1.body.next.page}`);
    expect(page2.body).toEqual({ items: [created[2]], count: 3 });
    expectError(await admin.rest('GET', `${base(organization.id)}?limit=1001`), 400, 'limit: must be an integer from 1 to 1000');
  });

  it('gets one provider; one of another organization or none answers 404', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const provider = await createProvider(admin, organization.id);
    const res = await admin.rest('GET', `${base(organization.id)}/${provider.id}`);
    expect(res.status).toBe(200);
    expectContract('getOrganizationSAMLProviderById', res);
    expect(res.body).toEqual(provider);
    const other = await newOrganization(server, admin);
    expectError(await admin.rest('GET', `${base(other.id)}/${provider.id}`), 404, 'SAML provider not found');
    expectError(await admin.rest('GET', `${base(organization.id)}/nope`), 404, 'SAML provider not found');
  });
});

describe('changing and deleting providers', () => {
  it('changes the given fields; completing a pending provider makes it active', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const team = await insertTeam(server, organization.id);
    const provider = await createProvider(admin, organization.id, { label: 'Later' });
    const url = `${base(organization.id)}/${provider.id}`;
    const res = await admin.rest('PATCH', url, complete({ label: 'Azure', defaultTeam: team.id, defaultRole: 'comment' }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectContract('updateOrganizationSAMLProvider', res);
    expect(res.body).toMatchObject({
      label: 'Azure',
      status: 'active',
      defaultRole: 'comment',
      defaultTeam: { id: team.id },
      certificate,
      createdAt: provider.createdAt,
    });

    const cleared = await admin.rest('PATCH', url, { defaultTeam: null, defaultRole: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.defaultTeam).toBeUndefined();
    expect(cleared.body.defaultRole).toBeNull();
    expect(cleared.body.label).toBe('Azure');
  });

  it('refuses bad changes with a 400 and changes nothing', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const provider = await createProvider(admin, organization.id);
    const url = `${base(organization.id)}/${provider.id}`;
    expectError(await admin.rest('PATCH', url, {}), 400, 'at least one field to change is required');
    expectError(
      await admin.rest('PATCH', url, { label: 'ok', certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' }),
      400,
      /^certificate: /,
    );
    expectError(await admin.rest('PATCH', url, { label: 'x'.repeat(31) }), 400, 'label: must be at most 30 characters');
    expectError(await admin.rest('PATCH', url, { defaultTeam: 'nope' }), 400, 'defaultTeam: no team "nope" in this organization');
    expectError(await admin.rest('PATCH', url, { ssoURL: null }), 400, /^ssoURL: /);
    expect((await admin.rest('GET', url)).body).toEqual(provider);
    expectError(await admin.rest('PATCH', `${base(organization.id)}/nope`, { label: 'x' }), 404, 'SAML provider not found');
  });

  it('deletes a provider: 204, then 404; its login leaves the SSO list', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const provider = await createProvider(admin, organization.id);
    const url = `${base(organization.id)}/${provider.id}`;
    const res = await admin.rest('DELETE', url);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expectError(await admin.rest('GET', url), 404, 'SAML provider not found');
    expectError(await admin.rest('DELETE', url), 404, 'SAML provider not found');
    expect((await admin.rest('GET', `/v1/orgs/${organization.id}/sso`)).body).toEqual({ items: [] });
  });

  it('loses its default team when the team is deleted', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const team = await insertTeam(server, organization.id);
    const provider = await createProvider(admin, organization.id, complete({ defaultTeam: team.id }));
    await server.em().nativeDelete(Team, { id: team.id });
    expect((await admin.rest('GET', `${base(organization.id)}/${provider.id}`)).body.defaultTeam).toBeUndefined();
  });
});

describe('who may manage providers', () => {
  it('needs the admin role: other members get 403, outsiders and admins of other organizations 404', async () => {
    const { organization, admin, create, read, guest, outsider } = await newOrganizationWithRoles(server);
    const provider = await createProvider(admin, organization.id);
    const stranger = await newUser(server);
    await newOrganization(server, stranger);
    const calls: [string, string, unknown?][] = [
      ['GET', base(organization.id)],
      ['POST', base(organization.id), { label: 'x' }],
      ['GET', `${base(organization.id)}/${provider.id}`],
      ['PATCH', `${base(organization.id)}/${provider.id}`, { label: 'y' }],
      ['DELETE', `${base(organization.id)}/${provider.id}`],
    ];
    for (const [method, path, body] of calls) {
      for (const member of [create, read, guest]) {
        expectError(await member.rest(method, path, body), 403, 'Organization: this operation needs the admin role');
      }
      for (const caller of [outsider, stranger]) expectError(await caller.rest(method, path, body), 404, 'Organization not found');
    }
    expect((await admin.rest('GET', `${base(organization.id)}/${provider.id}`)).body).toEqual(provider);
  });
});

describe('GraphQL', () => {
  const FIELDS = 'id label status defaultRole defaultTeam { id title } service { startURL } owningOrganization { id }';

  it('creates, reads, changes and deletes providers with the same rules', async () => {
    const { organization, admin, edit } = await newOrganizationWithRoles(server);
    const team = await insertTeam(server, organization.id, 'Support');
    const created = await admin.gql(
      `mutation($org: ID!, $input: CreateSAMLProviderInput!) { createSAMLProvider(organizationId: $org, input: $input) { ${FIELDS} } }`,
      { org: organization.id, input: complete({ defaultTeam: team.id }) },
    );
    const provider = created.data.createSAMLProvider;
    expect(provider).toEqual({
      id: provider.id,
      label: 'Okta',
      status: 'active',
      defaultRole: 'read',
      defaultTeam: { id: team.id, title: 'Support' },
      service: { startURL: service(provider.id).startURL },
      owningOrganization: { id: organization.id },
    });
    const listed = await admin.gql(`query($org: ID!) { samlProviders(organizationId: $org) { count items { id } } }`, { org: organization.id });
    expect(listed.data.samlProviders).toEqual({ count: 1, items: [{ id: provider.id }] });
    const one = await admin.gql(`query($org: ID!, $id: ID!) { samlProvider(organizationId: $org, id: $id) { label } }`, {
      org: organization.id,
      id: provider.id,
    });
    expect(one.data.samlProvider.label).toBe('Okta');

    const bad = await admin.gql(`mutation($org: ID!, $id: ID!) { updateSAMLProvider(organizationId: $org, id: $id, input: { label: "" }) { id } }`, {
      org: organization.id,
      id: provider.id,
    });
    expectGqlError(bad, 'BAD_REQUEST', 'label: must be at least 1 character');
    const forbidden = await edit.gql(`mutation($org: ID!, $id: ID!) { deleteSAMLProvider(organizationId: $org, id: $id) }`, {
      org: organization.id,
      id: provider.id,
    });
    expectGqlError(forbidden, 'FORBIDDEN');
    const deleted = await admin.gql(`mutation($org: ID!, $id: ID!) { deleteSAMLProvider(organizationId: $org, id: $id) }`, {
      org: organization.id,
      id: provider.id,
    });
    expect(deleted.data.deleteSAMLProvider).toBe(true);
    const gone = await admin.gql(`query($org: ID!, $id: ID!) { samlProvider(organizationId: $org, id: $id) { id } }`, {
      org: organization.id,
      id: provider.id,
    });
    expectGqlError(gone, 'NOT_FOUND', 'SAML provider not found');
  });

  it('lists SSO logins to any caller with a token', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const provider = await createProvider(admin, organization.id);
    const outsider = await newUser(server);
    const res = await rest(server, outsider.token, 'POST', '/graphql', {
      query: `{ ssoProviderLogins(organizationId: "${organization.id}") { items { id label startURL } } }`,
    });
    expect(res.body.data.ssoProviderLogins.items).toEqual([{ id: provider.id, label: 'Okta', startURL: service(provider.id).startURL }]);
  });
});

// ─── the login page's list ──────────────────────────────────────────────────────────────────────────

describe('GET /v1/orgs/{organizationId}/sso', () => {
  it("lists the active providers' logins without the list envelope, to any caller with a token", async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const okta = await createProvider(admin, organization.id);
    await createProvider(admin, organization.id, { label: 'Pending' });
    server.clock.advance(SECOND);
    const azure = await createProvider(admin, organization.id, complete({ label: 'Azure' }));
    const expected = {
      items: [
        { id: okta.id, label: 'Okta', startURL: service(okta.id).startURL },
        { id: azure.id, label: 'Azure', startURL: service(azure.id).startURL },
      ],
    };
    const outsider = await newUser(server);
    for (const token of [outsider.token, read.token, admin.token]) {
      const res = await rest(server, token, 'GET', `/v1/orgs/${organization.id}/sso`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expected);
      expectContract('listSSOProviderLoginsInOrganization', res);
    }
  });

  it('answers 404 for an unknown organization and 401 without a valid token', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    expectError(await admin.rest('GET', '/v1/orgs/no-such-org/sso'), 404, 'Organization not found');
    expectError(await rest(server, null, 'GET', `/v1/orgs/${organization.id}/sso`), 401, /token/i);
    expectError(await rest(server, 'not-a-token', 'GET', `/v1/orgs/${organization.id}/sso`), 401, 'Invalid or revoked API token');
  });
});

// ─── service provider metadata ──────────────────────────────────────────────────────────────────────

describe('SP metadata', () => {
  it('describes the service provider: entity ID, ACS and the self-signed certificate AuthnRequests are signed with', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const provider = await createProvider(admin, organization.id, { label: 'Later' });
    const res = await fetch(`${server.url}/saml/${provider.id}/metadata`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
    const xml = await res.text();
    expect(xml).toContain(`entityID="${provider.service.entityID}"`);
    expect(xml).toContain(`Location="${provider.service.acsURL}"`);
    expect(xml).toContain('AuthnRequestsSigned="true"');
    const pem = /<ds:X509Certificate>([^<]+)</.exec(xml)![1].trim();
    const spCertificate = new X509Certificate(`-----BEGIN CERTIFICATE-----\n${pem}\n-----END CERTIFICATE-----`);
    expect(spCertificate.subject).toBe('CN=docs.test SAML');
    expect(spCertificate.checkIssued(spCertificate)).toBe(true);
    expect(spCertificate.verify(spCertificate.publicKey)).toBe(true);

    // One server key for every provider, kept across requests.
    const other = await createProvider(admin, organization.id, { label: 'Other' });
    const otherXml = await fetch(`${server.url}/saml/${other.id}/metadata`).then((r) => r.text());
    expect(otherXml).toContain(pem.slice(0, 200));
    expect((await fetch(`${server.url}/saml/nope/metadata`)).status).toBe(404);
  });
});
