/**
 * Translation settings (contract §2.12, §4.11, §8) through both doors on the real database: shapes,
 * limits, languages, permissions.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { newOrganization, newOrganizationWithRoles, type Caller } from './support/factories.js';
import { expectAuthRequired, expectError, expectGqlError } from './support/expectations.js';
import { useTestServer } from './support/server.js';

const SECOND = 1000;

const server = useTestServer();
beforeEach(() => server.clock.advance(SECOND));

const base = (organizationId: string) => `/v1/orgs/${organizationId}/translations`;

async function createSettings(caller: Caller, organizationId: string, body: Record<string, unknown> = { title: 'Docs in Europe' }) {
  const res = await caller.rest('POST', base(organizationId), body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('authentication and permissions', () => {
  it('answers 401 without a token or with a bad one', async () => {
    const { organization } = await newOrganizationWithRoles(server);
    const calls: [string, string, unknown?][] = [
      ['GET', base(organization.id)],
      ['POST', base(organization.id), { title: 'x' }],
      ['GET', `${base(organization.id)}/x`],
      ['PUT', `${base(organization.id)}/x`, { title: 'y' }],
      ['DELETE', `${base(organization.id)}/x`],
    ];
    await expectAuthRequired(server, calls);
  });

  it('lets read members see, create members change, and hides everything from outsiders', async () => {
    const { organization, admin, create, read, guest, outsider } = await newOrganizationWithRoles(server);
    const settings = await createSettings(admin, organization.id);
    const path = `${base(organization.id)}/${settings.id}`;
    expect((await read.rest('GET', path)).body.permissions).toEqual({ edit: false });
    expect((await create.rest('GET', path)).body.permissions).toEqual({ edit: true });
    expectError(await read.rest('POST', base(organization.id), { title: 'x' }), 403, 'Organization: this operation needs the create role');
    expectError(await read.rest('PUT', path, { title: 'x' }), 403, /needs the create role/);
    expectError(await read.rest('DELETE', path), 403, /needs the create role/);
    expectError(await guest.rest('GET', path), 403, /needs the read role/);
    expect((await create.rest('PUT', path, { title: 'By a creator' })).status).toBe(200);
    expectError(await outsider.rest('GET', path), 404, 'Organization not found');
    const theirs = await newOrganization(server, outsider);
    expectError(await outsider.rest('GET', `${base(theirs.id)}/${settings.id}`), 404, 'Translation settings not found');
    expectError(await outsider.rest('DELETE', `${base(theirs.id)}/${settings.id}`), 404, 'Translation settings not found');
  });
});

describe('the operations', () => {
  it('creates, gets, lists, replaces and deletes settings with their languages', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const created = await admin.rest('POST', base(organization.id), { title: 'Europe', languages: ['fr', 'de', 'no'] });
    expect(created.status).toBe(201);
    const at = server.clock.now().toISOString();
    const location = `http://docs.test${base(organization.id)}/${created.body.id}`;
    expect(created.body).toEqual({
      object: 'translation-settings',
      id: expect.any(String),
      title: 'Europe',
      languages: ['fr', 'de', 'no'],
      createdAt: at,
      updatedAt: at,
      permissions: { edit: true },
      urls: { location },
    });
    expect(created.headers.get('location')).toBe(location);
    const path = `${base(organization.id)}/${created.body.id}`;
    expect((await admin.rest('GET', path)).body).toEqual(created.body);

    server.clock.advance(SECOND);
    const renamed = await admin.rest('PUT', path, { title: 'Europe and Asia' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ title: 'Europe and Asia', languages: ['fr', 'de', 'no'], createdAt: at, updatedAt: server.clock.now().toISOString() });
    const relanguaged = await admin.rest('PUT', path, { title: 'Asia', languages: ['ja', 'zh'] });
    expect(relanguaged.body).toMatchObject({ title: 'Asia', languages: ['ja', 'zh'] });
    const cleared = await admin.rest('PUT', path, { title: 'None yet', languages: [] });
    expect(cleared.body.languages).toEqual([]);

    const bare = await createSettings(admin, organization.id, { title: 'Bare' });
    expect(bare.languages).toEqual([]);
    const list = await admin.rest('GET', `${base(organization.id)}?limit=1`);
    expect(list.body).toMatchObject({ count: 2, items: [{ id: created.body.id }], next: { page: expect.any(String) } });
    const rest2 = await admin.rest('GET', `${base(organization.id)}?limit=1&page=${list.body.next.page}`);
    expect(rest2.body.items.map((s: { id: string }) => s.id)).toEqual([bare.id]);

    const deleted = await admin.rest('DELETE', path);
    expect(deleted.status).toBe(204);
    expectError(await admin.rest('GET', path), 404, 'Translation settings not found');
    expectError(await admin.rest('PUT', path, { title: 'x' }), 404, 'Translation settings not found');
  });
});

describe('bad input', () => {
  it('answers 400 naming the field, changing nothing', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const settings = await createSettings(admin, organization.id, { title: 'Kept', languages: ['en'] });
    const path = `${base(organization.id)}/${settings.id}`;
    const cases: [unknown, string | RegExp][] = [
      [{}, 'title: is required'],
      [{ title: '' }, 'title: must be at least 1 character'],
      [{ title: 'x'.repeat(101) }, 'title: must be at most 100 characters'],
      [{ title: 'ok', languages: ['xx'] }, /^languages\[0\]: expected one of: .*\bfr\b/],
      [{ title: 'ok', languages: ['fr', 'fr'] }, 'languages: must not name a language twice'],
      [{ title: 'ok', color: 'red' }, 'color: unknown field'],
    ];
    for (const [body, message] of cases) {
      expectError(await admin.rest('POST', base(organization.id), body), 400, message);
      expectError(await admin.rest('PUT', path, body), 400, message);
    }
    expect((await admin.rest('GET', path)).body).toMatchObject({ title: 'Kept', languages: ['en'] });
    expect((await admin.rest('GET', base(organization.id))).body.count).toBe(1);
  });
});

describe('GraphQL', () => {
  it('sets languages and walks to the organization', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const created = await admin.gql(
      `mutation($o: ID!) { createTranslationSettings(organizationId: $o, input: {title: "Docs", languages: [fr, ja]}) { id title languages owningOrganization { id } } }`,
      { o: organization.id },
    );
    const id = created.data.createTranslationSettings.id;
    expect(created.data.createTranslationSettings).toEqual({ id, title: 'Docs', languages: ['fr', 'ja'], owningOrganization: { id: organization.id } });
    const updated = await admin.gql(
      `mutation($o: ID!, $id: ID!) { updateTranslationSettings(organizationId: $o, translationSettingsId: $id, input: {title: "Docs", languages: [es]}) { languages } }`,
      { o: organization.id, id },
    );
    expect(updated.data.updateTranslationSettings.languages).toEqual(['es']);
    const list = await read.gql(`query($o: ID!) { translationSettingsList(organizationId: $o) { count items { id permissions { edit } } } }`, {
      o: organization.id,
    });
    expect(list.data.translationSettingsList).toEqual({ count: 1, items: [{ id, permissions: { edit: false } }] });
    expectGqlError(
      await read.gql(`mutation($o: ID!, $id: ID!) { deleteTranslationSettings(organizationId: $o, translationSettingsId: $id) }`, { o: organization.id, id }),
      'FORBIDDEN',
    );
    expectGqlError(
      await admin.gql(`mutation($o: ID!) { createTranslationSettings(organizationId: $o, input: {title: ""}) { id } }`, { o: organization.id }),
      'BAD_REQUEST',
      'title: must be at least 1 character',
    );
  });
});
