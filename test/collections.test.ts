/**
 * Collections (contract §4.1, limits §8) through both doors — REST /v1 and POST /graphql — on the real
 * database. One server per file; every test builds its own organizations, so tests never share rows.
 */
import { describe, expect, it } from 'vitest';
import { createCollection, createSpace } from './support/content.js';
import { expectAuthRequired, expectError, expectGqlAuthRequired, expectGqlError, expectLimitsRefused } from './support/expectations.js';
import { newMember, newOrganization, newOrganizationWithMember, newOrganizationWithRoles, newUser, type Caller } from './support/factories.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

const DAY = 24 * 60 * 60 * 1000;

// ─────────────────────────────────────────────────────────────────────────────
// Helpers
// ─────────────────────────────────────────────────────────────────────────────

async function move(caller: Caller, id: string, body: unknown) {
  return caller.rest('POST', `/v1/collections/${id}/move`, body);
}

/** Titles of an organization's collection list, as the caller sees it. */
async function listTitles(caller: Caller, organizationId: string, query = ''): Promise<string[]> {
  const res = await caller.rest('GET', `/v1/orgs/${organizationId}/collections${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items.map((c: { title: string }) => c.title);
}

async function childTitles(caller: Caller, collectionId: string): Promise<string[]> {
  const res = await caller.gql(`query($id: ID!) { collection(id: $id) { collections(limit: 1000) { items { title } } } }`, { id: collectionId });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data.collection.collections.items.map((c: { title: string }) => c.title);
}

/** Three collections titled `chain`, each inside the one before, then one more titled `apart` at the top level. */
async function chainAndOneApart(admin: Caller, organizationId: string, chain: [string, string, string], apart: string) {
  const first = await createCollection(admin, organizationId, { title: chain[0] });
  const second = await createCollection(admin, organizationId, { title: chain[1], parent: first.id });
  const third = await createCollection(admin, organizationId, { title: chain[2], parent: second.id });
  return [first, second, third, await createCollection(admin, organizationId, { title: apart })] as const;
}

const ADMIN_PERMISSIONS = { view: true, admin: true, viewInviteLinks: true, create: true };
const CREATE_PERMISSIONS = { view: true, admin: false, viewInviteLinks: false, create: true };
const READ_PERMISSIONS = { view: true, admin: false, viewInviteLinks: false, create: false };

const GQL_COLLECTION = /* GraphQL */ `
  fragment C on Collection {
    object id title description organization parent defaultLevel
    urls { location app }
    permissions { view admin viewInviteLinks create }
  }
`;

/** A collection id that exists nowhere. */
const UNKNOWN = 'AAAAAAAAAAAAAAAAAAAA';

// ─────────────────────────────────────────────────────────────────────────────
// createCollection — POST /v1/orgs/{organizationId}/collections
// ─────────────────────────────────────────────────────────────────────────────

describe('POST /v1/orgs/{organizationId}/collections (createCollection)', () => {
  it('answers 401 without a token or with a bad one', async () => {
    const { organization } = await newOrganizationWithRoles(server);
    await expectAuthRequired(server, [['POST', `/v1/orgs/${organization.id}/collections`, { title: 'X' }]]);
  });

  it('creates a top-level collection: 201, the contract shape, a Location header', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const res = await admin.rest('POST', `/v1/orgs/${organization.id}/collections`, { title: 'Guides', description: 'How-tos' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'collection',
      id: expect.stringMatching(/^[0-9A-Za-z]{20}$/),
      title: 'Guides',
      description: 'How-tos',
      organization: organization.id,
      defaultLevel: 'inherit',
      urls: {
        location: `http://docs.test/v1/collections/${res.body.id}`,
        app: `http://docs.test/o/${organization.id}/c/${res.body.id}`,
      },
      permissions: ADMIN_PERMISSIONS,
    });
    expect(res.body).not.toHaveProperty('parent');
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    const got = await admin.rest('GET', `/v1/collections/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('defaults the title and accepts an empty body', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const created = await createCollection(admin, organization.id, {});
    expect(created.title).toBe('Untitled collection');
    expect(created).not.toHaveProperty('description');
    const noBody = await admin.rest('POST', `/v1/orgs/${organization.id}/collections`);
    expect(noBody.status).toBe(201);
    expect(noBody.body.title).toBe('Untitled collection');
  });

  it('creates nested collections under a parent', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const parent = await createCollection(admin, organization.id, { title: 'Parent' });
    const child = await createCollection(admin, organization.id, { title: 'Child', parent: parent.id });
    const grandchild = await createCollection(admin, organization.id, { title: 'Grandchild', parent: child.id });
    expect(child.parent).toBe(parent.id);
    expect(grandchild.parent).toBe(child.id);
    expect(await childTitles(admin, parent.id)).toEqual(['Child']);
    expect(await childTitles(admin, child.id)).toEqual(['Grandchild']);
  });

  it('lets a member with the create role create at the top level and in collections', async () => {
    const { organization, admin, create } = await newOrganizationWithRoles(server);
    const top = await createCollection(create, organization.id, { title: 'Mine' });
    expect(top.permissions).toEqual(CREATE_PERMISSIONS);
    const parent = await createCollection(admin, organization.id, { title: 'Shared' });
    const inside = await createCollection(create, organization.id, { title: 'Inside', parent: parent.id });
    expect(inside.parent).toBe(parent.id);
  });

  it('answers 403 to members below the create role, at the top level and in a collection', async () => {
    const { organization, admin, edit, read, guest } = await newOrganizationWithRoles(server);
    const parent = await createCollection(admin, organization.id, { title: 'Parent' });
    for (const member of [edit, read, guest]) {
      expectError(
        await member.rest('POST', `/v1/orgs/${organization.id}/collections`, { title: 'Nope' }),
        403,
        'Creating content at the top level needs the create role in the organization',
      );
    }
    for (const member of [edit, read]) {
      expectError(
        await member.rest('POST', `/v1/orgs/${organization.id}/collections`, { title: 'Nope', parent: parent.id }),
        403,
        'Creating content in this collection needs the create role on it',
      );
    }
    expect(await listTitles(admin, organization.id)).toEqual(['Parent']);
  });

  it('answers 403 when the parent collection restricts a create member to read', async () => {
    const { organization, admin, create } = await newOrganizationWithRoles(server);
    const parent = await createCollection(admin, organization.id, { title: 'Locked' });
    expect((await admin.rest('PATCH', `/v1/collections/${parent.id}`, { defaultLevel: 'read' })).status).toBe(200);
    expectError(
      await create.rest('POST', `/v1/orgs/${organization.id}/collections`, { parent: parent.id }),
      403,
      'Creating content in this collection needs the create role on it',
    );
  });

  it('answers 400 for a parent that is unknown, of another organization or hidden from the caller', async () => {
    const { organization, admin, create } = await newOrganizationWithRoles(server);
    const other = await newOrganization(server, admin);
    const foreign = await createCollection(admin, other.id, { title: 'Foreign' });
    expectError(
      await admin.rest('POST', `/v1/orgs/${organization.id}/collections`, { parent: UNKNOWN }),
      400,
      `parent: no collection "${UNKNOWN}" in this organization`,
    );
    expectError(
      await admin.rest('POST', `/v1/orgs/${organization.id}/collections`, { parent: foreign.id }),
      400,
      `parent: no collection "${foreign.id}" in this organization`,
    );
    const hidden = await createCollection(admin, organization.id, { title: 'Hidden' });
    await admin.rest('PATCH', `/v1/collections/${hidden.id}`, { defaultLevel: null });
    expectError(await create.rest('POST', `/v1/orgs/${organization.id}/collections`, { parent: hidden.id }), 400, /^parent: /);
  });

  it('answers 404 to outsiders and for unknown organizations', async () => {
    const { organization, outsider, admin } = await newOrganizationWithRoles(server);
    expectError(await outsider.rest('POST', `/v1/orgs/${organization.id}/collections`, { title: 'X' }), 404, 'Organization not found');
    expectError(await admin.rest('POST', `/v1/orgs/${UNKNOWN}/collections`, { title: 'X' }), 404, 'Organization not found');
  });

  it('enforces title max 50 and description max 100', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    expect((await createCollection(admin, organization.id, { title: 't'.repeat(50), description: 'd'.repeat(100) })).title).toHaveLength(50);
    expectError(await admin.rest('POST', `/v1/orgs/${organization.id}/collections`, { title: 't'.repeat(51) }), 400, 'title: must be at most 50 characters');
    expectError(
      await admin.rest('POST', `/v1/orgs/${organization.id}/collections`, { description: 'd'.repeat(101) }),
      400,
      'description: must be at most 100 characters',
    );
    expect(await listTitles(admin, organization.id)).toEqual(['t'.repeat(50)]);
  });

  it('answers 400 to unknown fields, wrong JSON types, non-object and malformed bodies', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const path = `/v1/orgs/${organization.id}/collections`;
    expectError(await admin.rest('POST', path, { title: 'X', color: 'red' }), 400, 'color: unknown field');
    expectError(await admin.rest('POST', path, { defaultLevel: 'read' }), 400, 'defaultLevel: unknown field');
    expectError(await admin.rest('POST', path, { title: 42 }), 400, /^title: /);
    expectError(await admin.rest('POST', path, { description: ['a'] }), 400, /^description: /);
    expectError(await admin.rest('POST', path, { parent: { id: 'x' } }), 400, /^parent: /);
    expectError(await admin.rest('POST', path, [{ title: 'X' }]), 400, /body/);
    expectError(await admin.rest('POST', path, '"just a string"'), 400);
    expectError(await admin.rest('POST', path, '{"title": '), 400, 'Malformed JSON body');
    expect(await listTitles(admin, organization.id)).toEqual([]);
  });
});

// ─────────────────────────────────────────────────────────────────────────────
// getCollectionById — GET /v1/collections/{collectionId}
// ─────────────────────────────────────────────────────────────────────────────

describe('GET /v1/collections/{collectionId} (getCollectionById)', () => {
  it('answers 401 without a token or with a bad one', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    await expectAuthRequired(server, [['GET', `/v1/collections/${c.id}`]]);
  });

  it('returns the collection with permissions that follow the caller role', async () => {
    const { organization, admin, create, edit, read } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id, { title: 'Handbook' });
    const expected = { ...c };
    delete expected.permissions;
    for (const [caller, permissions] of [
      [admin, ADMIN_PERMISSIONS],
      [create, CREATE_PERMISSIONS],
      [edit, READ_PERMISSIONS],
      [read, READ_PERMISSIONS],
    ] as const) {
      const res = await caller.rest('GET', `/v1/collections/${c.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...expected, permissions });
    }
  });

  it('includes parent for a nested collection', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const parent = await createCollection(admin, organization.id);
    const child = await createCollection(admin, organization.id, { parent: parent.id });
    const res = await admin.rest('GET', `/v1/collections/${child.id}`);
    expect(res.body.parent).toBe(parent.id);
  });

  it('answers 404 to outsiders, guests and for unknown ids, without leaking existence', async () => {
    const { organization, admin, outsider, guest } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    expectError(await outsider.rest('GET', `/v1/collections/${c.id}`), 404, 'Collection not found');
    expectError(await guest.rest('GET', `/v1/collections/${c.id}`), 404, 'Collection not found');
    expectError(await admin.rest('GET', `/v1/collections/${UNKNOWN}`), 404, 'Collection not found');
    // an admin of another organization sees nothing of this one either
    const otherAdmin = await newUser(server);
    await newOrganization(server, otherAdmin);
    expectError(await otherAdmin.rest('GET', `/v1/collections/${c.id}`), 404, 'Collection not found');
  });
});

// ─────────────────────────────────────────────────────────────────────────────
// updateCollectionById — PATCH /v1/collections/{collectionId}
// ─────────────────────────────────────────────────────────────────────────────

describe('PATCH /v1/collections/{collectionId} (updateCollectionById)', () => {
  it('answers 401 without a token or with a bad one', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    await expectAuthRequired(server, [['PATCH', `/v1/collections/${c.id}`, { title: 'X' }]]);
    expect((await admin.rest('GET', `/v1/collections/${c.id}`)).body.title).toBe('Untitled collection');
  });

  it('updates title, description and defaultLevel, keeping omitted fields', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id, { title: 'Old', description: 'Keep me' });
    const renamed = await admin.rest('PATCH', `/v1/collections/${c.id}`, { title: 'New' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...c, title: 'New' });

    const leveled = await admin.rest('PATCH', `/v1/collections/${c.id}`, { defaultLevel: 'comment', description: 'Changed' });
    expect(leveled.body).toMatchObject({ title: 'New', description: 'Changed', defaultLevel: 'comment' });

    const unchanged = await admin.rest('PATCH', `/v1/collections/${c.id}`, {});
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toEqual(leveled.body);

    const got = await admin.rest('GET', `/v1/collections/${c.id}`);
    expect(got.body).toEqual(leveled.body);
  });

  it('removes the description with null', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id, { title: 'T', description: 'Gone soon' });
    const res = await admin.rest('PATCH', `/v1/collections/${c.id}`, { description: null });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('description');
    expect((await admin.rest('GET', `/v1/collections/${c.id}`)).body).not.toHaveProperty('description');
  });

  it('accepts every role, inherit and null as defaultLevel; null is kept in the body', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    for (const level of ['admin', 'create', 'review', 'edit', 'comment', 'read', 'inherit', null]) {
      const res = await admin.rest('PATCH', `/v1/collections/${c.id}`, { defaultLevel: level });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.defaultLevel).toBe(level);
      expect(res.body).toHaveProperty('defaultLevel');
    }
    expect((await admin.rest('GET', `/v1/collections/${c.id}`)).body.defaultLevel).toBeNull();
  });

  it('enforces the limits and types with a 400 naming the field', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id, { title: 'Stable', description: 'Stable too' });
    const path = `/v1/collections/${c.id}`;
    expect((await admin.rest('PATCH', path, { title: 'x'.repeat(50), description: 'y'.repeat(100) })).status).toBe(200);
    expectError(await admin.rest('PATCH', path, { title: 'x'.repeat(51) }), 400, 'title: must be at most 50 characters');
    expectError(await admin.rest('PATCH', path, { description: 'y'.repeat(101) }), 400, 'description: must be at most 100 characters');
    expectError(
      await admin.rest('PATCH', path, { defaultLevel: 'owner' }),
      400,
      'defaultLevel: expected one of: admin, create, review, edit, comment, read, inherit',
    );
    expectError(await admin.rest('PATCH', path, { defaultLevel: 'guest' }), 400, /^defaultLevel: /);
    expectError(await admin.rest('PATCH', path, { defaultLevel: 3 }), 400, /^defaultLevel: /);
    expectError(await admin.rest('PATCH', path, { title: null }), 400, /^title: /);
    expectError(await admin.rest('PATCH', path, { title: 12 }), 400, /^title: /);
    expectError(await admin.rest('PATCH', path, { description: { text: 'x' } }), 400, /^description: /);
    expectError(await admin.rest('PATCH', path, { parent: null }), 400, 'parent: unknown field');
    expectError(await admin.rest('PATCH', path, { organization: 'x' }), 400, 'organization: unknown field');
    expectError(await admin.rest('PATCH', path, ['title']), 400, /body/);
    expectError(await admin.rest('PATCH', path, '{oops'), 400, 'Malformed JSON body');
    const got = await admin.rest('GET', path);
    expect(got.body).toMatchObject({ title: 'x'.repeat(50), description: 'y'.repeat(100), defaultLevel: 'inherit' });
  });

  it('answers 403 to members below admin on the collection', async () => {
    const { organization, admin, create, edit, read } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id, { title: 'Fixed' });
    for (const member of [create, edit, read]) {
      expectError(await member.rest('PATCH', `/v1/collections/${c.id}`, { title: 'Hacked' }), 403, 'Collection: this operation needs the admin role');
    }
    // a member who created it holds no more than their role
    const own = await createCollection(create, organization.id, { title: 'Own' });
    expectError(await create.rest('PATCH', `/v1/collections/${own.id}`, { title: 'Renamed' }), 403);
    expect((await admin.rest('GET', `/v1/collections/${c.id}`)).body.title).toBe('Fixed');
  });

  it('answers 404 to outsiders, guests and for unknown ids', async () => {
    const { organization, admin, outsider, guest } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    expectError(await outsider.rest('PATCH', `/v1/collections/${c.id}`, { title: 'X' }), 404, 'Collection not found');
    expectError(await guest.rest('PATCH', `/v1/collections/${c.id}`, { title: 'X' }), 404, 'Collection not found');
    expectError(await admin.rest('PATCH', `/v1/collections/${UNKNOWN}`, { title: 'X' }), 404, 'Collection not found');
  });
});

// ─────────────────────────────────────────────────────────────────────────────
// deleteCollectionById — DELETE /v1/collections/{collectionId}
// ─────────────────────────────────────────────────────────────────────────────

describe('DELETE /v1/collections/{collectionId} (deleteCollectionById)', () => {
  it('answers 401 without a token or with a bad one', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    await expectAuthRequired(server, [['DELETE', `/v1/collections/${c.id}`]]);
    expect((await admin.rest('GET', `/v1/collections/${c.id}`)).status).toBe(200);
  });

  it('answers 204 with no body and the collection is gone', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id, { title: 'Doomed' });
    const keep = await createCollection(admin, organization.id, { title: 'Kept' });
    const res = await admin.rest('DELETE', `/v1/collections/${c.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(res.headers.get('content-type')).toBeNull();
    expectError(await admin.rest('GET', `/v1/collections/${c.id}`), 404, 'Collection not found');
    expectError(await admin.rest('DELETE', `/v1/collections/${c.id}`), 404, 'Collection not found');
    expect(await listTitles(admin, organization.id)).toEqual(['Kept']);
    expect((await admin.rest('GET', `/v1/collections/${keep.id}`)).status).toBe(200);
  });

  it('deletes sub-collections and soft-deletes the spaces inside, which can be restored at the top level', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const [root, child, grandchild, sibling] = await chainAndOneApart(admin, organization.id, ['Root', 'Child', 'Grandchild'], 'Sibling');
    const inRoot = await createSpace(admin, organization.id, { title: 'In root', parent: root.id });
    const inGrandchild = await createSpace(admin, organization.id, { title: 'In grandchild', parent: grandchild.id, visibility: 'in-collection' });
    const inSibling = await createSpace(admin, organization.id, { title: 'In sibling', parent: sibling.id });
    const topLevel = await createSpace(admin, organization.id, { title: 'Top level' });

    const res = await admin.rest('DELETE', `/v1/collections/${root.id}`);
    expect(res.status).toBe(204);

    for (const id of [root.id, child.id, grandchild.id]) expectError(await admin.rest('GET', `/v1/collections/${id}`), 404);
    expect(await listTitles(admin, organization.id)).toEqual(['Sibling']);

    // spaces inside are soft-deleted: hidden from lists, still readable within the window
    const spaces = await admin.rest('GET', `/v1/orgs/${organization.id}/spaces`);
    expect(spaces.body.items.map((s: { id: string }) => s.id).sort()).toEqual([inSibling.id, topLevel.id].sort());
    for (const space of [inRoot, inGrandchild]) {
      const got = await admin.rest('GET', `/v1/spaces/${space.id}`);
      expect(got.status).toBe(200);
      expect(got.body.deletedAt).toBe(server.clock.now().toISOString());
    }
    expect((await admin.rest('GET', `/v1/spaces/${inSibling.id}`)).body).not.toHaveProperty('deletedAt');
    expect((await admin.rest('GET', `/v1/collections/${sibling.id}/spaces`)).body.count).toBe(1);

    // restore brings a space back at the top level (its collection is gone)
    server.clock.advance(6 * DAY);
    try {
      const restored = await admin.rest('POST', `/v1/spaces/${inGrandchild.id}/restore`);
      expect(restored.status).toBe(200);
      expect(restored.body).not.toHaveProperty('deletedAt');
      expect(restored.body).not.toHaveProperty('parent');
      expect(restored.body.visibility).toBe('private');
      const after = await admin.rest('GET', `/v1/orgs/${organization.id}/spaces`);
      expect(after.body.items.map((s: { id: string }) => s.id).sort()).toEqual([inSibling.id, topLevel.id, inGrandchild.id].sort());

      // past 7 days the other space is gone for good
      server.clock.advance(1 * DAY);
      expectError(await admin.rest('GET', `/v1/spaces/${inRoot.id}`), 404, 'Space not found');
      expectError(await admin.rest('POST', `/v1/spaces/${inRoot.id}/restore`), 404);
    } finally {
      server.clock.advance(-7 * DAY);
    }
  });

  it('answers 403 to members below admin and 404 to outsiders, guests and unknown ids', async () => {
    const { organization, admin, create, edit, read, guest, outsider } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    for (const member of [create, edit, read]) {
      expectError(await member.rest('DELETE', `/v1/collections/${c.id}`), 403, 'Collection: this operation needs the admin role');
    }
    expectError(await guest.rest('DELETE', `/v1/collections/${c.id}`), 404, 'Collection not found');
    expectError(await outsider.rest('DELETE', `/v1/collections/${c.id}`), 404, 'Collection not found');
    expectError(await admin.rest('DELETE', `/v1/collections/${UNKNOWN}`), 404, 'Collection not found');
    expect((await admin.rest('GET', `/v1/collections/${c.id}`)).status).toBe(200);
  });
});

// ─────────────────────────────────────────────────────────────────────────────
// listSpacesInCollectionById — GET /v1/collections/{collectionId}/spaces
// ─────────────────────────────────────────────────────────────────────────────

describe('GET /v1/collections/{collectionId}/spaces (listSpacesInCollectionById)', () => {
  it('answers 401 without a token or with a bad one', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    await expectAuthRequired(server, [['GET', `/v1/collections/${c.id}/spaces`]]);
  });

  it('lists the live spaces directly in the collection, in position order, in the list envelope', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    const sub = await createCollection(admin, organization.id, { parent: c.id });
    const a = await createSpace(admin, organization.id, { title: 'A', parent: c.id });
    const b = await createSpace(admin, organization.id, { title: 'B', parent: c.id });
    await createSpace(admin, organization.id, { title: 'Nested', parent: sub.id });
    await createSpace(admin, organization.id, { title: 'Top' });
    const gone = await createSpace(admin, organization.id, { title: 'Gone', parent: c.id });
    expect((await admin.rest('DELETE', `/v1/spaces/${gone.id}`)).status).toBe(204);

    const res = await read.rest('GET', `/v1/collections/${c.id}/spaces`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['count', 'items']);
    expect(res.body.count).toBe(2);
    expect(res.body.items.map((s: { title: string }) => s.title)).toEqual(['A', 'B']);
    expect(res.body.items[0]).toMatchObject({ object: 'space', id: a.id, parent: c.id, organization: organization.id });
    expect(res.body.items[1].id).toBe(b.id);

    // moving a space to the front changes the order
    expect((await admin.rest('POST', `/v1/spaces/${b.id}/move`, { position: { before: { type: 'space', space: a.id } } })).status).toBe(200);
    const reordered = await admin.rest('GET', `/v1/collections/${c.id}/spaces`);
    expect(reordered.body.items.map((s: { title: string }) => s.title)).toEqual(['B', 'A']);
  });

  it('paginates with limit and next.page', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    for (const title of ['S1', 'S2', 'S3']) await createSpace(admin, organization.id, { title, parent: c.id });
    const first = await admin.rest('GET', `/v1/collections/${c.id}/spaces?limit=2`);
    expect(first.body.count).toBe(3);
    expect(first.body.items.map((s: { title: string }) => s.title)).toEqual(['S1', 'S2']);
    expect(first.body.next).toEqual({ page: expect.any(String) });
    const second = await admin.rest('GET', `/v1/collections/${c.id}/spaces?limit=2&page=${first.body.next.page}`);
    expect(second.body.items.map((s: { title: string }) => s.title)).toEqual(['S3']);
    expect(second.body).not.toHaveProperty('next');
    await expectLimitsRefused(admin, `/v1/collections/${c.id}/spaces`, [0, 1001]);
    expectError(await admin.rest('GET', `/v1/collections/${c.id}/spaces?page=bogus`), 400, /^page: /);
  });

  it('answers 404 to outsiders, guests, unknown ids and callers the collection is hidden from', async () => {
    const { organization, admin, outsider, guest, edit } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    expectError(await outsider.rest('GET', `/v1/collections/${c.id}/spaces`), 404, 'Collection not found');
    expectError(await guest.rest('GET', `/v1/collections/${c.id}/spaces`), 404, 'Collection not found');
    expectError(await admin.rest('GET', `/v1/collections/${UNKNOWN}/spaces`), 404, 'Collection not found');
    await admin.rest('PATCH', `/v1/collections/${c.id}`, { defaultLevel: null });
    expectError(await edit.rest('GET', `/v1/collections/${c.id}/spaces`), 404, 'Collection not found');
    expect((await admin.rest('GET', `/v1/collections/${c.id}/spaces`)).status).toBe(200);
  });
});

// ─────────────────────────────────────────────────────────────────────────────
// listCollectionsInOrganizationById — GET /v1/orgs/{organizationId}/collections
// ─────────────────────────────────────────────────────────────────────────────

/** Top: A (A1 (A1a), A2), B (B1), C — created out of tree order on purpose. */
async function buildTree(admin: Caller, organizationId: string) {
  const A = await createCollection(admin, organizationId, { title: 'A' });
  const B = await createCollection(admin, organizationId, { title: 'B' });
  const A1 = await createCollection(admin, organizationId, { title: 'A1', parent: A.id });
  const B1 = await createCollection(admin, organizationId, { title: 'B1', parent: B.id });
  const C = await createCollection(admin, organizationId, { title: 'C' });
  const A2 = await createCollection(admin, organizationId, { title: 'A2', parent: A.id });
  const A1a = await createCollection(admin, organizationId, { title: 'A1a', parent: A1.id });
  return { A, B, C, A1, A2, A1a, B1 };
}

describe('GET /v1/orgs/{organizationId}/collections (listCollectionsInOrganizationById)', () => {
  it('answers 401 without a token or with a bad one', async () => {
    const { organization } = await newOrganizationWithRoles(server);
    await expectAuthRequired(server, [['GET', `/v1/orgs/${organization.id}/collections`]]);
  });

  it('lists nested collections too by default, in tree order', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const tree = await buildTree(admin, organization.id);
    const res = await admin.rest('GET', `/v1/orgs/${organization.id}/collections`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['count', 'items']);
    expect(res.body.count).toBe(7);
    expect(res.body.items.map((c: { title: string }) => c.title)).toEqual(['A', 'A1', 'A1a', 'A2', 'B', 'B1', 'C']);
    expect(res.body.items[2]).toMatchObject({ object: 'collection', id: tree.A1a.id, parent: tree.A1.id, permissions: ADMIN_PERMISSIONS });
    expect(await listTitles(admin, organization.id, '?nested=true')).toEqual(['A', 'A1', 'A1a', 'A2', 'B', 'B1', 'C']);
  });

  it('keeps the top level only with nested=false', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    await buildTree(admin, organization.id);
    const res = await admin.rest('GET', `/v1/orgs/${organization.id}/collections?nested=false`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    expect(res.body.items.map((c: { title: string }) => c.title)).toEqual(['A', 'B', 'C']);
    for (const item of res.body.items) expect(item).not.toHaveProperty('parent');
    expectError(await admin.rest('GET', `/v1/orgs/${organization.id}/collections?nested=maybe`), 400, 'nested: must be true or false');
  });

  it('follows moves in tree order, and an empty organization lists nothing', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const empty = await admin.rest('GET', `/v1/orgs/${organization.id}/collections`);
    expect(empty.body).toEqual({ items: [], count: 0 });
    const tree = await buildTree(admin, organization.id);
    expect((await move(admin, tree.C.id, { position: { before: { type: 'collection', collection: tree.A.id } } })).status).toBe(200);
    expect((await move(admin, tree.A2.id, { position: { before: { type: 'collection', collection: tree.A1.id } } })).status).toBe(200);
    expect(await listTitles(admin, organization.id)).toEqual(['C', 'A', 'A2', 'A1', 'A1a', 'B', 'B1']);
  });

  it('paginates with limit, next.page and count; next is absent on the last page', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    await buildTree(admin, organization.id);
    const path = `/v1/orgs/${organization.id}/collections`;
    const seen: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const res = await admin.rest('GET', `${path}?limit=3${page ? `&page=${page}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(7);
      seen.push(...res.body.items.map((c: { title: string }) => c.title));
      page = res.body.next?.page;
      pages++;
      if (pages < 3) expect(res.body.next).toEqual({ page: expect.any(String) });
      else expect(res.body).not.toHaveProperty('next');
    } while (page && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(['A', 'A1', 'A1a', 'A2', 'B', 'B1', 'C']);

    const exact = await admin.rest('GET', `${path}?limit=7`);
    expect(exact.body.items).toHaveLength(7);
    expect(exact.body).not.toHaveProperty('next');
    const max = await admin.rest('GET', `${path}?limit=1000&nested=false`);
    expect(max.body.items).toHaveLength(3);

    // limit 1, page by page, with nested=false
    const one = await admin.rest('GET', `${path}?limit=1&nested=false`);
    expect(one.body.items.map((c: { title: string }) => c.title)).toEqual(['A']);
    const two = await admin.rest('GET', `${path}?limit=1&nested=false&page=${one.body.next.page}`);
    expect(two.body.items.map((c: { title: string }) => c.title)).toEqual(['B']);
    expect(two.body.count).toBe(3);
  });

  it('answers 400 to limit 0, 1001, non-integers and bogus page identifiers', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    await createCollection(admin, organization.id);
    const path = `/v1/orgs/${organization.id}/collections`;
    await expectLimitsRefused(admin, path, [0, 1001, -1]);
    expectError(await admin.rest('GET', `${path}?limit=ten`), 400, 'limit: must be an integer');
    expectError(await admin.rest('GET', `${path}?limit=1.5`), 400, /^limit: /);
    expectError(await admin.rest('GET', `${path}?page=bogus`), 400, 'page: not a page identifier returned by this list');
    const notAList = Buffer.from(JSON.stringify({ a: 1 })).toString('base64url');
    expectError(await admin.rest('GET', `${path}?page=${notAList}`), 400, 'page: not a page identifier returned by this list');
  });

  it('keeps a cursor correct when rows are inserted before and after it', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const tree = await buildTree(admin, organization.id); // A, A1, A1a, A2, B, B1, C
    const path = `/v1/orgs/${organization.id}/collections`;
    const first = await admin.rest('GET', `${path}?limit=3`);
    expect(first.body.items.map((c: { title: string }) => c.title)).toEqual(['A', 'A1', 'A1a']);
    const cursor = first.body.next.page;

    // before the cursor: a new top-level collection moved to the front, and a child placed before A1
    const front = await createCollection(admin, organization.id, { title: 'Front' });
    expect((await move(admin, front.id, { position: { before: { type: 'collection', collection: tree.A.id } } })).status).toBe(200);
    await createCollection(admin, organization.id, { title: 'A0', parent: tree.A.id });
    const a0 = (await admin.rest('GET', path)).body.items.find((c: { title: string }) => c.title === 'A0');
    expect((await move(admin, a0.id, { position: { before: { type: 'collection', collection: tree.A1.id } } })).status).toBe(200);
    // after the cursor: a child of A1a, a collection right after A1a's branch, and one at the end
    await createCollection(admin, organization.id, { title: 'A1a-x', parent: tree.A1a.id });
    const between = await createCollection(admin, organization.id, { title: 'A1b', parent: tree.A1.id });
    expect(between.parent).toBe(tree.A1.id);
    await createCollection(admin, organization.id, { title: 'Z' });

    const second = await admin.rest('GET', `${path}?limit=3&page=${cursor}`);
    expect(second.status).toBe(200);
    expect(second.body.count).toBe(12);
    expect(second.body.items.map((c: { title: string }) => c.title)).toEqual(['A1a-x', 'A1b', 'A2']);
    const third = await admin.rest('GET', `${path}?limit=3&page=${second.body.next.page}`);
    expect(third.body.items.map((c: { title: string }) => c.title)).toEqual(['B', 'B1', 'C']);
    const last = await admin.rest('GET', `${path}?limit=3&page=${third.body.next.page}`);
    expect(last.body.items.map((c: { title: string }) => c.title)).toEqual(['Z']);
    expect(last.body).not.toHaveProperty('next');

    // the row at the cursor itself may go away: the cursor still points between rows
    expect((await admin.rest('DELETE', `/v1/collections/${tree.A1a.id}`)).status).toBe(204);
    const afterDelete = await admin.rest('GET', `${path}?limit=2&page=${cursor}`);
    expect(afterDelete.body.items.map((c: { title: string }) => c.title)).toEqual(['A1b', 'A2']);
  });

  it('shows members only the collections they can see', async () => {
    const { organization, admin, edit, guest } = await newOrganizationWithRoles(server);
    const tree = await buildTree(admin, organization.id);
    await admin.rest('PATCH', `/v1/collections/${tree.A.id}`, { defaultLevel: null });
    expect(await listTitles(admin, organization.id)).toEqual(['A', 'A1', 'A1a', 'A2', 'B', 'B1', 'C']);
    const res = await edit.rest('GET', `/v1/orgs/${organization.id}/collections`);
    expect(res.body.items.map((c: { title: string }) => c.title)).toEqual(['B', 'B1', 'C']);
    expect(res.body.count).toBe(3);
    expect(await listTitles(edit, organization.id, '?nested=false')).toEqual(['B', 'C']);
    // guests get nothing by default, but the list itself is theirs to call
    const guestList = await guest.rest('GET', `/v1/orgs/${organization.id}/collections`);
    expect(guestList.status).toBe(200);
    expect(guestList.body).toEqual({ items: [], count: 0 });
  });

  it('answers 404 to outsiders and for unknown organizations', async () => {
    const { organization, admin, outsider } = await newOrganizationWithRoles(server);
    await createCollection(admin, organization.id);
    expectError(await outsider.rest('GET', `/v1/orgs/${organization.id}/collections`), 404, 'Organization not found');
    expectError(await admin.rest('GET', `/v1/orgs/${UNKNOWN}/collections`), 404, 'Organization not found');
  });
});

// ─────────────────────────────────────────────────────────────────────────────
// moveCollection — POST /v1/collections/{collectionId}/move
// ─────────────────────────────────────────────────────────────────────────────

describe('POST /v1/collections/{collectionId}/move (moveCollection)', () => {
  it('answers 401 without a token or with a bad one', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    await expectAuthRequired(server, [['POST', `/v1/collections/${c.id}/move`, { parent: null }]]);
  });

  it('moves into a parent, at the end by default, and back to the top level with parent null', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const target = await createCollection(admin, organization.id, { title: 'Target' });
    await createCollection(admin, organization.id, { title: 'First', parent: target.id });
    await createSpace(admin, organization.id, { title: 'Space', parent: target.id });
    const mover = await createCollection(admin, organization.id, { title: 'Mover' });
    const moverChild = await createCollection(admin, organization.id, { title: 'Mover child', parent: mover.id });

    const res = await move(admin, mover.id, { parent: target.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...mover, parent: target.id });
    expect(await childTitles(admin, target.id)).toEqual(['First', 'Mover']);
    expect(await listTitles(admin, organization.id)).toEqual(['Target', 'First', 'Mover', 'Mover child']);
    expect((await admin.rest('GET', `/v1/collections/${moverChild.id}`)).body.parent).toBe(mover.id);

    const top = await move(admin, mover.id, { parent: null });
    expect(top.status).toBe(200);
    expect(top.body).not.toHaveProperty('parent');
    expect(await listTitles(admin, organization.id, '?nested=false')).toEqual(['Target', 'Mover']);
    expect(await childTitles(admin, target.id)).toEqual(['First']);
  });

  it('places before or after a sibling collection or space', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const p = await createCollection(admin, organization.id, { title: 'P' });
    const s = await createSpace(admin, organization.id, { title: 'S', parent: p.id });
    const x = await createCollection(admin, organization.id, { title: 'X', parent: p.id });
    const y = await createCollection(admin, organization.id, { title: 'Y', parent: p.id });
    const z = await createCollection(admin, organization.id, { title: 'Z', parent: p.id });
    // siblings: S, X, Y, Z
    const before = await move(admin, z.id, { position: { before: { type: 'collection', collection: x.id } } });
    expect(before.status).toBe(200);
    expect(before.body.parent).toBe(p.id);
    expect(await childTitles(admin, p.id)).toEqual(['Z', 'X', 'Y']);

    expect((await move(admin, z.id, { position: { after: { type: 'collection', collection: y.id } } })).status).toBe(200);
    expect(await childTitles(admin, p.id)).toEqual(['X', 'Y', 'Z']);

    // relative to a space: S, X, Y, Z → Y before S gives Y, S, X, Z
    expect((await move(admin, y.id, { position: { before: { type: 'space', space: s.id } } })).status).toBe(200);
    expect(await childTitles(admin, p.id)).toEqual(['Y', 'X', 'Z']);
    // Z after S: Y, S, Z, X
    expect((await move(admin, z.id, { position: { after: { type: 'space', space: s.id } } })).status).toBe(200);
    expect(await childTitles(admin, p.id)).toEqual(['Y', 'Z', 'X']);

    // between two adjacent siblings: Y, S, Z, X → X between Y and S gives Y, X, S, Z
    const both = await move(admin, x.id, {
      position: { after: { type: 'collection', collection: y.id }, before: { type: 'space', space: s.id } },
    });
    expect(both.status).toBe(200);
    expect(await childTitles(admin, p.id)).toEqual(['Y', 'X', 'Z']);
    expectError(
      await move(admin, x.id, { position: { after: { type: 'collection', collection: z.id }, before: { type: 'collection', collection: y.id } } }),
      400,
      'position: "after" and "before" must be adjacent siblings, in that order',
    );
  });

  it('moves into a new parent at a given position', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const p = await createCollection(admin, organization.id, { title: 'P' });
    const a = await createCollection(admin, organization.id, { title: 'A', parent: p.id });
    await createCollection(admin, organization.id, { title: 'B', parent: p.id });
    const m = await createCollection(admin, organization.id, { title: 'M' });
    const res = await move(admin, m.id, { parent: p.id, position: { after: { type: 'collection', collection: a.id } } });
    expect(res.status).toBe(200);
    expect(await childTitles(admin, p.id)).toEqual(['A', 'M', 'B']);
    // a top-level move by position only keeps the parent
    const q = await createCollection(admin, organization.id, { title: 'Q' });
    expect((await move(admin, q.id, { position: { before: { type: 'collection', collection: p.id } } })).body).not.toHaveProperty('parent');
    expect(await listTitles(admin, organization.id, '?nested=false')).toEqual(['Q', 'P']);
  });

  it('answers 400 when moving into itself or a descendant', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const a = await createCollection(admin, organization.id, { title: 'A' });
    const b = await createCollection(admin, organization.id, { title: 'B', parent: a.id });
    const c = await createCollection(admin, organization.id, { title: 'C', parent: b.id });
    const msg = 'parent: a collection cannot move into itself or one of its sub-collections';
    expectError(await move(admin, a.id, { parent: a.id }), 400, msg);
    expectError(await move(admin, a.id, { parent: b.id }), 400, msg);
    expectError(await move(admin, a.id, { parent: c.id }), 400, msg);
    expectError(await move(admin, b.id, { parent: c.id }), 400, msg);
    expect(await listTitles(admin, organization.id)).toEqual(['A', 'B', 'C']);
    // moving up the tree is fine
    expect((await move(admin, c.id, { parent: a.id })).status).toBe(200);
    expect(await childTitles(admin, a.id)).toEqual(['B', 'C']);
  });

  it('answers 400 for an unknown or foreign parent and for a position sibling not in the target parent', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const other = await newOrganization(server, admin);
    const foreign = await createCollection(admin, other.id);
    const p = await createCollection(admin, organization.id, { title: 'P' });
    const inP = await createCollection(admin, organization.id, { title: 'InP', parent: p.id });
    const spaceInP = await createSpace(admin, organization.id, { parent: p.id });
    const m = await createCollection(admin, organization.id, { title: 'M' });
    const topSibling = await createCollection(admin, organization.id, { title: 'Top' });

    expectError(await move(admin, m.id, { parent: UNKNOWN }), 400, `parent: no collection "${UNKNOWN}" in this organization`);
    expectError(await move(admin, m.id, { parent: foreign.id }), 400, `parent: no collection "${foreign.id}" in this organization`);
    // InP is not at the top level (where M stays without a parent)
    expectError(
      await move(admin, m.id, { position: { before: { type: 'collection', collection: inP.id } } }),
      400,
      `position.before: collection "${inP.id}" is not a sibling in the target parent`,
    );
    expectError(
      await move(admin, m.id, { position: { after: { type: 'space', space: spaceInP.id } } }),
      400,
      `position.after: space "${spaceInP.id}" is not a sibling in the target parent`,
    );
    // Top is not in P
    expectError(
      await move(admin, m.id, { parent: p.id, position: { after: { type: 'collection', collection: topSibling.id } } }),
      400,
      `position.after: collection "${topSibling.id}" is not a sibling in the target parent`,
    );
    expectError(await move(admin, m.id, { position: { before: { type: 'collection', collection: m.id } } }), 400, /^position\.before: /);
    expectError(await move(admin, m.id, { position: { before: { type: 'collection', collection: UNKNOWN } } }), 400, /^position\.before: /);
    expect(await listTitles(admin, organization.id)).toEqual(['P', 'InP', 'M', 'Top']);
  });

  it('answers 400 to malformed bodies', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const m = await createCollection(admin, organization.id);
    const s = await createCollection(admin, organization.id);
    expectError(await move(admin, m.id, {}), 400, 'parent or position is required');
    expectError(
      await move(admin, m.id, { position: { before: { type: 'page', collection: s.id } } }),
      400,
      'position.before.type: must be "space" or "collection"',
    );
    expectError(await move(admin, m.id, { position: { before: { type: 'collection' } } }), 400, 'position.before.collection: is required');
    expectError(await move(admin, m.id, { position: { after: { type: 'space', collection: s.id } } }), 400, 'position.after.space: is required');
    expectError(await move(admin, m.id, { position: { before: { collection: s.id } } }), 400, 'position.before.type: is required');
    // the pointer's type must match the sibling's kind
    expectError(
      await move(admin, m.id, { position: { before: { type: 'space', space: s.id } } }),
      400,
      `position.before: space "${s.id}" is not a sibling in the target parent`,
    );
    expectError(await move(admin, m.id, { position: 'end' }), 400, /^position: /);
    expectError(await move(admin, m.id, { parent: null, extra: 1 }), 400, 'extra: unknown field');
    expectError(await move(admin, m.id, { position: { first: true } }), 400, 'position.first: unknown field');
    expectError(await move(admin, m.id, { parent: ['x'] }), 400, /^parent: /);
    expectError(await move(admin, m.id, '[]'), 400, /body/);
  });

  it('answers 403 to a collection admin without the create role on the target parent', async () => {
    const { organization, admin, edit } = await newOrganizationWithRoles(server);
    const holder = await createCollection(admin, organization.id, { title: 'Holder' });
    const m = await createCollection(admin, organization.id, { title: 'M', parent: holder.id });
    const readOnly = await createCollection(admin, organization.id, { title: 'Read only' });
    const open = await createCollection(admin, organization.id, { title: 'Open' });
    // edit member: admin on M by its defaultLevel, create on Open by its defaultLevel, only edit elsewhere
    await admin.rest('PATCH', `/v1/collections/${m.id}`, { defaultLevel: 'admin' });
    await admin.rest('PATCH', `/v1/collections/${open.id}`, { defaultLevel: 'create' });
    expect((await edit.rest('GET', `/v1/collections/${m.id}`)).body.permissions).toEqual(ADMIN_PERMISSIONS);
    expectError(await move(edit, m.id, { parent: readOnly.id }), 403, 'Creating content in this collection needs the create role on it');
    expectError(await move(edit, m.id, { parent: null }), 403, 'Creating content at the top level needs the create role in the organization');
    // reordering within the same parent needs no create role
    const sibling = await createCollection(admin, organization.id, { title: 'Sibling', parent: holder.id });
    expect((await move(edit, m.id, { position: { after: { type: 'collection', collection: sibling.id } } })).status).toBe(200);
    expect(await childTitles(admin, holder.id)).toEqual(['Sibling', 'M']);
    const moved = await move(edit, m.id, { parent: open.id });
    expect(moved.status).toBe(200);
    expect(moved.body.parent).toBe(open.id);
  });

  it('answers 403 below admin on the collection or without create on the target, 404 to outsiders', async () => {
    const { organization, admin, create, read, outsider, guest } = await newOrganizationWithRoles(server);
    const m = await createCollection(admin, organization.id, { title: 'M' });
    const target = await createCollection(admin, organization.id, { title: 'Target' });
    for (const member of [create, read]) {
      expectError(await move(member, m.id, { parent: target.id }), 403, 'Collection: this operation needs the admin role');
    }
    expectError(await move(guest, m.id, { parent: target.id }), 404, 'Collection not found');
    expectError(await move(outsider, m.id, { parent: target.id }), 404, 'Collection not found');
    expectError(await move(admin, UNKNOWN, { parent: target.id }), 404, 'Collection not found');
    expect(await listTitles(admin, organization.id)).toEqual(['M', 'Target']);
  });
});

// ─────────────────────────────────────────────────────────────────────────────
// transferCollection — POST /v1/collections/{collectionId}/transfer
// ─────────────────────────────────────────────────────────────────────────────

describe('POST /v1/collections/{collectionId}/transfer (transferCollection)', () => {
  it('answers 401 without a token or with a bad one', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    await expectAuthRequired(server, [['POST', `/v1/collections/${c.id}/transfer`, { organization: organization.id }]]);
  });

  it('moves the collection, its sub-collections and their spaces to the top level of the target', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const target = await newOrganization(server, admin, { title: 'Target' });
    const existing = await createCollection(admin, target.id, { title: 'Existing' });
    const holder = await createCollection(admin, organization.id, { title: 'Holder' });
    const c = await createCollection(admin, organization.id, { title: 'Moving', parent: holder.id });
    const child = await createCollection(admin, organization.id, { title: 'Child', parent: c.id });
    const spaceInC = await createSpace(admin, organization.id, { title: 'In moving', parent: c.id });
    const spaceInChild = await createSpace(admin, organization.id, { title: 'In child', parent: child.id });
    const stays = await createSpace(admin, organization.id, { title: 'Stays', parent: holder.id });

    const res = await admin.rest('POST', `/v1/collections/${c.id}/transfer`, { organization: target.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...c,
      organization: target.id,
      parent: undefined,
      urls: { location: c.urls.location, app: `http://docs.test/o/${target.id}/c/${c.id}` },
    });
    expect(res.body).not.toHaveProperty('parent');

    expect(await listTitles(admin, target.id)).toEqual(['Existing', 'Moving', 'Child']);
    expect(await listTitles(admin, organization.id)).toEqual(['Holder']);
    expect((await admin.rest('GET', `/v1/collections/${child.id}`)).body).toMatchObject({ organization: target.id, parent: c.id });
    for (const space of [spaceInC, spaceInChild]) {
      const got = await admin.rest('GET', `/v1/spaces/${space.id}`);
      expect(got.body.organization).toBe(target.id);
    }
    expect((await admin.rest('GET', `/v1/spaces/${spaceInC.id}`)).body.parent).toBe(c.id);
    expect((await admin.rest('GET', `/v1/spaces/${stays.id}`)).body.organization).toBe(organization.id);
    const targetSpaces = await admin.rest('GET', `/v1/orgs/${target.id}/spaces`);
    expect(targetSpaces.body.items.map((s: { id: string }) => s.id).sort()).toEqual([spaceInC.id, spaceInChild.id].sort());
    const sourceSpaces = await admin.rest('GET', `/v1/orgs/${organization.id}/spaces`);
    expect(sourceSpaces.body.items.map((s: { id: string }) => s.id)).toEqual([stays.id]);
    expect((await admin.rest('GET', `/v1/collections/${c.id}/spaces`)).body.items.map((s: { id: string }) => s.id)).toEqual([spaceInC.id]);
    expect((await admin.rest('GET', `/v1/collections/${existing.id}`)).body.organization).toBe(target.id);
  });

  it('keeps the transferred collection visible only to members of the target', async () => {
    const { organization, admin, edit } = await newOrganizationWithRoles(server);
    const target = await newOrganization(server, admin);
    const c = await createCollection(admin, organization.id);
    expect((await edit.rest('GET', `/v1/collections/${c.id}`)).status).toBe(200);
    expect((await admin.rest('POST', `/v1/collections/${c.id}/transfer`, { organization: target.id })).status).toBe(200);
    expectError(await edit.rest('GET', `/v1/collections/${c.id}`), 404, 'Collection not found');
  });

  it('transfers within the same organization to the top level', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const p = await createCollection(admin, organization.id, { title: 'P' });
    const c = await createCollection(admin, organization.id, { title: 'C', parent: p.id });
    const res = await admin.rest('POST', `/v1/collections/${c.id}/transfer`, { organization: organization.id });
    expect(res.status).toBe(200);
    expect(res.body.organization).toBe(organization.id);
    expect(res.body).not.toHaveProperty('parent');
    expect(await listTitles(admin, organization.id, '?nested=false')).toEqual(['P', 'C']);
  });

  it('answers 403 unless the caller is admin of both organizations', async () => {
    const { organization, admin, create } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id, { title: 'C' });
    // admin of the source, only a member of the target
    const { organization: target } = await newOrganizationWithMember(server, admin, 'create');
    expectError(
      await admin.rest('POST', `/v1/collections/${c.id}/transfer`, { organization: target.id }),
      403,
      'Transferring a collection needs the admin role in the target organization',
    );
    // admin of the target, not admin of the source
    const own = await newOrganization(server, create);
    expectError(
      await create.rest('POST', `/v1/collections/${c.id}/transfer`, { organization: own.id }),
      403,
      'Collection: this operation needs the admin role',
    );
    expect((await admin.rest('GET', `/v1/collections/${c.id}`)).body.organization).toBe(organization.id);
  });

  it('answers 403 to a collection admin (by defaultLevel) who is not an organization admin', async () => {
    const { organization, admin, create } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id, { title: 'C' });
    expect((await admin.rest('PATCH', `/v1/collections/${c.id}`, { defaultLevel: 'admin' })).status).toBe(200);
    const own = await newOrganization(server, create);
    const res = await create.rest('POST', `/v1/collections/${c.id}/transfer`, { organization: own.id });
    expectError(res, 403, 'Transferring a collection needs the admin role in its organization');
  });

  it('answers 404 when the caller is not a member of the target, or the target or collection is unknown', async () => {
    const { organization, admin, outsider } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    const stranger = await newUser(server);
    const strangers = await newOrganization(server, stranger);
    expectError(await admin.rest('POST', `/v1/collections/${c.id}/transfer`, { organization: strangers.id }), 404, 'Organization not found');
    expectError(await admin.rest('POST', `/v1/collections/${c.id}/transfer`, { organization: UNKNOWN }), 404, 'Organization not found');
    const outsidersOwn = await newOrganization(server, outsider);
    expectError(await outsider.rest('POST', `/v1/collections/${c.id}/transfer`, { organization: outsidersOwn.id }), 404, 'Collection not found');
    expectError(await admin.rest('POST', `/v1/collections/${UNKNOWN}/transfer`, { organization: organization.id }), 404, 'Collection not found');
    expect((await admin.rest('GET', `/v1/collections/${c.id}`)).body.organization).toBe(organization.id);
  });

  it('answers 400 without organization, with unknown fields or wrong types', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    const path = `/v1/collections/${c.id}/transfer`;
    expectError(await admin.rest('POST', path, {}), 400, 'organization: is required');
    expectError(await admin.rest('POST', path, { organization: null }), 400, /^organization: /);
    expectError(await admin.rest('POST', path, { organization: { id: organization.id } }), 400, /^organization: /);
    expectError(await admin.rest('POST', path, { organization: organization.id, title: 'x' }), 400, 'title: unknown field');
  });

  it('lands in a collection of the target organization when `collection` is given', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const target = await newOrganization(server, admin);
    const landing = await createCollection(admin, target.id, { title: 'Landing' });
    await createCollection(admin, target.id, { title: 'Already there', parent: landing.id });
    const c = await createCollection(admin, organization.id, { title: 'C' });
    await createCollection(admin, organization.id, { title: 'C child', parent: c.id });
    const res = await admin.rest('POST', `/v1/collections/${c.id}/transfer`, { organization: target.id, collection: landing.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ organization: target.id, parent: landing.id });
    expect(await listTitles(admin, target.id)).toEqual(['Landing', 'Already there', 'C', 'C child']);
    expect(await listTitles(admin, organization.id)).toEqual([]);
    // a collection of another organization than the target is refused
    const other = await createCollection(admin, organization.id, { title: 'Other' });
    expectError(
      await admin.rest('POST', `/v1/collections/${other.id}/transfer`, { organization: target.id, collection: UNKNOWN }),
      400,
      `collection: no collection "${UNKNOWN}" in this organization`,
    );
    const sourceCollection = await createCollection(admin, organization.id, { title: 'Source' });
    expectError(
      await admin.rest('POST', `/v1/collections/${other.id}/transfer`, { organization: target.id, collection: sourceCollection.id }),
      400,
      `collection: no collection "${sourceCollection.id}" in this organization`,
    );
  });

  it('within one organization, moves into a given collection but never into its own subtree', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const [a, b, c, d] = await chainAndOneApart(admin, organization.id, ['A', 'B', 'C'], 'D');
    const message = 'collection: a collection cannot move into itself or one of its sub-collections';
    for (const into of [a, b, c]) {
      expectError(await admin.rest('POST', `/v1/collections/${a.id}/transfer`, { organization: organization.id, collection: into.id }), 400, message);
    }
    const gql = await admin.gql(
      `mutation($id: ID!, $org: ID!, $into: ID) { transferCollection(id: $id, input: { organization: $org, collection: $into }) { id parent } }`,
      { id: a.id, org: organization.id, into: c.id },
    );
    expectGqlError(gql, 'BAD_REQUEST', message);
    expect(await listTitles(admin, organization.id)).toEqual(['A', 'B', 'C', 'D']);
    const ok = await admin.rest('POST', `/v1/collections/${d.id}/transfer`, { organization: organization.id, collection: b.id });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ organization: organization.id, parent: b.id });
    expect(await listTitles(admin, organization.id)).toEqual(['A', 'B', 'C', 'D']);
    expect(await childTitles(admin, b.id)).toEqual(['C', 'D']);
  });
});

// ─────────────────────────────────────────────────────────────────────────────
// Permissions and defaultLevel
// ─────────────────────────────────────────────────────────────────────────────

describe('permissions and defaultLevel', () => {
  it("defaultLevel 'read' restricts create and edit members to read in the collection and below", async () => {
    const { organization, admin, create, edit } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id, { title: 'C' });
    const child = await createCollection(admin, organization.id, { title: 'Child', parent: c.id });
    expect((await create.rest('GET', `/v1/collections/${c.id}`)).body.permissions).toEqual(CREATE_PERMISSIONS);
    await admin.rest('PATCH', `/v1/collections/${c.id}`, { defaultLevel: 'read' });
    for (const member of [create, edit]) {
      expect((await member.rest('GET', `/v1/collections/${c.id}`)).body.permissions).toEqual(READ_PERMISSIONS);
      expect((await member.rest('GET', `/v1/collections/${child.id}`)).body.permissions).toEqual(READ_PERMISSIONS);
      const roles = await member.gql(`query($id: ID!) { collection(id: $id) { viewerRole collections { items { viewerRole } } } }`, { id: c.id });
      expect(roles.data.collection).toEqual({ viewerRole: 'read', collections: { items: [{ viewerRole: 'read' }] } });
    }
    expectError(await create.rest('POST', `/v1/orgs/${organization.id}/collections`, { parent: child.id }), 403);
    expect((await admin.rest('GET', `/v1/collections/${c.id}`)).body.permissions).toEqual(ADMIN_PERMISSIONS);
  });

  it("a sub-collection's own defaultLevel overrides the one it would inherit", async () => {
    const { organization, admin, create } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id, { title: 'C' });
    const child = await createCollection(admin, organization.id, { title: 'Child', parent: c.id });
    await admin.rest('PATCH', `/v1/collections/${c.id}`, { defaultLevel: 'read' });
    await admin.rest('PATCH', `/v1/collections/${child.id}`, { defaultLevel: 'create' });
    expect((await create.rest('GET', `/v1/collections/${child.id}`)).body.permissions).toEqual(CREATE_PERMISSIONS);
    expect((await create.rest('POST', `/v1/orgs/${organization.id}/collections`, { parent: child.id })).status).toBe(201);
  });

  it('a visible sub-collection of a hidden collection does not reveal its parent through the graph', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const hidden = await createCollection(admin, organization.id, { title: 'Hidden', description: 'secret plans' });
    const child = await createCollection(admin, organization.id, { title: 'Open child', parent: hidden.id });
    await admin.rest('PATCH', `/v1/collections/${hidden.id}`, { defaultLevel: null });
    await admin.rest('PATCH', `/v1/collections/${child.id}`, { defaultLevel: 'read' });
    expectError(await read.rest('GET', `/v1/collections/${hidden.id}`), 404);
    expect((await read.rest('GET', `/v1/collections/${child.id}`)).status).toBe(200);
    expect(await listTitles(read, organization.id)).toEqual(['Open child']);
    const q = `query($id: ID!) { collection(id: $id) { title parentCollection { title description } } }`;
    expect((await read.gql(q, { id: child.id })).data.collection).toEqual({ title: 'Open child', parentCollection: null });
    expect((await admin.gql(q, { id: child.id })).data.collection).toEqual({
      title: 'Open child',
      parentCollection: { title: 'Hidden', description: 'secret plans' },
    });
  });

  // Space.parentCollection (src/domain/spaces/resolvers.ts) must ask the policy like Collection.parentCollection.
  it('a visible space in a hidden collection does not reveal the collection through the graph', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const hidden = await createCollection(admin, organization.id, { title: 'Hidden' });
    const space = await createSpace(admin, organization.id, { title: 'Open space', parent: hidden.id });
    await admin.rest('PATCH', `/v1/collections/${hidden.id}`, { defaultLevel: null });
    expect((await admin.rest('PATCH', `/v1/spaces/${space.id}`, { defaultLevel: 'read' })).status).toBe(200);
    expectError(await read.rest('GET', `/v1/collections/${hidden.id}`), 404);
    const res = await read.gql(`query($id: ID!) { space(id: $id) { title parentCollection { title } } }`, { id: space.id });
    expect(res.data.space).toEqual({ title: 'Open space', parentCollection: null });
  });

  it('defaultLevel null hides the collection and what inherits from it from non-admins (404)', async () => {
    const { organization, admin, create, read } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id, { title: 'Secret' });
    const child = await createCollection(admin, organization.id, { title: 'Secret child', parent: c.id });
    const space = await createSpace(admin, organization.id, { title: 'Secret space', parent: c.id });
    await createCollection(admin, organization.id, { title: 'Open' });
    const res = await admin.rest('PATCH', `/v1/collections/${c.id}`, { defaultLevel: null });
    expect(res.body.defaultLevel).toBeNull();
    for (const member of [create, read]) {
      expectError(await member.rest('GET', `/v1/collections/${c.id}`), 404, 'Collection not found');
      expectError(await member.rest('GET', `/v1/collections/${child.id}`), 404, 'Collection not found');
      expectError(await member.rest('GET', `/v1/spaces/${space.id}`), 404, 'Space not found');
      expect(await listTitles(member, organization.id)).toEqual(['Open']);
    }
    expectError(await create.rest('PATCH', `/v1/collections/${c.id}`, { title: 'x' }), 404, 'Collection not found');
    expectError(await create.rest('DELETE', `/v1/collections/${c.id}`), 404, 'Collection not found');
    expectError(await create.rest('POST', `/v1/collections/${c.id}/move`, { parent: null }), 404, 'Collection not found');
    const gql = await read.gql(`query($id: ID!) { collection(id: $id) { id } }`, { id: c.id });
    expectGqlError(gql, 'NOT_FOUND', 'Collection not found');
    // admins still see and manage it
    const asAdmin = await admin.rest('GET', `/v1/collections/${c.id}`);
    expect(asAdmin.body).toMatchObject({ defaultLevel: null, permissions: ADMIN_PERMISSIONS });
    expect(await listTitles(admin, organization.id)).toEqual(['Secret', 'Secret child', 'Open']);
    // back to inherit: visible again
    await admin.rest('PATCH', `/v1/collections/${c.id}`, { defaultLevel: 'inherit' });
    expect((await read.rest('GET', `/v1/collections/${child.id}`)).status).toBe(200);
  });
});

// ─────────────────────────────────────────────────────────────────────────────
// GraphQL door
// ─────────────────────────────────────────────────────────────────────────────

describe('GraphQL: collections', () => {
  it('answers UNAUTHENTICATED without a token', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    const query = await expectGqlAuthRequired(server, `query($id: ID!) { collection(id: $id) { id } }`, { id: c.id });
    // Refused as a whole before anything ran: no data at all.
    expect(query.data).toBeUndefined();
    await expectGqlAuthRequired(server, `mutation($org: ID!) { createCollection(organizationId: $org, input: { title: "X" }) { id } }`, {
      org: organization.id,
    });
    expect(await listTitles(admin, organization.id)).toEqual(['Untitled collection']);
  });

  it('collection: the contract fields plus the graph relations', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const parent = await createCollection(admin, organization.id, { title: 'Parent' });
    const c = await createCollection(admin, organization.id, { title: 'C', description: 'Desc', parent: parent.id });
    const sub1 = await createCollection(admin, organization.id, { title: 'Sub1', parent: c.id });
    const sub2 = await createCollection(admin, organization.id, { title: 'Sub2', parent: c.id });
    await createCollection(admin, organization.id, { title: 'Deep', parent: sub1.id });
    const space = await createSpace(admin, organization.id, { title: 'Sp', parent: c.id });
    const res = await admin.gql(
      `query($id: ID!) {
        collection(id: $id) {
          ...C
          viewerRole
          owningOrganization { id title }
          parentCollection { id title parentCollection { id } }
          collections { count next { page } items { id title parent parentCollection { id } } }
          spaces { count items { id title parent parentCollection { id } } }
        }
      } ${GQL_COLLECTION}`,
      { id: c.id },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.collection).toEqual({
      ...c,
      viewerRole: 'admin',
      owningOrganization: { id: organization.id, title: organization.title },
      parentCollection: { id: parent.id, title: 'Parent', parentCollection: null },
      collections: {
        count: 2,
        next: null,
        items: [
          { id: sub1.id, title: 'Sub1', parent: c.id, parentCollection: { id: c.id } },
          { id: sub2.id, title: 'Sub2', parent: c.id, parentCollection: { id: c.id } },
        ],
      },
      spaces: { count: 1, items: [{ id: space.id, title: 'Sp', parent: c.id, parentCollection: { id: c.id } }] },
    });
  });

  it('collection: same shape as REST, with null fields present', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id, { title: 'Plain' });
    const res = await admin.gql(`query($id: ID!) { collection(id: $id) { ...C } } ${GQL_COLLECTION}`, { id: c.id });
    expect(res.data.collection).toEqual({ ...c, description: null, parent: null });
  });

  it('collections: nested by default in tree order, nested false, pagination, and Organization.collections', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    await buildTree(admin, organization.id);
    const q = `query($org: ID!, $nested: Boolean, $limit: Int, $page: String) {
      collections(organizationId: $org, nested: $nested, limit: $limit, page: $page) { count next { page } items { title } }
    }`;
    const all = await admin.gql(q, { org: organization.id });
    expect(all.data.collections).toEqual({
      count: 7,
      next: null,
      items: ['A', 'A1', 'A1a', 'A2', 'B', 'B1', 'C'].map((title) => ({ title })),
    });
    const top = await admin.gql(q, { org: organization.id, nested: false });
    expect(top.data.collections.items.map((c: { title: string }) => c.title)).toEqual(['A', 'B', 'C']);
    const page1 = await admin.gql(q, { org: organization.id, limit: 4 });
    expect(page1.data.collections.items.map((c: { title: string }) => c.title)).toEqual(['A', 'A1', 'A1a', 'A2']);
    const page2 = await admin.gql(q, { org: organization.id, limit: 4, page: page1.data.collections.next.page });
    expect(page2.data.collections).toEqual({ count: 7, next: null, items: [{ title: 'B' }, { title: 'B1' }, { title: 'C' }] });
    expectGqlError(await admin.gql(q, { org: organization.id, limit: 0 }), 'BAD_REQUEST', 'limit: must be an integer from 1 to 1000');
    expectGqlError(await admin.gql(q, { org: organization.id, limit: 1001 }), 'BAD_REQUEST', 'limit: must be an integer from 1 to 1000');
    expectGqlError(await admin.gql(q, { org: organization.id, page: 'nope' }), 'BAD_REQUEST', /^page: /);

    const viaOrg = await admin.gql(
      `query($org: ID!) { organization(id: $org) {
        nested: collections { count items { title } }
        top: collections(nested: false, limit: 2) { count next { page } items { title collections { count items { title } } } }
      } }`,
      { org: organization.id },
    );
    expect(viaOrg.errors).toBeUndefined();
    expect(viaOrg.data.organization.nested.items.map((c: { title: string }) => c.title)).toEqual(['A', 'A1', 'A1a', 'A2', 'B', 'B1', 'C']);
    expect(viaOrg.data.organization.top).toEqual({
      count: 3,
      next: { page: expect.any(String) },
      items: [
        { title: 'A', collections: { count: 2, items: [{ title: 'A1' }, { title: 'A2' }] } },
        { title: 'B', collections: { count: 1, items: [{ title: 'B1' }] } },
      ],
    });
  });

  it('Collection.collections and Collection.spaces paginate', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    for (const title of ['C1', 'C2', 'C3']) await createCollection(admin, organization.id, { title, parent: c.id });
    for (const title of ['S1', 'S2', 'S3']) await createSpace(admin, organization.id, { title, parent: c.id });
    const q = `query($id: ID!, $page: String) { collection(id: $id) {
      collections(limit: 2, page: $page) { count next { page } items { title } }
      spaces(limit: 2, page: $page) { count next { page } items { title } }
    } }`;
    const first = await admin.gql(q, { id: c.id });
    expect(first.data.collection.collections).toMatchObject({ count: 3, items: [{ title: 'C1' }, { title: 'C2' }] });
    expect(first.data.collection.spaces).toMatchObject({ count: 3, items: [{ title: 'S1' }, { title: 'S2' }] });
    const nextCollections = await admin.gql(
      `query($id: ID!, $page: String) { collection(id: $id) { collections(limit: 2, page: $page) { next { page } items { title } } } }`,
      {
        id: c.id,
        page: first.data.collection.collections.next.page,
      },
    );
    expect(nextCollections.data.collection.collections).toEqual({ next: null, items: [{ title: 'C3' }] });
    const nextSpaces = await admin.gql(
      `query($id: ID!, $page: String) { collection(id: $id) { spaces(limit: 2, page: $page) { next { page } items { title } } } }`,
      {
        id: c.id,
        page: first.data.collection.spaces.next.page,
      },
    );
    expect(nextSpaces.data.collection.spaces).toEqual({ next: null, items: [{ title: 'S3' }] });
  });

  it('createCollection, updateCollection, moveCollection, transferCollection, deleteCollection', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const target = await newOrganization(server, admin);
    const created = await admin.gql(
      `mutation($org: ID!, $input: CreateCollectionInput!) { createCollection(organizationId: $org, input: $input) { ...C } } ${GQL_COLLECTION}`,
      { org: organization.id, input: { title: 'G', description: 'via graphql' } },
    );
    expect(created.errors).toBeUndefined();
    const g = created.data.createCollection;
    expect(g).toMatchObject({
      object: 'collection',
      title: 'G',
      description: 'via graphql',
      parent: null,
      defaultLevel: 'inherit',
      organization: organization.id,
      permissions: ADMIN_PERMISSIONS,
    });
    expect((await admin.rest('GET', `/v1/collections/${g.id}`)).body).toEqual({ ...g, parent: undefined });

    const parent = await createCollection(admin, organization.id, { title: 'Parent' });
    const child = await admin.gql(
      `mutation($org: ID!, $parent: ID) { createCollection(organizationId: $org, input: { title: "Child", parent: $parent }) { parent parentCollection { title } } }`,
      { org: organization.id, parent: parent.id },
    );
    expect(child.data.createCollection).toEqual({ parent: parent.id, parentCollection: { title: 'Parent' } });

    const updated = await admin.gql(
      `mutation($id: ID!, $input: UpdateCollectionInput!) { updateCollection(id: $id, input: $input) { title description defaultLevel } }`,
      { id: g.id, input: { title: 'G2', description: null, defaultLevel: 'edit' } },
    );
    expect(updated.data.updateCollection).toEqual({ title: 'G2', description: null, defaultLevel: 'edit' });

    const moved = await admin.gql(
      `mutation($id: ID!, $input: MoveContentInput!) { moveCollection(id: $id, input: $input) { parent parentCollection { id } } }`,
      { id: g.id, input: { parent: parent.id } },
    );
    expect(moved.data.moveCollection).toEqual({ parent: parent.id, parentCollection: { id: parent.id } });
    const reordered = await admin.gql(`mutation($id: ID!, $input: MoveContentInput!) { moveCollection(id: $id, input: $input) { parent } }`, {
      id: g.id,
      input: { position: { before: { type: 'collection', collection: (await listChildIds(admin, parent.id))[0] } } },
    });
    expect(reordered.errors).toBeUndefined();
    expect(await childTitles(admin, parent.id)).toEqual(['G2', 'Child']);

    const transferred = await admin.gql(
      `mutation($id: ID!, $input: TransferInput!) { transferCollection(id: $id, input: $input) { organization parent owningOrganization { id } } }`,
      { id: g.id, input: { organization: target.id } },
    );
    expect(transferred.data.transferCollection).toEqual({ organization: target.id, parent: null, owningOrganization: { id: target.id } });

    const deleted = await admin.gql(`mutation($id: ID!) { deleteCollection(id: $id) }`, { id: g.id });
    expect(deleted).toMatchObject({ data: { deleteCollection: true } });
    expect(deleted.errors).toBeUndefined();
    expectGqlError(await admin.gql(`query($id: ID!) { collection(id: $id) { id } }`, { id: g.id }), 'NOT_FOUND', 'Collection not found');
  });

  it('answers the same error codes and messages as REST', async () => {
    const { organization, admin, read, edit, outsider } = await newOrganizationWithRoles(server);
    const c = await createCollection(admin, organization.id);
    const update = `mutation($id: ID!, $input: UpdateCollectionInput!) { updateCollection(id: $id, input: $input) { id } }`;
    expectGqlError(await read.gql(update, { id: c.id, input: { title: 'x' } }), 'FORBIDDEN', 'Collection: this operation needs the admin role');
    expectGqlError(await outsider.gql(update, { id: c.id, input: { title: 'x' } }), 'NOT_FOUND', 'Collection not found');
    expectGqlError(await admin.gql(update, { id: c.id, input: { title: 'x'.repeat(51) } }), 'BAD_REQUEST', 'title: must be at most 50 characters');
    expectGqlError(
      await admin.gql(update, { id: c.id, input: { description: 'x'.repeat(101) } }),
      'BAD_REQUEST',
      'description: must be at most 100 characters',
    );
    expectGqlError(await admin.gql(update, { id: c.id, input: { defaultLevel: 'owner' } }), 'BAD_REQUEST');
    expectGqlError(await admin.gql(update, { id: c.id, input: { bogus: 1 } }), 'BAD_REQUEST');
    const create = `mutation($org: ID!) { createCollection(organizationId: $org, input: { title: "x" }) { id } }`;
    expectGqlError(
      await edit.gql(create, { org: organization.id }),
      'FORBIDDEN',
      'Creating content at the top level needs the create role in the organization',
    );
    expectGqlError(await outsider.gql(create, { org: organization.id }), 'NOT_FOUND', 'Organization not found');
    const moveQ = `mutation($id: ID!, $parent: ID) { moveCollection(id: $id, input: { parent: $parent }) { id } }`;
    expectGqlError(
      await admin.gql(moveQ, { id: c.id, parent: c.id }),
      'BAD_REQUEST',
      'parent: a collection cannot move into itself or one of its sub-collections',
    );
    const transferQ = `mutation($id: ID!, $org: ID!) { transferCollection(id: $id, input: { organization: $org }) { id } }`;
    const stranger = await newUser(server);
    expectGqlError(await admin.gql(transferQ, { id: c.id, org: (await newOrganization(server, stranger)).id }), 'NOT_FOUND', 'Organization not found');
    const lowTarget = await newOrganization(server, stranger);
    const member = await newMember(server, lowTarget.id, 'admin');
    // member is admin of lowTarget but not even in the source organization
    expectGqlError(await member.gql(transferQ, { id: c.id, org: lowTarget.id }), 'NOT_FOUND', 'Collection not found');
    expectGqlError(await admin.gql(`mutation($id: ID!) { deleteCollection(id: $id) }`, { id: UNKNOWN }), 'NOT_FOUND', 'Collection not found');
  });
});

async function listChildIds(caller: Caller, collectionId: string): Promise<string[]> {
  const res = await caller.gql(`query($id: ID!) { collection(id: $id) { collections(limit: 1000) { items { id } } } }`, { id: collectionId });
  return res.data.collection.collections.items.map((c: { id: string }) => c.id);
}
