/**
 * Integrations (contract §2.12, §4.12, §5, §8) through both doors on the real database: publishing with
 * every field checked, versions, secrets kept encrypted and never shown, listing filters, visibility,
 * unpublishing, installations with selections and configurations, and their listing.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { Integration } from '../src/domain/integrations/index.js';
import { openSecrets } from '../src/domain/integrations/index.js';
import { Organization } from '../src/domain/organizations/index.js';
import { newMember, newOrganization, newOrganizationWithRoles, newUser, type Caller } from './support/factories.js';
import { expectAuthRequired, expectContract, expectError, expectGqlError } from './support/expectations.js';
import { useTestServer } from './support/server.js';
import { capturedLogs } from './support/logs.js';

const SECOND = 1000;
/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const SECRET = 'sk_live_very-secret-value-0123456789';

const { logger, lines: logLines } = capturedLogs('debug');
const server = useTestServer({}, { logger });
beforeEach(() => server.clock.advance(SECOND));

let counter = 0;
const uniqueName = (prefix = 'integration') => `${prefix}-${++counter}-${Date.now().toString(36)}`;

/** Every field of a publish, valid. */
const fullBody = (organization: string, overrides: Record<string, unknown> = {}) => ({
  organization,
  title: 'Analytics',
  description: 'Counts page views',
  summary: '# Analytics\nSee who reads what.',
  icon: PNG,
  previewImages: [PNG, PNG],
  visibility: 'public',
  target: 'all',
  scopes: ['space:views:read', 'site:views:read'],
  categories: ['analytics'],
  blocks: [
    { id: 'chart', title: 'Chart', description: 'A chart', urlUnfurl: ['https://*.charts.example.com/*'], markdown: { codeblock: 'chart', body: 'data' } },
  ],
  contentSources: [{ id: 'feed', title: 'Feed', configuration: { componentId: 'feedConfig' } }],
  externalLinks: [{ url: 'https://example.com/docs', label: 'Docs' }],
  configurations: {
    account: {
      properties: {
        apiKey: { type: 'string', title: 'API key' },
        region: { type: 'string', enum: ['eu', 'us'], default: 'eu' },
        sampling: { type: 'number' },
        connect: { type: 'button', callback_url: 'https://example.com/connect', button_text: 'Connect' },
      },
      required: ['apiKey'],
    },
  },
  script: 'export default { fetch() { return new Response("ok"); } }',
  secrets: { API_SECRET: SECRET },
  contentSecurityPolicy: { 'script-src': "'self' https://cdn.example.com" },
  ...overrides,
});

async function publish(caller: Caller, name: string, body: Record<string, unknown>) {
  const res = await caller.rest('POST', `/v1/integrations/${name}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const INSTALL = /* GraphQL */ `
  mutation($o: ID!, $name: String!, $input: InstallIntegrationInput!) {
    installIntegration(organizationId: $o, integrationName: $name, input: $input) {
      id status space_selection site_selection spaces configuration externalIds target { organization }
      selectedSpaces { id } selectedSites { id } integration { name }
    }
  }
`;

async function newSpace(caller: Caller, organizationId: string, title = 'Docs') {
  const res = await caller.rest('POST', `/v1/orgs/${organizationId}/spaces`, { title });
  expect(res.status).toBe(201);
  return res.body;
}

describe('authentication', () => {
  it('answers 401 on every operation without a token or with a bad one', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/v1/integrations'],
      ['GET', '/v1/integrations/x'],
      ['POST', '/v1/integrations/x', { title: 'x' }],
      ['DELETE', '/v1/integrations/x'],
      ['GET', '/v1/integrations/x/installations'],
    ];
    await expectAuthRequired(server, calls);
  });
});

describe('publishing', () => {
  it('publishes every field, answers the Integration without script or secrets, and bumps the version on each publish', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const name = uniqueName();
    const sent = fullBody(organization.id);
    const first = await admin.rest('POST', `/v1/integrations/${name}`, sent);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expectContract('publishIntegration', first);
    expect(first.body).toMatchObject({
      object: 'integration',
      name,
      version: 1,
      // Answered as sent:
      title: sent.title,
      description: sent.description,
      summary: sent.summary,
      target: sent.target,
      visibility: sent.visibility,
      scopes: sent.scopes,
      categories: sent.categories,
      blocks: sent.blocks,
      contentSources: sent.contentSources,
      externalLinks: sent.externalLinks,
      configurations: sent.configurations,
      previewImages: [`data:image/png;base64,${PNG}`, `data:image/png;base64,${PNG}`],
      verified: false,
      owner: { object: 'organization', id: organization.id },
      urls: {
        location: `http://docs.test/v1/integrations/${name}`,
        icon: `data:image/png;base64,${PNG}`,
        app: `http://docs.test/integrations/${name}`,
        assets: `http://docs.test/integrations/${name}/assets`,
        publicEndpoint: `http://docs.test/integrations/${name}`,
      },
      permissions: { admin: true, install: true },
      contentSecurityPolicy: { 'script-src': "'self' https://cdn.example.com" },
    });
    expect(first.body.script).toBeUndefined();
    expect(first.body.secrets).toBeUndefined();

    const second = await publish(admin, name, fullBody(organization.id, { title: 'Analytics 2', contentSecurityPolicy: "default-src 'self'" }));
    expect(second).toMatchObject({ version: 2, title: 'Analytics 2', contentSecurityPolicy: "default-src 'self'" });
    const third = await publish(admin, name, fullBody(organization.id, { title: 'Analytics 2', contentSecurityPolicy: "default-src 'self'" }));
    expect(third.version).toBe(3);
    expect((await admin.rest('GET', `/v1/integrations/${name}`)).body.version).toBe(3);
  });

  it('accepts the organization by its subdomain, with only the required fields', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const hostname = `pub${Date.now().toString(36)}`;
    await server.em().nativeUpdate(Organization, { id: organization.id }, { hostname });
    const name = uniqueName('minimal');
    const published = await publish(admin, name, { organization: hostname, title: 'Mini', description: '', scopes: [], script: 'x' });
    expect(published).toMatchObject({
      owner: { id: organization.id },
      version: 1,
      previewImages: [],
      blocks: [],
      contentSources: [],
      externalLinks: [],
      categories: [],
      target: 'all',
      visibility: 'public',
    });
    expect(published.urls.icon).toBeUndefined();
    expect(published.contentSecurityPolicy).toBeUndefined();
  });

  it('keeps secrets encrypted at rest, never shows them (REST, GraphQL, logs), and keeps them when a publish omits them', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const name = uniqueName('secretive');
    const answers: unknown[] = [];
    answers.push(await publish(admin, name, fullBody(organization.id)));
    answers.push((await admin.rest('GET', `/v1/integrations/${name}`)).body);
    answers.push((await admin.rest('GET', `/v1/integrations?owner=${organization.id}`)).body);
    answers.push((await admin.gql(`query($n: String!) { integration(integrationName: $n) { name configurations contentSecurityPolicy } }`, { n: name })).data);
    // Refusals do not echo the input either (GraphQL's own coercion messages would).
    const { title: _title, ...noTitle } = fullBody(organization.id);
    const refused = await admin.rest('POST', `/v1/integrations/${name}`, noTitle);
    expectError(refused, 400, 'title: is required');
    const refusedGql = await admin.gql(
      `mutation($n: String!, $input: PublishIntegrationInput!) { publishIntegration(integrationName: $n, input: $input) { name } }`,
      {
        n: name,
        input: { ...noTitle, secrets: { API_SECRET: SECRET }, scopes: ['nope', 5] },
      },
    );
    expectGqlError(refusedGql, 'BAD_REQUEST', /^Variable "\$input"( at "[^"]+")?: /);
    answers.push(refused.body, refusedGql.errors);
    for (const answer of answers) expect(JSON.stringify(answer)).not.toContain(SECRET);
    expect(logLines.join('')).not.toContain(SECRET);

    const row = await server.em().findOneOrFail(Integration, { name });
    expect(JSON.stringify(row.secrets)).not.toContain(SECRET);
    expect(JSON.stringify(row.secrets)).not.toContain('API_SECRET');
    expect(await openSecrets(server.em(), server.clock, name, row.secrets!)).toEqual({ API_SECRET: SECRET });
    // Sealed for this integration only: the name is authenticated with them.
    await expect(openSecrets(server.em(), server.clock, 'another-name', row.secrets!)).rejects.toThrow();

    const { secrets: _omitted, ...withoutSecrets } = fullBody(organization.id);
    await publish(admin, name, withoutSecrets);
    const kept = await server.em().findOneOrFail(Integration, { name });
    expect(await openSecrets(server.em(), server.clock, name, kept.secrets!)).toEqual({ API_SECRET: SECRET });
    await publish(admin, name, fullBody(organization.id, { secrets: {} }));
    expect((await server.em().findOneOrFail(Integration, { name })).secrets).toBeNull();
  });

  it('needs the admin role of the publishing organization, and refuses a name another organization publishes (409)', async () => {
    const { organization, admin, create, outsider } = await newOrganizationWithRoles(server);
    const name = uniqueName();
    expectError(await create.rest('POST', `/v1/integrations/${name}`, fullBody(organization.id)), 403, /needs the admin role/);
    expectError(await outsider.rest('POST', `/v1/integrations/${name}`, fullBody(organization.id)), 404, 'Organization not found');
    expectError(await admin.rest('POST', `/v1/integrations/${name}`, fullBody('no-such-org')), 404, 'Organization not found');
    await publish(admin, name, fullBody(organization.id));
    const theirs = await newOrganization(server, outsider);
    expectError(
      await outsider.rest('POST', `/v1/integrations/${name}`, fullBody(theirs.id)),
      409,
      `integrationName: "${name}" is published by another organization`,
    );
    expect((await admin.rest('GET', `/v1/integrations/${name}`)).body.version).toBe(1);
  });

  it('answers 400 naming the field for every limit, publishing nothing', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const name = uniqueName('invalid');
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [{ title: 'A' }, 'title: must be at least 2 characters'],
      [{ title: 'x'.repeat(31) }, 'title: must be at most 30 characters'],
      [{ description: 'x'.repeat(101) }, 'description: must be at most 100 characters'],
      [{ summary: 'x'.repeat(2049) }, 'summary: must be at most 2048 characters'],
      [{ previewImages: [PNG, PNG, PNG, PNG] }, 'previewImages: must hold at most 3 images'],
      [{ previewImages: ['bm90IGFuIGltYWdl'] }, /^previewImages\.0: must be the base64 content of an image/],
      [{ icon: 'not base64!' }, /^icon: must be the base64 content of an image/],
      [{ externalLinks: Array.from({ length: 6 }, () => ({ url: 'https://example.com', label: 'x' })) }, 'externalLinks: must hold at most 5 links'],
      [{ externalLinks: [{ url: 'nope', label: 'x' }] }, 'externalLinks.0.url: must be an http(s) URL'],
      [{ scopes: ['space:everything'] }, /^scopes\.0: must be one of: space:views:read/],
      [{ categories: ['games'] }, /^categories\.0: must be one of: analytics/],
      [{ visibility: 'secret' }, 'visibility: must be one of: public, private, unlisted'],
      [{ target: 'moon' }, 'target: must be one of: all, site, space, organization'],
      [{ script: '' }, 'script: must not be empty'],
      [{ blocks: [{ id: 'b', title: 'B' }] }, 'blocks.0.title: must be at least 2 characters'],
      [{ blocks: [{ id: 'b', title: 'Block', extra: 1 }] }, /^blocks\.0: Unrecognized key/],
      [{ contentSources: [{ id: 's', title: 'Source' }] }, /^contentSources\.0\.configuration: /],
      [{ configurations: { account: { properties: { a: { type: 'date' } } } } }, /^configurations\.account/],
      [{ configurations: { account: { properties: { a: { type: 'string' } }, required: ['b'] } } }, 'configurations.account.required: names no property "b"'],
      [{ secrets: { KEY: 1 } }, 'secrets.KEY: must be a string'],
      [{ contentSecurityPolicy: 42 }, 'contentSecurityPolicy: must be a policy string or an object of directive strings'],
    ];
    for (const [overrides, message] of cases) {
      expectError(await admin.rest('POST', `/v1/integrations/${name}`, fullBody(organization.id, overrides)), 400, message);
    }
    const { title: _t, ...noTitle } = fullBody(organization.id);
    expectError(await admin.rest('POST', `/v1/integrations/${name}`, noTitle), 400, 'title: is required');
    const { script: _s, ...noScript } = fullBody(organization.id);
    expectError(await admin.rest('POST', `/v1/integrations/${name}`, noScript), 400, 'script: is required');
    const { scopes: _sc, ...noScopes } = fullBody(organization.id);
    expectError(await admin.rest('POST', `/v1/integrations/${name}`, noScopes), 400, 'scopes: is required');
    expectError(await admin.rest('POST', `/v1/integrations/${name}`, fullBody(organization.id, { runtime: 'v9' })), 400, 'runtime: unknown field');
    expectError(
      await admin.rest('POST', `/v1/integrations/bad%20name`, fullBody(organization.id)),
      400,
      'integrationName: must be letters, digits, -, _ and .',
    );
    expectError(await admin.rest('GET', `/v1/integrations/${name}`), 404, 'Integration not found');
  });
});

describe('listing, getting and unpublishing', () => {
  it('lists visible integrations by name with every filter', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const other = await newUser(server);
    const otherOrg = await newOrganization(server, other);
    const prefix = `flt${Date.now().toString(36)}`;
    const names = { a: `${prefix}-a-blocks`, b: `${prefix}-b-sources`, c: `${prefix}-c-private`, d: `${prefix}-d-unlisted`, e: `${prefix}-e-foreign-private` };
    await publish(admin, names.a, fullBody(organization.id, { contentSources: [], categories: ['analytics'] }));
    await publish(admin, names.b, fullBody(organization.id, { blocks: [], categories: ['content'] }));
    await publish(admin, names.c, fullBody(organization.id, { visibility: 'private', blocks: [], contentSources: [] }));
    await publish(other, names.d, fullBody(otherOrg.id, { visibility: 'unlisted' }));
    await publish(other, names.e, fullBody(otherOrg.id, { visibility: 'private' }));

    const list = async (caller: Caller, query: string) => {
      const res = await caller.rest('GET', `/v1/integrations?search=${prefix}${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.items.map((i: { name: string }) => i.name);
    };
    expect(await list(read, '')).toEqual([names.a, names.b, names.c]);
    expect(await list(other, '')).toEqual([names.a, names.b, names.d, names.e]);
    expect(await list(read, '&category=content')).toEqual([names.b]);
    expect(await list(read, '&blocks=true')).toEqual([names.a]);
    expect(await list(read, '&blocks=false')).toEqual([names.b, names.c]);
    expect(await list(read, '&contentSources=true')).toEqual([names.b]);
    expect(await list(read, '&blockDomain=eu.charts.example.com')).toEqual([names.a]);
    expect(await list(read, '&blockDomain=example.org')).toEqual([]);
    expect(await list(other, `&owner=${otherOrg.id}`)).toEqual([names.d, names.e]);
    const page = await read.rest('GET', `/v1/integrations?search=${prefix}&limit=2`);
    expectContract('listIntegrations', page);
    expect(page.body).toMatchObject({ count: 3, next: { page: expect.any(String) } });
    expectError(await read.rest('GET', '/v1/integrations?category=games'), 400, /^category: must be one of/);
    expectError(await read.rest('GET', '/v1/integrations?blockDomain=a/b'), 400, /^blockDomain: must be letters/);
    expectError(await read.rest('GET', '/v1/integrations?blocks=maybe'), 400, 'blocks: must be true or false');

    // Get: public and unlisted for anyone, private only for the owner's members.
    expect((await other.rest('GET', `/v1/integrations/${names.a}`)).body.permissions).toEqual({ admin: false, install: true });
    expect((await read.rest('GET', `/v1/integrations/${names.d}`)).status).toBe(200);
    expect((await read.rest('GET', `/v1/integrations/${names.c}`)).body.permissions).toEqual({ admin: false, install: true });
    expectError(await other.rest('GET', `/v1/integrations/${names.c}`), 404, 'Integration not found');
  });

  it("unpublishes for the owner's admins only, removing installations", async () => {
    const { organization, admin, create } = await newOrganizationWithRoles(server);
    const stranger = await newUser(server);
    const strangerOrg = await newOrganization(server, stranger);
    const name = uniqueName('gone');
    await publish(admin, name, fullBody(organization.id));
    const installed = await stranger.gql(INSTALL, { o: strangerOrg.id, name, input: { configuration: { apiKey: 'k' } } });
    expect(installed.errors).toBeUndefined();

    expectError(await create.rest('DELETE', `/v1/integrations/${name}`), 403, 'Integration: this operation needs the admin role');
    expectError(await stranger.rest('DELETE', `/v1/integrations/${name}`), 403, 'Integration: this operation needs the admin role');
    expectError(await stranger.rest('GET', `/v1/integrations/${name}/installations`), 403, /needs the admin role/);
    const res = await admin.rest('DELETE', `/v1/integrations/${name}`);
    expect(res.status).toBe(204);
    expectError(await admin.rest('GET', `/v1/integrations/${name}`), 404, 'Integration not found');
    expectError(await admin.rest('DELETE', `/v1/integrations/${name}`), 404, 'Integration not found');
    expectGqlError(
      await stranger.gql(`query($o: ID!, $n: String!) { integrationInstallation(organizationId: $o, integrationName: $n) { id } }`, {
        o: strangerOrg.id,
        n: name,
      }),
      'NOT_FOUND',
    );
  });
});

describe('installations', () => {
  it('installs with space and site selections and a checked configuration; the owner lists installations with spaces counts', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const name = uniqueName('installable');
    await publish(admin, name, fullBody(organization.id));

    const customer = await newUser(server);
    const customerOrg = await newOrganization(server, customer);
    const [s1, s2, s3] = [
      await newSpace(customer, customerOrg.id, 'One'),
      await newSpace(customer, customerOrg.id, 'Two'),
      await newSpace(customer, customerOrg.id, 'Three'),
    ];
    const site = (await customer.rest('POST', `/v1/orgs/${customerOrg.id}/sites`, { title: 'Site' })).body;

    const all = await customer.gql(INSTALL, { o: customerOrg.id, name, input: { configuration: { apiKey: 'abc' }, externalIds: ['ext-1'] } });
    expect(all.errors).toBeUndefined();
    expect(all.data.installIntegration).toMatchObject({
      status: 'active',
      space_selection: 'all',
      site_selection: 'all',
      spaces: 3,
      configuration: { apiKey: 'abc', region: 'eu' },
      externalIds: ['ext-1'],
      target: { organization: customerOrg.id },
      selectedSpaces: [],
      integration: { name },
    });

    const selected = await customer.gql(INSTALL, { o: customerOrg.id, name, input: { spaces: [s1.id, s2.id], sites: [site.id] } });
    expect(selected.errors).toBeUndefined();
    expect(selected.data.installIntegration).toMatchObject({
      id: all.data.installIntegration.id,
      space_selection: 'selected',
      site_selection: 'selected',
      spaces: 2,
      configuration: { apiKey: 'abc', region: 'eu' },
      externalIds: ['ext-1'],
      selectedSites: [{ id: site.id }],
    });
    expect(selected.data.installIntegration.selectedSpaces.map((s: { id: string }) => s.id).sort()).toEqual([s1.id, s2.id].sort());
    // A deleted space no longer counts.
    expect((await customer.rest('DELETE', `/v1/spaces/${s2.id}`)).status).toBe(204);

    const pending = await admin.gql(INSTALL, { o: organization.id, name, input: {} });
    expect(pending.data.installIntegration).toMatchObject({ status: 'pending', configuration: { region: 'eu' }, spaces: 0 });

    const list = await admin.rest('GET', `/v1/integrations/${name}/installations`);
    expectContract('listIntegrationInstallations', list);
    expect(list.body.count).toBe(2);
    const byOrg = new Map(list.body.items.map((i: { target: { organization: string } }) => [i.target.organization, i]));
    expect(byOrg.get(customerOrg.id)).toMatchObject({
      status: 'active',
      space_selection: 'selected',
      site_selection: 'selected',
      spaces: 1,
      externalIds: ['ext-1'],
    });
    expect(byOrg.get(organization.id)).toMatchObject({ status: 'pending', space_selection: 'all', spaces: 0 });
    const filtered = await admin.rest('GET', `/v1/integrations/${name}/installations?externalId=ext-1`);
    expect(filtered.body.items.map((i: { id: string }) => i.id)).toEqual([all.data.installIntegration.id]);
    // The integration's developer sees counts, never the customer's spaces.
    const walk = await admin.gql(
      `query($n: String!) { integrationInstallations(integrationName: $n) { items { selectedSpaces { id } selectedSites { id } } } }`,
      { n: name },
    );
    expect(
      walk.data.integrationInstallations.items.flatMap((i: { selectedSpaces: unknown[]; selectedSites: unknown[] }) => [
        ...i.selectedSpaces,
        ...i.selectedSites,
      ]),
    ).toEqual([]);

    // A space transferred to another organization no longer counts either.
    const elsewhere = await newOrganization(server, customer);
    expect((await customer.rest('POST', `/v1/spaces/${s1.id}/transfer`, { organization: elsewhere.id })).status).toBe(200);
    const afterTransfer = await customer.gql(
      `query($o: ID!, $n: String!) { integrationInstallation(organizationId: $o, integrationName: $n) { spaces selectedSpaces { id } } }`,
      {
        o: customerOrg.id,
        n: name,
      },
    );
    expect(afterTransfer.data.integrationInstallation).toEqual({ spaces: 0, selectedSpaces: [] });

    expect(
      (await customer.gql(`mutation($o: ID!, $n: String!) { uninstallIntegration(organizationId: $o, integrationName: $n) }`, { o: customerOrg.id, n: name }))
        .data,
    ).toEqual({ uninstallIntegration: true });
    expect(
      (await customer.gql(`mutation($o: ID!, $n: String!) { uninstallIntegration(organizationId: $o, integrationName: $n) }`, { o: customerOrg.id, n: name }))
        .data,
    ).toEqual({ uninstallIntegration: false });
    expect((await admin.rest('GET', `/v1/integrations/${name}/installations`)).body.count).toBe(1);
    void s3;
  });

  it('refuses bad selections and configurations (400 naming the field), outsiders (404) and non-admins (403)', async () => {
    const { organization, admin, create } = await newOrganizationWithRoles(server);
    const name = uniqueName('strict');
    await publish(admin, name, fullBody(organization.id));
    const privateName = uniqueName('private');
    await publish(admin, privateName, fullBody(organization.id, { visibility: 'private' }));
    const customer = await newUser(server);
    const customerOrg = await newOrganization(server, customer);
    const foreignSpace = await newSpace(admin, organization.id);
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [{ configuration: { apiKey: 5 } }, 'configuration.apiKey: must be string'],
      [{ configuration: { region: 'mars' } }, 'configuration.region: must be equal to one of the allowed values'],
      [{ configuration: { unknown: true } }, 'configuration: "unknown" is not a property of this integration'],
      [{ spaces: [foreignSpace.id] }, `spaces: no space "${foreignSpace.id}" in this organization`],
      [{ sites: ['nope'] }, 'sites: no site "nope" in this organization'],
      [{ space_selection: 'all', spaces: [foreignSpace.id] }, 'spaces: only with space_selection "selected"'],
      [{ space_selection: 'some' }, 'space_selection: must be one of: all, selected'],
      [{ externalIds: ['1', '2', '3', '4', '5', '6'] }, 'externalIds: must hold at most 5 ids'],
    ];
    for (const [input, message] of cases) expectGqlError(await customer.gql(INSTALL, { o: customerOrg.id, name, input }), 'BAD_REQUEST', message);
    expectGqlError(await customer.gql(INSTALL, { o: customerOrg.id, name: privateName, input: {} }), 'NOT_FOUND', 'Integration not found');
    expectGqlError(await customer.gql(INSTALL, { o: customerOrg.id, name: 'no-such-integration', input: {} }), 'NOT_FOUND');
    expectGqlError(await customer.gql(INSTALL, { o: organization.id, name, input: {} }), 'NOT_FOUND', 'Organization not found');
    expectGqlError(await create.gql(INSTALL, { o: organization.id, name, input: {} }), 'FORBIDDEN');
    // A private integration installs on its own organization only.
    const adminOfBoth = await newMember(server, organization.id, 'admin');
    const second = await newOrganization(server, adminOfBoth);
    expectGqlError(await adminOfBoth.gql(INSTALL, { o: second.id, name: privateName, input: {} }), 'FORBIDDEN');
    expect(
      (await admin.gql(INSTALL, { o: organization.id, name: privateName, input: { configuration: { apiKey: 'k' } } })).data.installIntegration.status,
    ).toBe('active');
    expect((await admin.rest('GET', `/v1/integrations/${name}/installations`)).body.count).toBe(0);
  });

  it('accepts no configuration when the integration has no form', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const name = uniqueName('plain');
    await publish(admin, name, fullBody(organization.id, { configurations: undefined, target: 'site' }));
    expectGqlError(
      await admin.gql(INSTALL, { o: organization.id, name, input: { configuration: { a: 1 } } }),
      'BAD_REQUEST',
      'configuration: this integration takes no configuration',
    );
    const space = await newSpace(admin, organization.id);
    expectGqlError(
      await admin.gql(INSTALL, { o: organization.id, name, input: { spaces: [space.id] } }),
      'BAD_REQUEST',
      'spaces: this integration installs on sites only',
    );
    expect((await admin.gql(INSTALL, { o: organization.id, name, input: {} })).data.installIntegration).toMatchObject({
      status: 'active',
      configuration: {},
      spaces: 1,
    });
  });
});
