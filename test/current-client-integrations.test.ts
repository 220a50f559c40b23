/**
 * Integration installations as the current official client (`@gitbook/api@0.202.0`) calls them: an
 * installation by id (install, get, update, uninstall), an organization's installations, integrations and
 * statuses, installations on spaces and sites with configurations of their own, and the integrations (and
 * blocks) installed on a space or a site. Each operation through that client, its answer validated
 * against 0.202.0's reference, with denials, bad input and unknown ids; concurrent identical installs
 * make one installation.
 */
import type { IntegrationInstallationSpaceSelection, IntegrationScope } from '../node_modules/gitbook-api-0.202/dist/client.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentClientFor, expectCurrent, expectRefused } from './support/current-client.js';
import { eventsOf, lastEventSeq } from './support/events.js';
import { newMember, newOrganization, newUser, type Caller } from './support/factories.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();
const clientFor = (caller: Caller) => currentClientFor(server.url, caller);

let counter = 0;
const uniqueName = (prefix: string) => `${prefix}-${++counter}-${Date.now().toString(36)}`;
/** The client's enums, by their values. */
const selection = (value: 'all' | 'selected') => value as IntegrationInstallationSpaceSelection;
const scope = (value: string) => value as IntegrationScope;

/** The publisher's admin, and a customer organization: its admin, a reader, a reader given admin on one space, a guest, an outsider. */
let publisher: Caller;
let publisherOrg: string;
let admin: Caller;
let reader: Caller;
let spaceAdmin: Caller;
let guest: Caller;
let outsider: Caller;
let organizationId: string;
let spaceA: string;
let spaceB: string;
let siteId: string;
let foreignSpace: string;

const BLOCKS = [{ id: 'chart', title: 'Chart', urlUnfurl: ['https://charts.example.com/*'] }];

/** An integration of the publisher, with forms for the account (`apiKey` required), spaces and sites. */
async function publish(overrides: Record<string, unknown> = {}) {
  const name = uniqueName('analytics');
  const res = await publisher.rest('POST', `/v1/integrations/${name}`, {
    organization: publisherOrg,
    title: 'Analytics',
    description: 'Counts page views',
    scopes: ['space:content:read'],
    script: 'export default {}',
    blocks: BLOCKS,
    configurations: {
      account: { properties: { apiKey: { type: 'string' } }, required: ['apiKey'] },
      space: { properties: { channel: { type: 'string', default: 'general' } } },
      site: { properties: { trackingId: { type: 'string' } }, required: ['trackingId'] },
    },
    ...overrides,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return name;
}

/** The integration installed on the customer organization through the client; its installation's id. */
async function install(name: string, on = organizationId) {
  const installed = await expectCurrent('installIntegration', clientFor(admin).integrations.installIntegration(name, { organization: on }));
  return installed.id;
}

beforeAll(async () => {
  publisher = await newUser(server);
  publisherOrg = (await newOrganization(server, publisher, { title: 'Publisher' })).id;
  admin = await newUser(server);
  organizationId = (await newOrganization(server, admin, { title: 'Customer' })).id;
  reader = await newMember(server, organizationId, 'read');
  spaceAdmin = await newMember(server, organizationId, 'read');
  guest = await newMember(server, organizationId, null);
  outsider = await newUser(server);
  const space = async (title: string) => ((await admin.rest('POST', `/v1/orgs/${organizationId}/spaces`, { title })).body as { id: string }).id;
  spaceA = await space('A');
  // Lists of spaces go by creation: B comes after A.
  server.clock.advance(1000);
  spaceB = await space('B');
  const granted = await admin.rest('PATCH', `/v1/spaces/${spaceB}/permissions/users/${spaceAdmin.user.id}`, { role: 'admin' });
  expect(granted.status, JSON.stringify(granted.body)).toBe(204);
  siteId = ((await admin.rest('POST', `/v1/orgs/${organizationId}/sites`, { title: 'Docs' })).body as { id: string }).id;
  foreignSpace = ((await publisher.rest('POST', `/v1/orgs/${publisherOrg}/spaces`, { title: 'Elsewhere' })).body as { id: string }).id;
});

describe('an installation by id', () => {
  it('installs on the organization (on no space or site yet), once: a second install is a 409', async () => {
    const name = await publish();
    const seq = await lastEventSeq(server);
    const installed = await expectCurrent('installIntegration', clientFor(admin).integrations.installIntegration(name, { organization: organizationId }));
    expect(installed).toMatchObject({
      status: 'pending',
      space_selection: 'selected',
      site_selection: 'selected',
      spaces: 0,
      configuration: {},
      externalIds: [],
      target: { organization: organizationId },
      urls: { location: `http://docs.test/v1/integrations/${name}/installations/${installed.id}` },
    });
    await expectRefused(clientFor(admin).integrations.installIntegration(name, { organization: organizationId }), 409);
    const events = await eventsOf(server, organizationId, seq);
    expect(events.map((e) => e.type)).toEqual(['integration.installed']);
  });

  it('makes one installation of concurrent identical installs (201 once, 409 for the others)', async () => {
    const name = await publish();
    const calls = await Promise.all(
      Array.from({ length: 5 }, () => admin.rest('POST', `/v1/integrations/${name}/installations`, { organization: organizationId })),
    );
    expect(calls.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const listed = await expectCurrent('listOrganizationInstallations', clientFor(admin).orgs.listOrganizationInstallations(organizationId, { search: name }));
    expect(listed.items.map((item) => item.integration.name)).toEqual([name]);
  });

  it('refuses non-admins (403), outsiders and unknown or private integrations (404), and a body without its organization (400)', async () => {
    const name = await publish();
    const privateName = await publish({ visibility: 'private' });
    await expectRefused(clientFor(reader).integrations.installIntegration(name, { organization: organizationId }), 403);
    await expectRefused(clientFor(outsider).integrations.installIntegration(name, { organization: organizationId }), 404);
    await expectRefused(clientFor(admin).integrations.installIntegration('no-such-integration', { organization: organizationId }), 404);
    await expectRefused(clientFor(admin).integrations.installIntegration(privateName, { organization: organizationId }), 404);
    await expectRefused(clientFor(admin).integrations.installIntegration(name, { organization: 'no-such-organization' }), 404);
    const bare = await admin.rest('POST', `/v1/integrations/${name}/installations`, {});
    expect(bare).toMatchObject({ status: 400, body: { error: { message: 'organization: is required' } } });
  });

  it("is read by the organization's admins and the integration's publisher, not by members (403) or others (404)", async () => {
    const name = await publish();
    const id = await install(name);
    const got = await expectCurrent('getIntegrationInstallationById', clientFor(admin).integrations.getIntegrationInstallationById(name, id));
    expect(got).toMatchObject({ id, status: 'pending' });
    await expectCurrent('getIntegrationInstallationById', clientFor(publisher).integrations.getIntegrationInstallationById(name, id));
    await expectRefused(clientFor(reader).integrations.getIntegrationInstallationById(name, id), 403);
    await expectRefused(clientFor(outsider).integrations.getIntegrationInstallationById(name, id), 404);
    await expectRefused(clientFor(admin).integrations.getIntegrationInstallationById(name, 'no-such-installation'), 404);
    // Under another integration's name, the id names nothing.
    await expectRefused(clientFor(admin).integrations.getIntegrationInstallationById(await publish(), id), 404);
  });

  it('updates the account configuration (its status), external ids and selections; the same values change nothing', async () => {
    const name = await publish();
    const id = await install(name);
    const api = clientFor(admin).integrations;
    const seq = await lastEventSeq(server);
    server.clock.advance(1000);
    const updated = await expectCurrent(
      'updateIntegrationInstallation',
      api.updateIntegrationInstallation(name, id, { configuration: { apiKey: 'k' }, externalIds: ['acct-1', 'acct-1'] }),
    );
    expect(updated).toMatchObject({ status: 'active', configuration: { apiKey: 'k' }, externalIds: ['acct-1'] });
    server.clock.advance(1000);
    const again = await expectCurrent('updateIntegrationInstallation', api.updateIntegrationInstallation(name, id, { configuration: { apiKey: 'k' } }));
    expect(again.updatedAt).toBe(updated.updatedAt);
    // To every space, then back to a selection: every live space stays selected.
    const all = await expectCurrent('updateIntegrationInstallation', api.updateIntegrationInstallation(name, id, { space_selection: selection('all') }));
    expect(all).toMatchObject({ space_selection: 'all', spaces: 2 });
    const selected = await expectCurrent(
      'updateIntegrationInstallation',
      api.updateIntegrationInstallation(name, id, { space_selection: selection('selected') }),
    );
    expect(selected).toMatchObject({ space_selection: 'selected', spaces: 2 });
    const events = await eventsOf(server, organizationId, seq);
    expect(events.map((e) => [e.type, (e.payload as { changes?: string[] }).changes])).toEqual([
      ['integration.updated', ['status', 'configuration', 'externalIds']],
      ['integration.updated', ['space_selection']],
      ['integration.updated', ['space_selection']],
    ]);
  });

  it('refuses bad bodies (400 naming the field), members and the publisher (403), outsiders and unknown ids (404)', async () => {
    const name = await publish();
    const id = await install(name);
    const path = `/v1/integrations/${name}/installations/${id}`;
    const cases: [Record<string, unknown>, string][] = [
      [{ configuration: { apiKey: 5 } }, 'configuration.apiKey: must be string'],
      [{ configuration: { other: 'x' } }, 'configuration: "other" is not a property of this integration'],
      [{ externalIds: ['1', '2', '3', '4', '5', '6'] }, 'externalIds: must hold at most 5 ids'],
      [{ space_selection: 'some' }, 'space_selection: must be one of: all, selected'],
      [{ configuration: null }, 'configuration: must be an object'],
      [{ externalIds: null }, 'externalIds: must not be null'],
    ];
    for (const [body, message] of cases) {
      const res = await admin.rest('PATCH', path, body);
      expect(res, JSON.stringify(body)).toMatchObject({ status: 400, body: { error: { message } } });
    }
    await expectRefused(clientFor(reader).integrations.updateIntegrationInstallation(name, id, { externalIds: [] }), 403);
    await expectRefused(clientFor(publisher).integrations.updateIntegrationInstallation(name, id, { externalIds: [] }), 403);
    await expectRefused(clientFor(outsider).integrations.updateIntegrationInstallation(name, id, { externalIds: [] }), 404);
    await expectRefused(clientFor(admin).integrations.updateIntegrationInstallation(name, 'no-such-installation', {}), 404);
  });

  it('uninstalls for the organization admins only; the id is unknown afterwards', async () => {
    const name = await publish();
    const id = await install(name);
    await expectRefused(clientFor(reader).integrations.uninstallIntegration(name, id), 403);
    await expectRefused(clientFor(outsider).integrations.uninstallIntegration(name, id), 404);
    const seq = await lastEventSeq(server);
    await expectCurrent('uninstallIntegration', clientFor(admin).integrations.uninstallIntegration(name, id));
    expect((await eventsOf(server, organizationId, seq)).map((e) => e.type)).toEqual(['integration.uninstalled']);
    await expectRefused(clientFor(admin).integrations.getIntegrationInstallationById(name, id), 404);
    await expectRefused(clientFor(admin).integrations.uninstallIntegration(name, id), 404);
  });
});

describe("an organization's integrations and installations", () => {
  it('lists its installations with their integrations (admins), searching by name', async () => {
    const name = await publish();
    await install(name);
    const listed = await expectCurrent('listOrganizationInstallations', clientFor(admin).orgs.listOrganizationInstallations(organizationId, { search: name }));
    expect(listed).toMatchObject({ count: 1, items: [{ integration: { name }, installation: { target: { organization: organizationId } } }] });
    const none = await expectCurrent(
      'listOrganizationInstallations',
      clientFor(admin).orgs.listOrganizationInstallations(organizationId, { search: 'zzz-none' }),
    );
    expect(none).toMatchObject({ count: 0, items: [] });
    await expectRefused(clientFor(reader).orgs.listOrganizationInstallations(organizationId), 403);
    await expectRefused(clientFor(outsider).orgs.listOrganizationInstallations(organizationId), 404);
    await expectRefused(clientFor(admin).orgs.listOrganizationInstallations('no-such-organization'), 404);
    await expectRefused(clientFor(admin).orgs.listOrganizationInstallations(organizationId, { limit: 5000 }), 400);
  });

  it('lists the integrations it may install: public ones and its own, not others’ private or unlisted ones', async () => {
    const own = uniqueName('own');
    const published = await admin.rest('POST', `/v1/integrations/${own}`, {
      organization: organizationId,
      title: 'Own',
      description: 'Ours',
      visibility: 'private',
      scopes: ['site:views:read'],
      script: 'x',
    });
    expect(published.status).toBe(200);
    const publicName = await publish();
    const privateName = await publish({ visibility: 'private' });
    const unlisted = await publish({ visibility: 'unlisted' });
    const api = clientFor(reader).orgs;
    const names = async (query: Parameters<typeof api.listOrganizationIntegrations>[1]) =>
      (await expectCurrent('listOrganizationIntegrations', api.listOrganizationIntegrations(organizationId, query))).items.map((i) => i.name);
    const all = await names({ limit: 1000 });
    expect(all).toEqual(expect.arrayContaining([own, publicName]));
    expect(all).not.toContain(privateName);
    expect(all).not.toContain(unlisted);
    expect(await names({ search: own })).toEqual([own]);
    expect(await names({ search: own, scope: scope('space:content:read') })).toEqual([]);
    expect(await names({ search: own, scope: scope('site:views:read') })).toEqual([own]);
    await expectRefused(clientFor(guest).orgs.listOrganizationIntegrations(organizationId), 403);
    await expectRefused(clientFor(outsider).orgs.listOrganizationIntegrations(organizationId), 404);
    const bad = await reader.rest('GET', `/v1/orgs/${organizationId}/integrations?category=games`);
    expect(bad.status).toBe(400);
  });

  it("tells each installation's status, on the organization, its spaces and its sites, and one integration's", async () => {
    const name = await publish();
    const id = await install(name);
    const api = clientFor(reader).orgs;
    const onOrganization = await expectCurrent('listOrganizationIntegrationsStatus', api.listOrganizationIntegrationsStatus(organizationId, { limit: 1000 }));
    expect(onOrganization.items.find((i) => i.integration.name === name)).toMatchObject({
      status: 'pending',
      target: { type: 'organization', organizationId },
    });
    await clientFor(admin).integrations.installIntegrationOnSpace(name, id, { space: spaceA });
    await clientFor(admin).integrations.installIntegrationOnSite(name, id, { siteId });
    const onSpace = await expectCurrent(
      'listOrganizationIntegrationsStatus',
      api.listOrganizationIntegrationsStatus(organizationId, { target: 'space', space: spaceA }),
    );
    expect(onSpace.items.filter((i) => i.integration.name === name)).toEqual([
      expect.objectContaining({ status: 'active', target: { type: 'space', spaceId: spaceA } }),
    ]);
    const onSite = await expectCurrent('listOrganizationIntegrationsStatus', api.listOrganizationIntegrationsStatus(organizationId, { target: 'site' }));
    expect(onSite.items.filter((i) => i.integration.name === name)).toEqual([expect.objectContaining({ status: 'pending', target: { type: 'site', siteId } })]);
    const status = await expectCurrent('getOrganizationIntegrationStatus', api.getOrganizationIntegrationStatus(organizationId, name));
    expect(status).toEqual({ status: 'pending' });

    await expectRefused(api.getOrganizationIntegrationStatus(organizationId, await publish()), 404);
    await expectRefused(api.listOrganizationIntegrationsStatus(organizationId, { space: spaceA }), 400);
    const moon = await reader.rest('GET', `/v1/orgs/${organizationId}/integrations/installations-status?target=moon`);
    expect(moon.status).toBe(400);
    await expectRefused(clientFor(guest).orgs.listOrganizationIntegrationsStatus(organizationId), 403);
    await expectRefused(clientFor(outsider).orgs.listOrganizationIntegrationsStatus(organizationId), 404);
    await expectRefused(clientFor(outsider).orgs.getOrganizationIntegrationStatus(organizationId, name), 404);
  });
});

describe('installations on spaces', () => {
  it("installs on a space with the space form's defaults, lists, gets and configures it there", async () => {
    const name = await publish();
    const id = await install(name);
    const api = clientFor(admin).integrations;
    const seq = await lastEventSeq(server);
    const onA = await expectCurrent('installIntegrationOnSpace', api.installIntegrationOnSpace(name, id, { space: spaceA }));
    expect(onA).toMatchObject({ integration: name, installation: id, space: spaceA, status: 'active', configuration: { channel: 'general' }, externalIds: [] });
    await expectRefused(api.installIntegrationOnSpace(name, id, { space: spaceA }), 409);
    // An admin of space B alone installs there.
    await expectCurrent('installIntegrationOnSpace', clientFor(spaceAdmin).integrations.installIntegrationOnSpace(name, id, { space: spaceB }));

    const listed = await expectCurrent('listIntegrationInstallationSpaces', api.listIntegrationInstallationSpaces(name, id, { limit: 1 }));
    expect(listed).toMatchObject({ count: 2, items: [{ space: spaceA }] });
    expect(listed.next?.page).toBeTypeOf('string');
    const second = await expectCurrent(
      'listIntegrationInstallationSpaces',
      api.listIntegrationInstallationSpaces(name, id, { limit: 1, page: listed.next!.page }),
    );
    expect(second.items.map((i) => i.space)).toEqual([spaceB]);
    for (const forged of [[1e300, spaceA, id], [0, 'a\u0000', id], ['x']]) {
      const page = Buffer.from(JSON.stringify(forged)).toString('base64url');
      await expectRefused(api.listIntegrationInstallationSpaces(name, id, { page }), 400);
    }
    expect((await api.getIntegrationInstallationById(name, id)).data.spaces).toBe(2);

    const updated = await expectCurrent(
      'updateIntegrationSpaceInstallation',
      clientFor(spaceAdmin).integrations.updateIntegrationSpaceInstallation(name, id, spaceB, { configuration: { channel: 'docs' }, externalIds: ['chan-1'] }),
    );
    expect(updated).toMatchObject({ space: spaceB, configuration: { channel: 'docs' }, externalIds: ['chan-1'] });
    const got = await expectCurrent('getIntegrationSpaceInstallation', api.getIntegrationSpaceInstallation(name, id, spaceB));
    expect(got).toEqual(updated);
    // The publisher reads it, and finds it by its external id.
    await expectCurrent('getIntegrationSpaceInstallation', clientFor(publisher).integrations.getIntegrationSpaceInstallation(name, id, spaceB));
    const everywhere = await expectCurrent(
      'listIntegrationSpaceInstallations',
      clientFor(publisher).integrations.listIntegrationSpaceInstallations(name, { externalId: 'chan-1' }),
    );
    expect(everywhere.items.map((i) => [i.installation, i.space])).toEqual([[id, spaceB]]);
    const events = await eventsOf(server, organizationId, seq);
    expect(events.map((e) => [e.type, (e.payload as { changes?: string[] }).changes])).toEqual([
      ['integration.updated', ['spaces']],
      ['integration.updated', ['spaces']],
      ['integration.updated', ['space.configuration', 'space.externalIds']],
    ]);
    expect(events[2].payload).toMatchObject({ space_installation: { space: spaceB, configuration: { channel: 'docs' } } });
  });

  it('refuses members below admin on the space (403), outsiders, unknown or foreign spaces (404) and bad configurations (400)', async () => {
    const name = await publish();
    const id = await install(name);
    const api = clientFor(admin).integrations;
    await api.installIntegrationOnSpace(name, id, { space: spaceA });
    await expectRefused(clientFor(spaceAdmin).integrations.installIntegrationOnSpace(name, id, { space: spaceA }), 403);
    await expectRefused(clientFor(reader).integrations.getIntegrationSpaceInstallation(name, id, spaceA), 403);
    await expectRefused(clientFor(spaceAdmin).integrations.updateIntegrationSpaceInstallation(name, id, spaceA, {}), 403);
    await expectRefused(clientFor(outsider).integrations.installIntegrationOnSpace(name, id, { space: spaceA }), 404);
    await expectRefused(clientFor(outsider).integrations.listIntegrationInstallationSpaces(name, id), 404);
    await expectRefused(clientFor(reader).integrations.listIntegrationInstallationSpaces(name, id), 403);
    await expectRefused(api.installIntegrationOnSpace(name, id, { space: 'no-such-space' }), 404);
    await expectRefused(api.installIntegrationOnSpace(name, id, { space: foreignSpace }), 404);
    await expectRefused(api.installIntegrationOnSpace(name, 'no-such-installation', { space: spaceA }), 404);
    await expectRefused(api.getIntegrationSpaceInstallation(name, id, spaceB), 404);
    await expectRefused(api.updateIntegrationSpaceInstallation(name, id, spaceB, { externalIds: [] }), 404);
    const path = `/v1/integrations/${name}/installations/${id}/spaces`;
    expect(await admin.rest('POST', path, {})).toMatchObject({ status: 400, body: { error: { message: 'space: is required' } } });
    const bad = await admin.rest('PATCH', `${path}/${spaceA}`, { configuration: { channel: 5 } });
    expect(bad).toMatchObject({ status: 400, body: { error: { message: 'configuration.channel: must be string' } } });
    // The publisher lists where its integration is installed; others may not.
    await expectRefused(clientFor(admin).integrations.listIntegrationSpaceInstallations(name), 403);
    // A site-only integration installs on no space.
    const siteOnly = await publish({ target: 'site' });
    await expectRefused(api.installIntegrationOnSpace(siteOnly, await install(siteOnly), { space: spaceA }), 400);
  });

  it('makes one space installation of concurrent identical installs', async () => {
    const name = await publish();
    const id = await install(name);
    const path = `/v1/integrations/${name}/installations/${id}/spaces`;
    const calls = await Promise.all(Array.from({ length: 5 }, () => admin.rest('POST', path, { space: spaceA })));
    expect(calls.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect((await clientFor(admin).integrations.listIntegrationInstallationSpaces(name, id)).data.count).toBe(1);
  });

  it('uninstalls from a selected space (204, then not there); an installation on every space is a 409', async () => {
    const name = await publish();
    const id = await install(name);
    const api = clientFor(admin).integrations;
    await api.installIntegrationOnSpace(name, id, { space: spaceB });
    await expectRefused(clientFor(reader).integrations.uninstallIntegrationFromSpace(name, id, spaceB), 403);
    await expectRefused(clientFor(outsider).integrations.uninstallIntegrationFromSpace(name, id, spaceB), 404);
    await expectCurrent('uninstallIntegrationFromSpace', clientFor(spaceAdmin).integrations.uninstallIntegrationFromSpace(name, id, spaceB));
    await expectRefused(api.getIntegrationSpaceInstallation(name, id, spaceB), 404);
    await expectCurrent('uninstallIntegrationFromSpace', api.uninstallIntegrationFromSpace(name, id, spaceB));
    await expectRefused(api.uninstallIntegrationFromSpace(name, id, 'no-such-space'), 404);
    // Every space: each is installed, a configuration of its own is kept, uninstalling one is refused.
    await api.updateIntegrationInstallation(name, id, { space_selection: selection('all') });
    await expectRefused(api.uninstallIntegrationFromSpace(name, id, spaceA), 409);
    await expectRefused(api.installIntegrationOnSpace(name, id, { space: spaceA }), 409);
    const configured = await expectCurrent(
      'updateIntegrationSpaceInstallation',
      api.updateIntegrationSpaceInstallation(name, id, spaceA, { configuration: { channel: 'all-hands' } }),
    );
    expect(configured.configuration).toEqual({ channel: 'all-hands' });
    const listed = await expectCurrent('listIntegrationInstallationSpaces', api.listIntegrationInstallationSpaces(name, id));
    expect(listed.items.map((i) => [i.space, i.configuration])).toEqual([
      [spaceA, { channel: 'all-hands' }],
      [spaceB, { channel: 'general' }],
    ]);
  });

  it("lists the integrations installed on a space and the blocks they publish, for the space's readers", async () => {
    const name = await publish();
    const withoutBlocks = await publish({ blocks: [] });
    const id = await install(name);
    const other = await install(withoutBlocks);
    const api = clientFor(admin).integrations;
    await api.installIntegrationOnSpace(name, id, { space: spaceA });
    await api.installIntegrationOnSpace(withoutBlocks, other, { space: spaceA });
    const spaces = clientFor(reader).spaces;
    const installed = await expectCurrent('listSpaceIntegrations', spaces.listSpaceIntegrations(spaceA, { search: name }));
    expect(installed.items.map((i) => i.name)).toEqual([name]);
    const onB = await expectCurrent('listSpaceIntegrations', spaces.listSpaceIntegrations(spaceB, { search: name }));
    expect(onB.items).toEqual([]);
    const blocks = await expectCurrent('listSpaceIntegrationsBlocks', spaces.listSpaceIntegrationsBlocks(spaceA));
    expect(blocks.find((b) => b.name === name)).toEqual({ name, blocks: BLOCKS });
    expect(blocks.map((b) => b.name)).not.toContain(withoutBlocks);
    await expectRefused(clientFor(outsider).spaces.listSpaceIntegrations(spaceA), 404);
    await expectRefused(clientFor(outsider).spaces.listSpaceIntegrationsBlocks(spaceA), 404);
    await expectRefused(spaces.listSpaceIntegrationsBlocks('no-such-space'), 404);
    const long = await reader.rest('GET', `/v1/spaces/${spaceA}/integrations?search=${'x'.repeat(101)}`);
    expect(long.status).toBe(400);
  });
});

describe('installations on sites', () => {
  it('installs on a site (pending until its required property is set), lists, gets, configures and uninstalls it', async () => {
    const name = await publish();
    const id = await install(name);
    const api = clientFor(admin).integrations;
    const onSite = await expectCurrent('installIntegrationOnSite', api.installIntegrationOnSite(name, id, { siteId }));
    expect(onSite).toMatchObject({ integration: name, installation: id, site: siteId, status: 'pending', configuration: {} });
    await expectRefused(api.installIntegrationOnSite(name, id, { siteId }), 409);
    const listed = await expectCurrent('listIntegrationInstallationSites', api.listIntegrationInstallationSites(name, id));
    expect(listed.items.map((i) => i.site)).toEqual([siteId]);
    const updated = await expectCurrent(
      'updateIntegrationSiteInstallation',
      api.updateIntegrationSiteInstallation(name, id, siteId, { configuration: { trackingId: 'UA-1' }, externalIds: ['prop-1'] }),
    );
    expect(updated).toMatchObject({ status: 'active', configuration: { trackingId: 'UA-1' }, externalIds: ['prop-1'] });
    expect(await expectCurrent('getIntegrationSiteInstallation', api.getIntegrationSiteInstallation(name, id, siteId))).toEqual(updated);
    const everywhere = await expectCurrent('listIntegrationSiteInstallations', clientFor(publisher).integrations.listIntegrationSiteInstallations(name));
    expect(everywhere.items.map((i) => [i.installation, i.site])).toEqual([[id, siteId]]);

    const onSiteList = await expectCurrent('listSiteIntegrations', clientFor(reader).orgs.listSiteIntegrations(organizationId, siteId, { search: name }));
    expect(onSiteList.items.map((i) => i.name)).toEqual([name]);

    await expectCurrent('uninstallIntegrationFromSite', api.uninstallIntegrationFromSite(name, id, siteId));
    await expectRefused(api.getIntegrationSiteInstallation(name, id, siteId), 404);
    const after = await expectCurrent('listSiteIntegrations', clientFor(reader).orgs.listSiteIntegrations(organizationId, siteId, { search: name }));
    expect(after.items).toEqual([]);
  });

  it("needs the organization's admins on sites (403 below), and refuses outsiders, unknown sites and ids (404) and bad bodies (400)", async () => {
    const name = await publish();
    const id = await install(name);
    const api = clientFor(admin).integrations;
    await expectRefused(clientFor(reader).integrations.installIntegrationOnSite(name, id, { siteId }), 403);
    await expectRefused(clientFor(outsider).integrations.installIntegrationOnSite(name, id, { siteId }), 404);
    await expectRefused(api.installIntegrationOnSite(name, id, { siteId: 'no-such-site' }), 404);
    await expectRefused(api.getIntegrationSiteInstallation(name, id, siteId), 404);
    await expectRefused(api.listIntegrationInstallationSites(name, 'no-such-installation'), 404);
    await expectRefused(clientFor(reader).integrations.listIntegrationInstallationSites(name, id), 403);
    await api.installIntegrationOnSite(name, id, { siteId });
    await expectRefused(clientFor(reader).integrations.updateIntegrationSiteInstallation(name, id, siteId, {}), 403);
    await expectRefused(clientFor(reader).integrations.uninstallIntegrationFromSite(name, id, siteId), 403);
    const path = `/v1/integrations/${name}/installations/${id}/sites`;
    expect(await admin.rest('POST', path, { site: siteId })).toMatchObject({ status: 400, body: { error: { message: 'site: unknown field' } } });
    const bad = await admin.rest('PATCH', `${path}/${siteId}`, { configuration: 'UA-1' });
    expect(bad).toMatchObject({ status: 400, body: { error: { message: 'configuration: must be an object' } } });
    await expectRefused(clientFor(admin).integrations.listIntegrationSiteInstallations(name), 403);
    await expectRefused(clientFor(outsider).orgs.listSiteIntegrations(organizationId, siteId), 404);
    await expectRefused(clientFor(admin).orgs.listSiteIntegrations(publisherOrg, siteId), 404);
    await expectRefused(clientFor(guest).orgs.listSiteIntegrations(organizationId, siteId), 404);
  });
});
