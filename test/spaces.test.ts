/**
 * Spaces (contract §2.3, §3, §4.2, §8) through both doors — REST /v1 and POST /graphql — on the real
 * database: shapes, rules, permissions, soft delete with its 7-day window and the purge job.
 *
 * One server for the file; every test builds its own organizations. The clock of this file is set in
 * the past (see beforeAll) so that, when several files share one PostgreSQL (TEST_DATABASE_URL), the
 * purge jobs this file runs never reach spaces that other files deleted.
 */
import { expectAuthRequired, expectError, expectGqlError, expectLimitsRefused } from './support/expectations.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Collection } from '../src/domain/collections/index.js';
import { Revision } from '../src/domain/content/index.js';
import { Space } from '../src/domain/spaces/index.js';
import { purgeSpace } from '../src/domain/spaces/index.js';
import { Job } from '../src/jobs/entities.js';
import { createCollection, createSpace, newOrganizationWithSpace } from './support/content.js';
import { gql, newOrganization, newOrganizationWithMember, newOrganizationWithRoles, newUser, type Caller } from './support/factories.js';
import { serverNow, useTestServer } from './support/server.js';

const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;
const PUBLIC_URL = 'http://docs.test';

const server = useTestServer();
beforeAll(async () => {
  server.clock.set(new Date('2025-03-01T09:00:00.000Z'));
});

// Each test starts one second after the previous one ended, so creation times of separate tests never tie.
beforeEach(() => server.clock.advance(SECOND));

// ─── helpers ────────────────────────────────────────────────────────────────────────────────────────

async function patchSpace(caller: Caller, spaceId: string, body: unknown) {
  return caller.rest('PATCH', `/v1/spaces/${spaceId}`, body);
}

/** Ids of the spaces directly in a collection, in position order (as the collection's list gives them). */
async function collectionSpaceIds(caller: Caller, collectionId: string): Promise<string[]> {
  const res = await caller.rest('GET', `/v1/collections/${collectionId}/spaces`);
  expect(res.status).toBe(200);
  return res.body.items.map((s: { id: string }) => s.id);
}

async function orgSpaceIds(caller: Caller, organizationId: string): Promise<string[]> {
  const res = await caller.rest('GET', `/v1/orgs/${organizationId}/spaces`);
  expect(res.status).toBe(200);
  return res.body.items.map((s: { id: string }) => s.id);
}

/** Ids of the collections and live spaces at the top level of an organization, in position order. */
async function topLevelOrder(organizationId: string): Promise<string[]> {
  const em = server.em();
  const where = { organization: organizationId, parent: null };
  const rows = [...(await em.find(Collection, where)), ...(await em.find(Space, { ...where, deletedAt: null }))].map((r) => ({
    id: r.id,
    position: r.position,
  }));
  return rows.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1)).map((r) => r.id);
}

const spaceRow = (id: string) => server.em().findOne(Space, { id });
const purgeJobsOf = async (spaceId: string) => (await server.em().find(Job, { kind: 'space.purge' })).filter((j) => j.payload.spaceId === spaceId);

/** Runs due jobs until none is left (one call claims a bounded batch). */
async function runJobsUntilIdle(): Promise<number> {
  let total = 0;
  for (let i = 0; i < 50; i++) {
    const done = await server.runDueJobs();
    total += done;
    if (done === 0) break;
  }
  return total;
}

const SPACE_GQL = /* GraphQL */ `
  fragment S on Space {
    object id title emoji visibility createdAt updatedAt deletedAt editMode
    urls { location app published public icon }
    organization parent revision defaultLevel
    comments changeRequests changeRequestsOpen changeRequestsDraft
    permissions { access admin edit comment merge review }
    owningOrganization { id title }
    parentCollection { id title }
    viewerRole
  }
`;

const ALL_PERMISSIONS = {
  view: true,
  access: true,
  admin: true,
  viewInviteLinks: true,
  edit: true,
  triggerGitSync: true,
  comment: true,
  merge: true,
  review: true,
  // An organization administrator: installing integrations is theirs alone.
  installIntegration: true,
};

// ─── getSpaceById and the Space shape ─────────────────────────────────────────────────────────────────

describe('GET /v1/spaces/{spaceId} and the Space shape', () => {
  it('answers every contract field of a private top-level space, and nothing null', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const created = await createSpace(admin, organization.id, { title: 'Guides', emoji: '📘' });
    const id = created.id;
    const res = await admin.rest('GET', `/v1/spaces/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      object: 'space',
      id,
      title: 'Guides',
      emoji: '📘',
      visibility: 'private',
      createdAt: serverNow(server),
      updatedAt: serverNow(server),
      editMode: 'live',
      // private: neither `published` nor `public`; no icon
      urls: { location: `${PUBLIC_URL}/v1/spaces/${id}`, app: `${PUBLIC_URL}/o/${organization.id}/s/${id}` },
      organization: organization.id,
      // top level: no `parent`; not deleted: no `deletedAt`
      revision: expect.any(String),
      defaultLevel: 'inherit',
      // Required by the current client (0.202.0): a space follows its organization's merge rules.
      mergeRules: { type: 'inherit' },
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      permissions: ALL_PERMISSIONS,
    });
    expect(created).toEqual(res.body);
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    // The revision is a real revision of this space.
    const revision = await server.em().findOne(Revision, { id: res.body.revision });
    expect(revision).toMatchObject({ space: id, organization: organization.id });
  });

  it('gives `urls.published` to every non-private space and `urls.public` only to public ones', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id, { title: 'C' });
    const cases: [string, boolean, boolean, string | undefined][] = [
      ['public', true, true, undefined],
      ['unlisted', true, false, undefined],
      ['share-link', true, false, undefined],
      ['visitor-auth', true, false, undefined],
      ['in-collection', true, false, collection.id],
      ['private', false, false, undefined],
    ];
    for (const [visibility, published, isPublic, parent] of cases) {
      const space = await createSpace(admin, organization.id, { visibility, ...(parent ? { parent } : {}) });
      const res = await admin.rest('GET', `/v1/spaces/${space.id}`);
      expect(res.body.visibility).toBe(visibility);
      const expected: Record<string, string> = { location: `${PUBLIC_URL}/v1/spaces/${space.id}`, app: `${PUBLIC_URL}/o/${organization.id}/s/${space.id}` };
      if (published) expected.published = `${PUBLIC_URL}/s/${space.id}`;
      if (isPublic) expected.public = `${PUBLIC_URL}/s/${space.id}`;
      expect(res.body.urls, visibility).toEqual(expected);
    }
  });

  it('names the parent collection of a space in a collection', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id, { title: 'Handbooks' });
    const space = await createSpace(admin, organization.id, { parent: collection.id });
    const res = await admin.rest('GET', `/v1/spaces/${space.id}`);
    expect(res.status).toBe(200);
    expect(res.body.parent).toBe(collection.id);
    expect(res.body.organization).toBe(organization.id);
  });

  it('ignores the shareKey query parameter of a space that has no share link', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    const res = await admin.rest('GET', `/v1/spaces/${space.id}?shareKey=whatever`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(space.id);
  });

  it('answers the same space through GraphQL, nulls included, with the graph fields', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id, { title: 'Handbooks' });
    const space = await createSpace(admin, organization.id, { title: 'API', parent: collection.id, visibility: 'unlisted' });
    const res = await admin.gql(`query($id: ID!) { space(id: $id) { ...S } } ${SPACE_GQL}`, { id: space.id });
    expect(res.errors).toBeUndefined();
    expect(res.data.space).toEqual({
      object: 'space',
      id: space.id,
      title: 'API',
      emoji: '',
      visibility: 'unlisted',
      createdAt: serverNow(server),
      updatedAt: serverNow(server),
      deletedAt: null,
      editMode: 'live',
      urls: {
        location: `${PUBLIC_URL}/v1/spaces/${space.id}`,
        app: `${PUBLIC_URL}/o/${organization.id}/s/${space.id}`,
        published: `${PUBLIC_URL}/s/${space.id}`,
        public: null,
        icon: null,
      },
      organization: organization.id,
      parent: collection.id,
      revision: space.revision,
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      permissions: { access: true, admin: true, edit: true, comment: true, merge: true, review: true },
      owningOrganization: { id: organization.id, title: organization.title },
      parentCollection: { id: collection.id, title: 'Handbooks' },
      viewerRole: 'admin',
    });
  });

  it('answers 404 for an unknown id on both doors', async () => {
    const { admin } = await newOrganizationWithRoles(server);
    expectError(await admin.rest('GET', '/v1/spaces/no-such-space'), 404, 'Space not found');
    const res = await admin.gql(`{ space(id: "no-such-space") { id } }`);
    expectGqlError(res, 'NOT_FOUND', 'Space not found');
    expect(res.data).toBeNull();
  });
});

// ─── permissions and roles ───────────────────────────────────────────────────────────────────────────

describe('permissions and roles', () => {
  it('derives `permissions` and `viewerRole` from the membership role', async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const expected = {
      admin: { role: 'admin', permissions: ALL_PERMISSIONS },
      create: {
        role: 'create',
        permissions: { ...ALL_PERMISSIONS, admin: false, viewInviteLinks: false, installIntegration: false },
      },
      edit: {
        role: 'edit',
        permissions: {
          view: true,
          access: true,
          admin: false,
          viewInviteLinks: false,
          edit: true,
          triggerGitSync: true,
          comment: true,
          merge: false,
          review: false,
          installIntegration: false,
        },
      },
      read: {
        role: 'read',
        permissions: {
          view: true,
          access: true,
          admin: false,
          viewInviteLinks: false,
          edit: false,
          triggerGitSync: false,
          comment: false,
          merge: false,
          review: false,
          installIntegration: false,
        },
      },
    } as const;
    for (const [who, { role, permissions }] of Object.entries(expected)) {
      const caller = team[who as keyof typeof expected];
      const res = await caller.rest('GET', `/v1/spaces/${space.id}`);
      expect(res.status, who).toBe(200);
      expect(res.body.permissions, who).toEqual(permissions);
      const g = await caller.gql(`query($id: ID!) { space(id: $id) { viewerRole permissions { admin edit } } }`, { id: space.id });
      expect(g.data.space.viewerRole, who).toBe(role);
    }
  });

  it('hides every space from guests and from outsiders with 404', async () => {
    const { organization, guest, outsider, space } = await newOrganizationWithSpace(server);
    for (const caller of [guest, outsider]) {
      expectError(await caller.rest('GET', `/v1/spaces/${space.id}`), 404, 'Space not found');
      expectGqlError(await caller.gql(`query($id: ID!) { space(id: $id) { id } }`, { id: space.id }), 'NOT_FOUND', 'Space not found');
    }
    // A guest is a member: the organization's list answers, but empty.
    const list = await guest.rest('GET', `/v1/orgs/${organization.id}/spaces`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [], count: 0 });
  });

  it('defaultLevel null hides a space from non-admin members (404), not from admins', async () => {
    const { organization, admin, create, read } = await newOrganizationWithRoles(server);
    const hidden = await createSpace(admin, organization.id, { title: 'Secret' });
    server.clock.advance(SECOND);
    const open = await createSpace(admin, organization.id, { title: 'Open' });
    const patched = await patchSpace(admin, hidden.id, { defaultLevel: null });
    expect(patched.status).toBe(200);
    expect(patched.body.defaultLevel).toBeNull(); // kept in the body: null means "no default access"
    for (const caller of [create, read]) {
      expectError(await caller.rest('GET', `/v1/spaces/${hidden.id}`), 404, 'Space not found');
      expectError(await patchSpace(caller, hidden.id, { title: 'x' }), 404, 'Space not found');
      expectError(await caller.rest('POST', `/v1/spaces/${hidden.id}/duplicate`), 404, 'Space not found');
      expect(await orgSpaceIds(caller, organization.id)).toEqual([open.id]);
    }
    expect((await admin.rest('GET', `/v1/spaces/${hidden.id}`)).status).toBe(200);
    expect(await orgSpaceIds(admin, organization.id)).toEqual([hidden.id, open.id]);
  });

  it("defaultLevel 'read' limits what a stronger member may do", async () => {
    const { admin, create, space } = await newOrganizationWithSpace(server);
    expect((await patchSpace(admin, space.id, { defaultLevel: 'read' })).body.defaultLevel).toBe('read');
    const res = await create.rest('GET', `/v1/spaces/${space.id}`);
    expect(res.status).toBe(200);
    expect(res.body.permissions).toEqual({
      view: true,
      access: true,
      admin: false,
      viewInviteLinks: false,
      edit: false,
      triggerGitSync: false,
      comment: false,
      merge: false,
      review: false,
      installIntegration: false,
    });
    const g = await create.gql(`query($id: ID!) { space(id: $id) { viewerRole } }`, { id: space.id });
    expect(g.data.space.viewerRole).toBe('read');
    // Admins keep everything.
    expect((await admin.rest('GET', `/v1/spaces/${space.id}`)).body.permissions).toEqual(ALL_PERMISSIONS);
  });

  it('answers a PATCH with the permissions that follow from the change', async () => {
    const { admin, create, space } = await newOrganizationWithSpace(server);
    await patchSpace(admin, space.id, { defaultLevel: 'admin' });
    // The member administrates the space through its level, and lowers it for everyone, themselves included.
    const res = await patchSpace(create, space.id, { defaultLevel: 'read' });
    expect(res.status).toBe(200);
    expect(res.body.defaultLevel).toBe('read');
    const fresh = await create.rest('GET', `/v1/spaces/${space.id}`);
    expect(fresh.body.permissions).toMatchObject({ access: true, admin: false, edit: false });
    expect(res.body.permissions).toEqual(fresh.body.permissions);
    const g = await create.gql(`mutation($id: ID!) { updateSpace(id: $id, input: { title: "t" }) { id } }`, { id: space.id });
    expectGqlError(g, 'FORBIDDEN');
  });

  it('does not reveal a parent collection the viewer cannot see through Space.parentCollection', async () => {
    const { organization, admin, edit } = await newOrganizationWithRoles(server);
    const hidden = await createCollection(admin, organization.id, { title: 'Hidden collection' });
    await admin.rest('PATCH', `/v1/collections/${hidden.id}`, { defaultLevel: null });
    const space = await createSpace(admin, organization.id, { parent: hidden.id });
    await patchSpace(admin, space.id, { defaultLevel: 'read' });
    expectError(await edit.rest('GET', `/v1/collections/${hidden.id}`), 404, 'Collection not found');
    const res = await edit.gql(`query($id: ID!) { space(id: $id) { id viewerRole parentCollection { id title } } }`, { id: space.id });
    expect(res.errors).toBeUndefined();
    expect(res.data.space).toEqual({ id: space.id, viewerRole: 'read', parentCollection: null });
    // The admin sees it.
    const asAdmin = await admin.gql(`query($id: ID!) { space(id: $id) { parentCollection { title } } }`, { id: space.id });
    expect(asAdmin.data.space.parentCollection).toEqual({ title: 'Hidden collection' });
  });

  it('a space inherits the level of its collection', async () => {
    const { organization, admin, edit } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id);
    expect((await admin.rest('PATCH', `/v1/collections/${collection.id}`, { defaultLevel: 'comment' })).status).toBe(200);
    const space = await createSpace(admin, organization.id, { parent: collection.id });
    const res = await edit.rest('GET', `/v1/spaces/${space.id}`);
    expect(res.status).toBe(200);
    expect(res.body.permissions).toMatchObject({ access: true, comment: true, edit: false, admin: false });
    // The space's own level wins over the collection's.
    await patchSpace(admin, space.id, { defaultLevel: 'edit' });
    expect((await edit.rest('GET', `/v1/spaces/${space.id}`)).body.permissions).toMatchObject({ edit: true, admin: false });
  });
});

// ─── authentication and authorization of every operation ────────────────────────────────────────────

describe('401, 403 and 404 on every operation', () => {
  const operations = (spaceId: string, organizationId: string): [string, string, unknown?][] => [
    ['GET', `/v1/spaces/${spaceId}`],
    ['PATCH', `/v1/spaces/${spaceId}`, { title: 'x' }],
    ['DELETE', `/v1/spaces/${spaceId}`],
    ['POST', `/v1/spaces/${spaceId}/duplicate`],
    ['POST', `/v1/spaces/${spaceId}/restore`],
    ['POST', `/v1/spaces/${spaceId}/move`, { parent: null }],
    ['POST', `/v1/spaces/${spaceId}/transfer`, { organization: organizationId }],
    ['POST', `/v1/orgs/${organizationId}/spaces`, {}],
    ['GET', `/v1/orgs/${organizationId}/spaces`],
  ];

  it('answers 401 without a token or with a bad one, in the error shape', async () => {
    const { organization, admin, space } = await newOrganizationWithSpace(server);
    await expectAuthRequired(server, operations(space.id, organization.id));
    const g = await gql(server, null, `query($id: ID!) { space(id: $id) { id } }`, { id: space.id });
    expectGqlError(g, 'UNAUTHENTICATED');
    const m = await gql(server, null, `mutation($id: ID!) { deleteSpace(id: $id) }`, { id: space.id });
    expectGqlError(m, 'UNAUTHENTICATED');
    expect((await admin.rest('GET', `/v1/spaces/${space.id}`)).body.deletedAt).toBeUndefined();
  });

  it('answers 404 to a member of another organization and for unknown ids, without leaking existence', async () => {
    const { organization, admin, space } = await newOrganizationWithSpace(server);
    const other = await newUser(server);
    const otherOrg = await newOrganization(server, other);
    // Space operations on a space of another organization (a transfer even targets the caller's own).
    for (const [method, path, body] of operations(space.id, otherOrg.id).filter(([, path]) => path.startsWith('/v1/spaces/'))) {
      expectError(await other.rest(method, path, body), 404, 'Space not found');
    }
    for (const [method, path] of [
      ['POST', `/v1/orgs/${organization.id}/spaces`],
      ['GET', `/v1/orgs/${organization.id}/spaces`],
    ] as const) {
      expectError(await other.rest(method, path, method === 'POST' ? {} : undefined), 404, 'Organization not found');
    }
    for (const [method, path, body] of operations('no-such-space', 'no-such-org')) {
      const res = await admin.rest(method, path, body);
      expectError(res, 404, path.startsWith('/v1/orgs/') ? 'Organization not found' : 'Space not found');
    }
    // Same through GraphQL.
    for (const doc of [
      `mutation($id: ID!) { updateSpace(id: $id, input: { title: "x" }) { id } }`,
      `mutation($id: ID!) { deleteSpace(id: $id) }`,
      `mutation($id: ID!) { duplicateSpace(id: $id) { id } }`,
      `mutation($id: ID!) { moveSpace(id: $id, input: { parent: null }) { id } }`,
    ]) {
      expectGqlError(await other.gql(doc, { id: space.id }), 'NOT_FOUND', 'Space not found');
    }
    expectGqlError(await other.gql(`query($o: ID!) { spaces(organizationId: $o) { count } }`, { o: organization.id }), 'NOT_FOUND', 'Organization not found');
    // Nothing changed.
    const after = await admin.rest('GET', `/v1/spaces/${space.id}`);
    expect(after.body).toMatchObject({ title: 'Untitled', organization: organization.id });
    expect(after.body.deletedAt).toBeUndefined();
  });

  it('answers 403 to members whose role is too low', async () => {
    const { organization, admin, create, edit, read } = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id, { title: 'Keep' });
    for (const caller of [create, edit, read]) {
      expectError(await patchSpace(caller, space.id, { title: 'Changed' }), 403, 'Space: this operation needs the admin role');
      expectError(await caller.rest('DELETE', `/v1/spaces/${space.id}`), 403, 'Space: this operation needs the admin role');
      expectError(await caller.rest('POST', `/v1/spaces/${space.id}/move`, { parent: null }), 403, 'Space: this operation needs the admin role');
      expectError(
        await caller.rest('POST', `/v1/spaces/${space.id}/transfer`, { organization: organization.id }),
        403,
        'Space: this operation needs the admin role',
      );
      expectError(await caller.rest('POST', `/v1/spaces/${space.id}/restore`), 403, 'Space: this operation needs the admin role');
    }
    expectGqlError(
      await read.gql(`mutation($id: ID!) { updateSpace(id: $id, input: { title: "x" }) { id } }`, { id: space.id }),
      'FORBIDDEN',
      'Space: this operation needs the admin role',
    );
    expectGqlError(await read.gql(`mutation($id: ID!) { deleteSpace(id: $id) }`, { id: space.id }), 'FORBIDDEN');
    const after = await admin.rest('GET', `/v1/spaces/${space.id}`);
    expect(after.body.title).toBe('Keep');
    expect(after.body.deletedAt).toBeUndefined();
  });

  it('refuses to create at the top level without the create role (403), guests included', async () => {
    const { organization, edit, read, guest, create } = await newOrganizationWithRoles(server);
    for (const caller of [edit, read, guest]) {
      expectError(
        await caller.rest('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Mine' }),
        403,
        'Creating content at the top level needs the create role in the organization',
      );
    }
    expectGqlError(
      await read.gql(`mutation($o: ID!) { createSpace(organizationId: $o, input: {}) { id } }`, { o: organization.id }),
      'FORBIDDEN',
      'Creating content at the top level needs the create role in the organization',
    );
    const made = await create.rest('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Mine' });
    expect(made.status).toBe(201);
    expect(made.body.permissions).toMatchObject({ admin: false, edit: true });
    expect(await orgSpaceIds(create, organization.id)).toEqual([made.body.id]);
  });

  it('refuses to create in a collection without the create role on it', async () => {
    const { organization, admin, create } = await newOrganizationWithRoles(server);
    const readOnly = await createCollection(admin, organization.id, { title: 'Read only' });
    await admin.rest('PATCH', `/v1/collections/${readOnly.id}`, { defaultLevel: 'read' });
    expectError(
      await create.rest('POST', `/v1/orgs/${organization.id}/spaces`, { parent: readOnly.id }),
      403,
      'Creating content in this collection needs the create role on it',
    );
    // A collection the member cannot see is no collection at all for them.
    const hidden = await createCollection(admin, organization.id, { title: 'Hidden' });
    await admin.rest('PATCH', `/v1/collections/${hidden.id}`, { defaultLevel: null });
    expectError(
      await create.rest('POST', `/v1/orgs/${organization.id}/spaces`, { parent: hidden.id }),
      400,
      `parent: no collection "${hidden.id}" in this organization`,
    );
  });
});

// ─── createSpace and listSpacesInOrganizationById ────────────────────────────────────────────────────

describe('POST /v1/orgs/{organizationId}/spaces', () => {
  it('creates with defaults, answers 201 with a Location header', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const res = await admin.rest('POST', `/v1/orgs/${organization.id}/spaces`);
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${PUBLIC_URL}/v1/spaces/${res.body.id}`);
    expect(res.body).toMatchObject({
      object: 'space',
      title: 'Untitled',
      emoji: '',
      visibility: 'private',
      editMode: 'live',
      defaultLevel: 'inherit',
      organization: organization.id,
      createdAt: serverNow(server),
      updatedAt: serverNow(server),
    });
    expect(res.body.parent).toBeUndefined();
    const row = await spaceRow(res.body.id);
    expect(row).toMatchObject({ organization: organization.id, parent: null, deletedAt: null, title: 'Untitled' });
    // An empty title means the same defaults; null is not "absent" (test/null-fields.test.ts).
    const blank = await createSpace(admin, organization.id, { title: '' });
    expect(blank).toMatchObject({ title: 'Untitled', emoji: '', visibility: 'private', editMode: 'live' });
    expect(blank.parent).toBeUndefined();
    expectError(await admin.rest('POST', `/v1/orgs/${organization.id}/spaces`, { parent: null }), 400, 'parent: must not be null');
  });

  it('creates with every field, in a collection', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id);
    const res = await admin.rest('POST', `/v1/orgs/${organization.id}/spaces`, {
      title: 'T'.repeat(50),
      emoji: '1f389',
      parent: collection.id,
      editMode: 'locked',
      visibility: 'in-collection',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'T'.repeat(50),
      emoji: '1f389',
      parent: collection.id,
      editMode: 'locked',
      visibility: 'in-collection',
    });
    expect(await collectionSpaceIds(admin, collection.id)).toEqual([res.body.id]);
  });

  it('appends new spaces at the end of their parent', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id);
    const a = await createSpace(admin, organization.id);
    const b = await createSpace(admin, organization.id);
    expect(await topLevelOrder(organization.id)).toEqual([collection.id, a.id, b.id]);
  });

  it('validates its body: 400 naming the field', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id);
    const other = await newOrganizationWithRoles(server);
    const foreign = await createCollection(other.admin, other.organization.id);
    const path = `/v1/orgs/${organization.id}/spaces`;
    expectError(await admin.rest('POST', path, { title: 'x'.repeat(51) }), 400, 'title: must be at most 50 characters');
    expectError(await admin.rest('POST', path, { emoji: 'smile' }), 400, 'emoji: must be a single emoji or its hex code point');
    // Lengths count characters (code points), not UTF-16 units.
    expectError(await admin.rest('POST', path, { emoji: '🎉'.repeat(51) }), 400, 'emoji: must be at most 50 characters');
    expectError(await admin.rest('POST', path, { title: '📘'.repeat(51) }), 400, 'title: must be at most 50 characters');
    expectError(await admin.rest('POST', path, { editMode: 'frozen' }), 400, 'editMode: expected one of: live, locked');
    expectError(
      await admin.rest('POST', path, { visibility: 'secret' }),
      400,
      'visibility: must be one of: public, unlisted, share-link, visitor-auth, in-collection, private',
    );
    expectError(await admin.rest('POST', path, { visibility: 'in-collection' }), 400, 'visibility: "in-collection" is only for spaces in a collection');
    expectError(await admin.rest('POST', path, { parent: 'nope' }), 400, 'parent: no collection "nope" in this organization');
    expectError(await admin.rest('POST', path, { parent: foreign.id }), 400, `parent: no collection "${foreign.id}" in this organization`);
    expectError(await admin.rest('POST', path, { color: 'red' }), 400, 'color: unknown field');
    expectError(await admin.rest('POST', path, { title: 42 }), 400, /^title: /);
    expectError(await admin.rest('POST', path, ['title']), 400, /^body: /);
    expectError(await admin.rest('POST', path, '{"title": "x"'), 400, 'Malformed JSON body');
    // Nothing was created.
    expect(await orgSpaceIds(admin, organization.id)).toEqual([]);
    expect(await collectionSpaceIds(admin, collection.id)).toEqual([]);
  });

  it('creates through GraphQL too', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id, { title: 'Home' });
    const res = await admin.gql(`mutation($o: ID!, $input: CreateSpaceInput!) { createSpace(organizationId: $o, input: $input) { ...S } } ${SPACE_GQL}`, {
      o: organization.id,
      input: { title: 'From GraphQL', emoji: '🚀', parent: collection.id, visibility: 'public' },
    });
    expect(res.errors).toBeUndefined();
    expect(res.data.createSpace).toMatchObject({
      title: 'From GraphQL',
      emoji: '🚀',
      visibility: 'public',
      parent: collection.id,
      parentCollection: { id: collection.id, title: 'Home' },
      owningOrganization: { id: organization.id },
      viewerRole: 'admin',
      deletedAt: null,
    });
    const bad = await admin.gql(`mutation($o: ID!) { createSpace(organizationId: $o, input: { title: "${'y'.repeat(51)}" }) { id } }`, {
      o: organization.id,
    });
    expectGqlError(bad, 'BAD_REQUEST', 'title: must be at most 50 characters');
  });
});

describe('GET /v1/orgs/{organizationId}/spaces', () => {
  it('lists live spaces oldest first, in the list envelope, paginated by limit and next', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await createSpace(admin, organization.id, { title: `S${i}` })).id);
      server.clock.advance(SECOND);
    }
    const all = await admin.rest('GET', `/v1/orgs/${organization.id}/spaces`);
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(['count', 'items']);
    expect(all.body.count).toBe(5);
    expect(all.body.items.map((s: { id: string }) => s.id)).toEqual(ids);
    expect(all.body.items[0]).toMatchObject({ object: 'space', title: 'S0', organization: organization.id, permissions: ALL_PERMISSIONS });

    const seen: string[] = [];
    let page: string | undefined;
    const pages: number[] = [];
    do {
      const res = await admin.rest('GET', `/v1/orgs/${organization.id}/spaces?limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(5);
      pages.push(res.body.items.length);
      seen.push(...res.body.items.map((s: { id: string }) => s.id));
      page = res.body.next?.page;
      if (page) expect(res.body.next).toEqual({ page: expect.any(String) });
      else expect('next' in res.body).toBe(false);
    } while (page);
    expect(pages).toEqual([2, 2, 1]);
    expect(seen).toEqual(ids);

    const exact = await admin.rest('GET', `/v1/orgs/${organization.id}/spaces?limit=5`);
    expect(exact.body.items).toHaveLength(5);
    expect(exact.body.next).toBeUndefined();
    expect((await admin.rest('GET', `/v1/orgs/${organization.id}/spaces?limit=1000`)).status).toBe(200);
  });

  it('rejects a limit outside 1..1000 and a foreign page identifier with 400', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    await createSpace(admin, organization.id);
    const path = `/v1/orgs/${organization.id}/spaces`;
    await expectLimitsRefused(admin, path, [0, 1001, -3]);
    expectError(await admin.rest('GET', `${path}?limit=ten`), 400, 'limit: must be an integer');
    expectError(await admin.rest('GET', `${path}?page=not-a-page`), 400, 'page: not a page identifier returned by this list');
    expectGqlError(
      await admin.gql(`query($o: ID!) { spaces(organizationId: $o, limit: 0) { count } }`, { o: organization.id }),
      'BAD_REQUEST',
      'limit: must be an integer from 1 to 1000',
    );
  });

  it('lists through GraphQL: Query.spaces and Organization.spaces', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id, { title: 'Box' });
    const a = await createSpace(admin, organization.id, { title: 'A' });
    server.clock.advance(SECOND);
    const b = await createSpace(admin, organization.id, { title: 'B', parent: collection.id });
    server.clock.advance(SECOND);
    const c = await createSpace(admin, organization.id, { title: 'C' });
    await patchSpace(admin, c.id, { defaultLevel: null });

    const first = await read.gql(
      `query($o: ID!) { organization(id: $o) { spaces(limit: 1) { count next { page } items { id title viewerRole parentCollection { id } owningOrganization { id } } } } }`,
      { o: organization.id },
    );
    expect(first.errors).toBeUndefined();
    const list = first.data.organization.spaces;
    expect(list).toMatchObject({
      count: 2,
      items: [{ id: a.id, title: 'A', viewerRole: 'read', parentCollection: null, owningOrganization: { id: organization.id } }],
    });
    const second = await read.gql(
      `query($o: ID!, $p: String) { spaces(organizationId: $o, limit: 1, page: $p) { count next { page } items { id parentCollection { title } } } }`,
      {
        o: organization.id,
        p: list.next.page,
      },
    );
    expect(second.data.spaces).toEqual({ count: 2, next: null, items: [{ id: b.id, parentCollection: { title: 'Box' } }] });
    const asAdmin = await admin.gql(`query($o: ID!) { spaces(organizationId: $o) { count items { id } } }`, { o: organization.id });
    expect(asAdmin.data.spaces.items.map((s: { id: string }) => s.id)).toEqual([a.id, b.id, c.id]);
  });
});

// ─── updateSpaceById ─────────────────────────────────────────────────────────────────────────────────

describe('PATCH /v1/spaces/{spaceId}', () => {
  it('updates title, emoji, editMode, defaultLevel and visibility, and bumps updatedAt only', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id, { title: 'Before', emoji: '📘' });
    server.clock.advance(60 * SECOND);
    const res = await patchSpace(admin, space.id, {
      title: 'After',
      emoji: '🚀',
      editMode: 'locked',
      defaultLevel: 'comment',
      visibility: 'public',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...space,
      title: 'After',
      emoji: '🚀',
      editMode: 'locked',
      defaultLevel: 'comment',
      visibility: 'public',
      updatedAt: serverNow(server),
      urls: { ...space.urls, published: `${PUBLIC_URL}/s/${space.id}`, public: `${PUBLIC_URL}/s/${space.id}` },
    });
    expect(res.body.createdAt).toBe(space.createdAt);
    expect((await admin.rest('GET', `/v1/spaces/${space.id}`)).body).toEqual(res.body);
  });

  it('switches editMode live → locked → live (contract §3)', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    expect(space.editMode).toBe('live');
    expect((await patchSpace(admin, space.id, { editMode: 'locked' })).body.editMode).toBe('locked');
    expect((await admin.rest('GET', `/v1/spaces/${space.id}`)).body.editMode).toBe('locked');
    expect((await patchSpace(admin, space.id, { editMode: 'live' })).body.editMode).toBe('live');
  });

  it('changes one field at a time and keeps the others', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id, { title: 'Keep', emoji: '📘', visibility: 'unlisted' });
    const res = await patchSpace(admin, space.id, { emoji: '1f389' });
    expect(res.body).toMatchObject({ title: 'Keep', emoji: '1f389', visibility: 'unlisted', editMode: 'live', defaultLevel: 'inherit' });
    const empty = await patchSpace(admin, space.id, {});
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ title: 'Keep', emoji: '1f389' });
  });

  it('removes the emoji with null and accepts emoji sequences and hex code points', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id, { emoji: '📘' });
    for (const emoji of ['👨‍👩‍👧', '🇫🇷', '👍🏽', '©', '1f389', '1F44D-1F3FD', '2764-fe0f', '1f3f3-fe0f-200d-1f308', '0023-fe0f-20e3']) {
      const res = await patchSpace(admin, space.id, { emoji });
      expect(res.status, emoji).toBe(200);
      expect(res.body.emoji).toBe(emoji);
    }
    const removed = await patchSpace(admin, space.id, { emoji: null });
    expect(removed.status).toBe(200);
    expect(removed.body.emoji).toBe('');
    expect((await spaceRow(space.id))!.emoji).toBeNull();
  });

  it('sets every default level, inherit and null', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    for (const level of ['admin', 'create', 'review', 'edit', 'comment', 'read', 'inherit', null]) {
      const res = await patchSpace(admin, space.id, { defaultLevel: level });
      expect(res.status, String(level)).toBe(200);
      expect(res.body.defaultLevel).toBe(level);
    }
  });

  it('allows in-collection only to a space in a collection', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id);
    const top = await createSpace(admin, organization.id);
    const inside = await createSpace(admin, organization.id, { parent: collection.id });
    expectError(await patchSpace(admin, top.id, { visibility: 'in-collection' }), 400, 'visibility: "in-collection" is only for spaces in a collection');
    const ok = await patchSpace(admin, inside.id, { visibility: 'in-collection' });
    expect(ok.status).toBe(200);
    expect(ok.body.visibility).toBe('in-collection');
    for (const visibility of ['public', 'unlisted', 'share-link', 'visitor-auth', 'private']) {
      expect((await patchSpace(admin, top.id, { visibility })).body.visibility).toBe(visibility);
    }
  });

  it('enforces the limits and types of its body: 400 naming the field, nothing changed', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id, { title: 'Stable', emoji: '📘' });
    const cases: [unknown, string | RegExp][] = [
      [{ title: 'x'.repeat(51) }, 'title: must be at most 50 characters'],
      [{ title: null }, 'title: must be a string'],
      [{ title: 7 }, 'title: expected a string'],
      [{ title: ['a'] }, /^title: /],
      [{ emoji: 'x' }, 'emoji: must be a single emoji or its hex code point'],
      [{ emoji: '🎉🎉' }, 'emoji: must be a single emoji or its hex code point'],
      [{ emoji: 'zz12' }, 'emoji: must be a single emoji or its hex code point'],
      [{ emoji: '1' }, 'emoji: must be a single emoji or its hex code point'],
      [{ emoji: ' 🎉' }, 'emoji: must be a single emoji or its hex code point'],
      [{ emoji: '' }, 'emoji: must be a single emoji or its hex code point'],
      // Hex that spells no emoji: a Hangul syllable, NUL, a lone surrogate, beyond Unicode, two emoji.
      [{ emoji: 'beef' }, 'emoji: must be a single emoji or its hex code point'],
      [{ emoji: '0000' }, 'emoji: must be a single emoji or its hex code point'],
      [{ emoji: 'd800' }, 'emoji: must be a single emoji or its hex code point'],
      [{ emoji: '110000' }, 'emoji: must be a single emoji or its hex code point'],
      [{ emoji: '1f389-1f389' }, 'emoji: must be a single emoji or its hex code point'],
      [{ emoji: '1f389-'.repeat(9) + '1f389' }, 'emoji: must be at most 50 characters'],
      [{ editMode: 'frozen' }, 'editMode: expected one of: live, locked'],
      [{ editMode: null }, 'editMode: must be one of: live, locked'],
      [{ editMode: true }, /^editMode: /],
      [{ defaultLevel: 'owner' }, /^defaultLevel: expected one of: .*\bread\b/],
      [{ visibility: 'hidden' }, 'visibility: must be one of: public, unlisted, share-link, visitor-auth, in-collection, private'],
      [{ visibility: null }, /^visibility: /],
      [{ visibility: 1 }, /^visibility: /],
      [{ parent: null }, 'parent: unknown field'],
      [{ organization: 'x' }, 'organization: unknown field'],
      [{ title: 'ok', extra: 1 }, 'extra: unknown field'],
      [['title'], /^body: /],
      ['"a string"', 'body: expected a JSON object'],
      ['{"title": "broken"', 'Malformed JSON body'],
      ['{title: "unquoted"}', 'Malformed JSON body'],
    ];
    for (const [body, message] of cases) {
      expectError(await patchSpace(admin, space.id, body), 400, message);
    }
    const after = await admin.rest('GET', `/v1/spaces/${space.id}`);
    expect(after.body).toEqual(space);
  });

  it('accepts a title of exactly 50 characters (and multi-byte ones)', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    expect((await patchSpace(admin, space.id, { title: 'a'.repeat(50) })).body.title).toBe('a'.repeat(50));
    expect((await patchSpace(admin, space.id, { title: 'é'.repeat(50) })).body.title).toBe('é'.repeat(50));
    expect((await patchSpace(admin, space.id, { title: '📘'.repeat(50) })).body.title).toBe('📘'.repeat(50));
    expect((await admin.rest('GET', `/v1/spaces/${space.id}`)).body.title).toBe('📘'.repeat(50));
  });

  it('updates through GraphQL, with BAD_REQUEST for invalid input', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    const res = await admin.gql(`mutation($id: ID!, $input: UpdateSpaceInput!) { updateSpace(id: $id, input: $input) { ...S } } ${SPACE_GQL}`, {
      id: space.id,
      input: { title: 'Renamed', editMode: 'locked', defaultLevel: null, emoji: '🎯', visibility: 'share-link' },
    });
    expect(res.errors).toBeUndefined();
    expect(res.data.updateSpace).toMatchObject({
      title: 'Renamed',
      editMode: 'locked',
      defaultLevel: null,
      emoji: '🎯',
      visibility: 'share-link',
      urls: { published: `${PUBLIC_URL}/s/${space.id}`, public: null },
    });
    const bad = await admin.gql(`mutation($id: ID!) { updateSpace(id: $id, input: { emoji: "nope" }) { id } }`, { id: space.id });
    expectGqlError(bad, 'BAD_REQUEST', 'emoji: must be a single emoji or its hex code point');
    const badEnum = await admin.gql(`mutation($id: ID!, $input: UpdateSpaceInput!) { updateSpace(id: $id, input: $input) { id } }`, {
      id: space.id,
      input: { editMode: 'frozen' },
    });
    expect(badEnum.status).toBe(400);
    expectGqlError(badEnum, 'BAD_REQUEST', /Value "frozen" does not exist in "SpaceEditMode" enum/);
    const badVisibility = await admin.gql(`mutation($id: ID!) { updateSpace(id: $id, input: { visibility: "in-collection" }) { id } }`, { id: space.id });
    expectGqlError(badVisibility, 'BAD_REQUEST', 'visibility: "in-collection" is only for spaces in a collection');
  });
});

// ─── deleteSpaceById, restoreSpace ───────────────────────────────────────────────────────────────────

describe('DELETE /v1/spaces/{spaceId} and POST /v1/spaces/{spaceId}/restore', () => {
  it('soft-deletes: 204 with no body, deletedAt set, hidden from the lists, GET still answers', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id);
    const top = await createSpace(admin, organization.id, { title: 'Top' });
    const inside = await createSpace(admin, organization.id, { title: 'Inside', parent: collection.id });
    const keep = await createSpace(admin, organization.id, { title: 'Keep', parent: collection.id });

    server.clock.advance(SECOND);
    const deletedAt = serverNow(server);
    for (const space of [top, inside]) {
      const res = await admin.rest('DELETE', `/v1/spaces/${space.id}`);
      expect(res.status).toBe(204);
      expect(res.body).toBeUndefined();
      expect(res.headers.get('content-type')).toBeNull();
    }

    const got = await admin.rest('GET', `/v1/spaces/${top.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ ...top, deletedAt });
    // Readers see it too while it can be restored.
    expect((await read.rest('GET', `/v1/spaces/${inside.id}`)).body.deletedAt).toBe(deletedAt);

    const list = await admin.rest('GET', `/v1/orgs/${organization.id}/spaces`);
    expect(list.body.count).toBe(1);
    expect(list.body.items.map((s: { id: string }) => s.id)).toEqual([keep.id]);
    expect(await collectionSpaceIds(admin, collection.id)).toEqual([keep.id]);
    const g = await admin.gql(`query($o: ID!, $c: ID!) { organization(id: $o) { spaces { count } } collection(id: $c) { spaces { count items { id } } } }`, {
      o: organization.id,
      c: collection.id,
    });
    expect(g.data).toEqual({ organization: { spaces: { count: 1 } }, collection: { spaces: { count: 1, items: [{ id: keep.id }] } } });

    // The row stays, marked, with its purge scheduled at the end of the window.
    const row = await spaceRow(top.id);
    expect(row!.deletedAt!.toISOString()).toBe(deletedAt);
    const jobs = await purgeJobsOf(top.id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0].runAt.toISOString()).toBe(new Date(Date.parse(deletedAt) + 7 * DAY).toISOString());
    expect(jobs[0].payload).toEqual({ spaceId: top.id, deletedAt });
  });

  it('refuses every mutation but restore on a deleted space with 409', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id);
    const space = await createSpace(admin, organization.id, { title: 'Gone' });
    const sibling = await createSpace(admin, organization.id);
    const otherOrg = await newOrganization(server, admin);
    expect((await admin.rest('DELETE', `/v1/spaces/${space.id}`)).status).toBe(204);

    const conflict = 'Space is deleted: restore it first';
    expectError(await patchSpace(admin, space.id, { title: 'New' }), 409, conflict);
    expectError(await admin.rest('DELETE', `/v1/spaces/${space.id}`), 409, conflict);
    expectError(await admin.rest('POST', `/v1/spaces/${space.id}/duplicate`), 409, conflict);
    expectError(await admin.rest('POST', `/v1/spaces/${space.id}/move`, { parent: collection.id }), 409, conflict);
    expectError(await admin.rest('POST', `/v1/spaces/${space.id}/move`, { position: { after: { type: 'space', space: sibling.id } } }), 409, conflict);
    expectError(await admin.rest('POST', `/v1/spaces/${space.id}/transfer`, { organization: otherOrg.id }), 409, conflict);
    expectGqlError(await admin.gql(`mutation($id: ID!) { updateSpace(id: $id, input: { title: "x" }) { id } }`, { id: space.id }), 'CONFLICT', conflict);
    expectGqlError(await admin.gql(`mutation($id: ID!) { deleteSpace(id: $id) }`, { id: space.id }), 'CONFLICT', conflict);

    // Still deleted, unchanged, in its organization.
    const row = await spaceRow(space.id);
    expect(row).toMatchObject({ title: 'Gone', organization: organization.id, parent: null });
    expect(row!.deletedAt).not.toBeNull();
    expect(await purgeJobsOf(space.id)).toHaveLength(1);
  });

  it('restores a deleted space: 200 with the Space, back in the lists at the end of its parent', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id);
    const a = await createSpace(admin, organization.id, { parent: collection.id, title: 'A' });
    server.clock.advance(SECOND);
    const b = await createSpace(admin, organization.id, { parent: collection.id, title: 'B' });
    server.clock.advance(SECOND);
    const c = await createSpace(admin, organization.id, { parent: collection.id, title: 'C' });
    await admin.rest('DELETE', `/v1/spaces/${a.id}`);
    expect(await collectionSpaceIds(admin, collection.id)).toEqual([b.id, c.id]);
    server.clock.advance(DAY);

    const res = await admin.rest('POST', `/v1/spaces/${a.id}/restore`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...a, updatedAt: serverNow(server) });
    expect(res.body.deletedAt).toBeUndefined();
    expect(await collectionSpaceIds(admin, collection.id)).toEqual([b.id, c.id, a.id]);
    expect(await orgSpaceIds(admin, organization.id)).toEqual([a.id, b.id, c.id]);
    // Usable again.
    expect((await patchSpace(admin, a.id, { title: 'A again' })).status).toBe(200);
  });

  it('refuses to restore a space that is not deleted with 409', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    expectError(await admin.rest('POST', `/v1/spaces/${space.id}/restore`), 409, 'Space is not deleted');
    expectGqlError(await admin.gql(`mutation($id: ID!) { restoreSpace(id: $id) { id } }`, { id: space.id }), 'CONFLICT', 'Space is not deleted');
  });

  it('deletes and restores through GraphQL', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    const deleted = await admin.gql(`mutation($id: ID!) { deleteSpace(id: $id) }`, { id: space.id });
    expect(deleted).toMatchObject({ status: 200, data: { deleteSpace: true } });
    expect(deleted.errors).toBeUndefined();
    const seen = await admin.gql(`query($id: ID!) { space(id: $id) { deletedAt } }`, { id: space.id });
    expect(seen.data.space.deletedAt).toBe(serverNow(server));
    const restored = await admin.gql(`mutation($id: ID!) { restoreSpace(id: $id) { ...S } } ${SPACE_GQL}`, { id: space.id });
    expect(restored.errors).toBeUndefined();
    expect(restored.data.restoreSpace).toMatchObject({ id: space.id, deletedAt: null, viewerRole: 'admin' });
  });

  it('restores a space of a deleted collection at the top level, private instead of in-collection', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id);
    const space = await createSpace(admin, organization.id, { parent: collection.id, visibility: 'in-collection' });
    expect((await admin.rest('DELETE', `/v1/collections/${collection.id}`)).status).toBe(204);
    const deleted = await admin.rest('GET', `/v1/spaces/${space.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.deletedAt).toBe(serverNow(server));
    expect(deleted.body.parent).toBeUndefined();

    const res = await admin.rest('POST', `/v1/spaces/${space.id}/restore`);
    expect(res.status).toBe(200);
    expect(res.body.parent).toBeUndefined();
    expect(res.body.visibility).toBe('private');
    expect(res.body.urls.published).toBeUndefined();
    expect(await topLevelOrder(organization.id)).toEqual([space.id]);
  });
});

// ─── the 7-day window and the purge ──────────────────────────────────────────────────────────────────

describe('the 7-day restore window and the purge job', () => {
  it('answers 404 once 7 days have passed, even before the purge ran; the job then removes the row', async () => {
    const { organization, admin, space } = await newOrganizationWithSpace(server);
    const revisionId = space.revision;
    // A deletion time with milliseconds: the job must still recognise its deletion.
    server.clock.advance(123);
    expect((await admin.rest('DELETE', `/v1/spaces/${space.id}`)).status).toBe(204);
    const deletedAt = server.clock.now();

    server.clock.set(new Date(deletedAt.getTime() + 7 * DAY - 1));
    expect((await admin.rest('GET', `/v1/spaces/${space.id}`)).body.deletedAt).toBe(deletedAt.toISOString());

    server.clock.set(new Date(deletedAt.getTime() + 7 * DAY));
    expectError(await admin.rest('GET', `/v1/spaces/${space.id}`), 404, 'Space not found');
    expectError(await admin.rest('POST', `/v1/spaces/${space.id}/restore`), 404, 'Space not found');
    expectError(await patchSpace(admin, space.id, { title: 'x' }), 404, 'Space not found');
    expectError(await admin.rest('DELETE', `/v1/spaces/${space.id}`), 404, 'Space not found');
    expectGqlError(await admin.gql(`mutation($id: ID!) { restoreSpace(id: $id) { id } }`, { id: space.id }), 'NOT_FOUND', 'Space not found');
    expectGqlError(await admin.gql(`query($id: ID!) { space(id: $id) { id } }`, { id: space.id }), 'NOT_FOUND', 'Space not found');
    // Not purged yet: the job has not run.
    expect(await spaceRow(space.id)).not.toBeNull();
    expect(await purgeJobsOf(space.id)).toHaveLength(1);

    expect(await runJobsUntilIdle()).toBeGreaterThanOrEqual(1);
    expect(await spaceRow(space.id)).toBeNull();
    expect(await server.em().findOne(Revision, { id: revisionId })).toBeNull();
    expect(await purgeJobsOf(space.id)).toHaveLength(0);
    expectError(await admin.rest('GET', `/v1/spaces/${space.id}`), 404, 'Space not found');
    // The organization itself is untouched.
    expect((await admin.rest('GET', `/v1/orgs/${organization.id}/spaces`)).body).toEqual({ items: [], count: 0 });
  });

  it('does nothing while the window is open: the job is not due and its handler keeps the space', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    await admin.rest('DELETE', `/v1/spaces/${space.id}`);
    const deletedAt = server.clock.now();

    server.clock.set(new Date(deletedAt.getTime() + 7 * DAY - SECOND));
    await runJobsUntilIdle();
    expect(await spaceRow(space.id)).not.toBeNull();
    expect(await purgeJobsOf(space.id)).toHaveLength(1);

    // Even run early (say, by a worker whose clock is behind), the handler keeps a space inside its window.
    const [job] = await purgeJobsOf(space.id);
    const em = server.em();
    await em.transactional((tx) => purgeSpace(tx as never, job.payload, new Date(deletedAt.getTime() + 6 * DAY), undefined as never));
    expect(await spaceRow(space.id)).not.toBeNull();
    expect((await admin.rest('GET', `/v1/spaces/${space.id}`)).body.deletedAt).toBe(deletedAt.toISOString());

    server.clock.set(new Date(deletedAt.getTime() + 7 * DAY));
    await runJobsUntilIdle();
    expect(await spaceRow(space.id)).toBeNull();
  });

  it('keeps a space restored within the window when its old purge job runs', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const space = await createSpace(admin, organization.id, { title: 'Saved' });
    await admin.rest('DELETE', `/v1/spaces/${space.id}`);
    const deletedAt = server.clock.now();
    server.clock.set(new Date(deletedAt.getTime() + 6 * DAY));
    expect((await admin.rest('POST', `/v1/spaces/${space.id}/restore`)).status).toBe(200);

    server.clock.set(new Date(deletedAt.getTime() + 8 * DAY));
    await runJobsUntilIdle();
    expect(await spaceRow(space.id)).toMatchObject({ title: 'Saved', deletedAt: null });
    expect(await purgeJobsOf(space.id)).toHaveLength(0); // the job ran and finished without purging
    const res = await admin.rest('GET', `/v1/spaces/${space.id}`);
    expect(res.status).toBe(200);
    expect(res.body.deletedAt).toBeUndefined();
    expect(await orgSpaceIds(admin, organization.id)).toEqual([space.id]);
  });

  it('a space deleted again after a restore gets a fresh window: the first job keeps it, the second purges it', async () => {
    const { admin, space } = await newOrganizationWithSpace(server);
    await admin.rest('DELETE', `/v1/spaces/${space.id}`);
    const first = server.clock.now();
    server.clock.set(new Date(first.getTime() + 2 * DAY));
    await admin.rest('POST', `/v1/spaces/${space.id}/restore`);
    server.clock.set(new Date(first.getTime() + 3 * DAY));
    await admin.rest('DELETE', `/v1/spaces/${space.id}`);
    const second = server.clock.now();
    expect(await purgeJobsOf(space.id)).toHaveLength(2);

    // The first window is over, the second is not.
    server.clock.set(new Date(first.getTime() + 7 * DAY + SECOND));
    await runJobsUntilIdle();
    expect(await spaceRow(space.id)).not.toBeNull();
    const res = await admin.rest('GET', `/v1/spaces/${space.id}`);
    expect(res.status).toBe(200);
    expect(res.body.deletedAt).toBe(second.toISOString());
    expect((await admin.rest('POST', `/v1/spaces/${space.id}/restore`)).status).toBe(200);
    await admin.rest('DELETE', `/v1/spaces/${space.id}`);
    const third = server.clock.now();

    server.clock.set(new Date(third.getTime() + 7 * DAY));
    await runJobsUntilIdle();
    expect(await spaceRow(space.id)).toBeNull();
    expect(await purgeJobsOf(space.id)).toHaveLength(0);
  });

  it('purges the spaces of a deleted collection after 7 days as well', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id);
    const a = await createSpace(admin, organization.id, { parent: collection.id });
    const b = await createSpace(admin, organization.id, { parent: collection.id });
    await admin.rest('DELETE', `/v1/collections/${collection.id}`);
    const deletedAt = server.clock.now();
    server.clock.set(new Date(deletedAt.getTime() + 7 * DAY));
    expectError(await admin.rest('POST', `/v1/spaces/${a.id}/restore`), 404, 'Space not found');
    await runJobsUntilIdle();
    expect(await spaceRow(a.id)).toBeNull();
    expect(await spaceRow(b.id)).toBeNull();
  });
});

// ─── duplicateSpace ──────────────────────────────────────────────────────────────────────────────────

describe('POST /v1/spaces/{spaceId}/duplicate', () => {
  it('answers 201 with a new space, "(copy)" title, same settings, placed right after the original', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id);
    const a = await createSpace(admin, organization.id, {
      parent: collection.id,
      title: 'Guide',
      emoji: '📘',
      visibility: 'in-collection',
      editMode: 'locked',
    });
    const b = await createSpace(admin, organization.id, { parent: collection.id, title: 'Other' });
    await patchSpace(admin, a.id, { defaultLevel: 'edit' });
    server.clock.advance(SECOND);

    const res = await admin.rest('POST', `/v1/spaces/${a.id}/duplicate`);
    expect(res.status).toBe(201);
    const copy = res.body;
    expect(res.headers.get('location')).toBe(`${PUBLIC_URL}/v1/spaces/${copy.id}`);
    expect(copy.id).not.toBe(a.id);
    expect(copy.revision).not.toBe(a.revision);
    expect(copy).toEqual({
      ...a,
      id: copy.id,
      title: 'Guide (copy)',
      defaultLevel: 'edit',
      revision: copy.revision,
      createdAt: serverNow(server),
      updatedAt: serverNow(server),
      urls: { location: `${PUBLIC_URL}/v1/spaces/${copy.id}`, app: `${PUBLIC_URL}/o/${organization.id}/s/${copy.id}`, published: `${PUBLIC_URL}/s/${copy.id}` },
    });
    expect(await collectionSpaceIds(admin, collection.id)).toEqual([a.id, copy.id, b.id]);
    // The original is untouched.
    expect((await admin.rest('GET', `/v1/spaces/${a.id}`)).body.title).toBe('Guide');
    // The copy has its own revision.
    expect(await server.em().findOne(Revision, { id: copy.revision })).toMatchObject({ space: copy.id, organization: organization.id });
  });

  it('places a top-level copy right after the original too', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const a = await createSpace(admin, organization.id);
    const b = await createSpace(admin, organization.id);
    const copy = (await admin.rest('POST', `/v1/spaces/${a.id}/duplicate`)).body;
    const copyOfCopy = (await admin.rest('POST', `/v1/spaces/${a.id}/duplicate`)).body;
    expect(await topLevelOrder(organization.id)).toEqual([a.id, copyOfCopy.id, copy.id, b.id]);
    expect(copy.parent).toBeUndefined();
  });

  it('keeps the copy title within 50 characters and ending in "(copy)"', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const long = await createSpace(admin, organization.id, { title: 'L'.repeat(50) });
    const copy = (await admin.rest('POST', `/v1/spaces/${long.id}/duplicate`)).body;
    expect(copy.title.length).toBeLessThanOrEqual(50);
    expect(copy.title).toBe(`${'L'.repeat(43)} (copy)`);
    // A copy can be renamed within the limits like any space.
    expect((await patchSpace(admin, copy.id, { title: copy.title })).status).toBe(200);
    // Never cuts a character in half.
    const emoji = await createSpace(admin, organization.id, { title: '📘'.repeat(50) });
    const emojiCopy = (await admin.rest('POST', `/v1/spaces/${emoji.id}/duplicate`)).body;
    expect(emojiCopy.title).toBe(`${'📘'.repeat(43)} (copy)`);
    expect((await patchSpace(admin, emojiCopy.id, { title: emojiCopy.title })).status).toBe(200);
  });

  it('lets a reader with the create role duplicate, and refuses where they cannot create (403)', async () => {
    const { organization, admin, create, read } = await newOrganizationWithRoles(server);
    const top = await createSpace(admin, organization.id);
    await patchSpace(admin, top.id, { defaultLevel: 'read' });
    const ok = await create.rest('POST', `/v1/spaces/${top.id}/duplicate`);
    expect(ok.status).toBe(201);
    expect(ok.body.title).toBe('Untitled (copy)');

    expectError(await read.rest('POST', `/v1/spaces/${top.id}/duplicate`), 403, 'Creating content at the top level needs the create role in the organization');

    const collection = await createCollection(admin, organization.id);
    await admin.rest('PATCH', `/v1/collections/${collection.id}`, { defaultLevel: 'read' });
    const inside = await createSpace(admin, organization.id, { parent: collection.id });
    expectError(await create.rest('POST', `/v1/spaces/${inside.id}/duplicate`), 403, 'Creating content in this collection needs the create role on it');
    expect(await collectionSpaceIds(admin, collection.id)).toEqual([inside.id]);
  });

  it('duplicates through GraphQL', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id, { title: 'Box' });
    const space = await createSpace(admin, organization.id, { parent: collection.id, title: 'Doc' });
    const res = await admin.gql(`mutation($id: ID!) { duplicateSpace(id: $id) { ...S } } ${SPACE_GQL}`, { id: space.id });
    expect(res.errors).toBeUndefined();
    expect(res.data.duplicateSpace).toMatchObject({
      title: 'Doc (copy)',
      parent: collection.id,
      parentCollection: { id: collection.id, title: 'Box' },
      viewerRole: 'admin',
    });
    expect(res.data.duplicateSpace.id).not.toBe(space.id);
  });
});

// ─── moveSpace ───────────────────────────────────────────────────────────────────────────────────────

describe('POST /v1/spaces/{spaceId}/move', () => {
  it('moves before and after a sibling, and between two adjacent siblings', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id);
    const [a, b, c] = [
      await createSpace(admin, organization.id, { parent: collection.id, title: 'A' }),
      await createSpace(admin, organization.id, { parent: collection.id, title: 'B' }),
      await createSpace(admin, organization.id, { parent: collection.id, title: 'C' }),
    ];
    const move = (id: string, body: unknown) => admin.rest('POST', `/v1/spaces/${id}/move`, body);
    const ref = (space: { id: string }) => ({ type: 'space', space: space.id });

    server.clock.advance(SECOND);
    const res = await move(c.id, { position: { before: ref(a) } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...c, updatedAt: serverNow(server) });
    expect(await collectionSpaceIds(admin, collection.id)).toEqual([c.id, a.id, b.id]);

    expect((await move(c.id, { position: { after: ref(a) } })).status).toBe(200);
    expect(await collectionSpaceIds(admin, collection.id)).toEqual([a.id, c.id, b.id]);

    expect((await move(a.id, { position: { after: ref(b) } })).status).toBe(200);
    expect(await collectionSpaceIds(admin, collection.id)).toEqual([c.id, b.id, a.id]);

    expect((await move(a.id, { position: { after: ref(c), before: ref(b) } })).status).toBe(200);
    expect(await collectionSpaceIds(admin, collection.id)).toEqual([c.id, a.id, b.id]);

    // Keeping the parent explicitly works the same.
    expect((await move(c.id, { parent: collection.id, position: { after: ref(b) } })).status).toBe(200);
    expect(await collectionSpaceIds(admin, collection.id)).toEqual([a.id, b.id, c.id]);
  });

  it('moves into a collection (at the end by default) and back to the top level with null', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id);
    const inside = await createSpace(admin, organization.id, { parent: collection.id });
    const top = await createSpace(admin, organization.id, { title: 'Top' });
    const other = await createSpace(admin, organization.id);

    const res = await admin.rest('POST', `/v1/spaces/${top.id}/move`, { parent: collection.id });
    expect(res.status).toBe(200);
    expect(res.body.parent).toBe(collection.id);
    expect(await collectionSpaceIds(admin, collection.id)).toEqual([inside.id, top.id]);
    expect(await topLevelOrder(organization.id)).toEqual([collection.id, other.id]);

    const back = await admin.rest('POST', `/v1/spaces/${top.id}/move`, { parent: null });
    expect(back.status).toBe(200);
    expect(back.body.parent).toBeUndefined();
    expect(await topLevelOrder(organization.id)).toEqual([collection.id, other.id, top.id]);
    expect(await collectionSpaceIds(admin, collection.id)).toEqual([inside.id]);

    // At the top level, collections are siblings too.
    const before = await admin.rest('POST', `/v1/spaces/${top.id}/move`, { position: { before: { type: 'collection', collection: collection.id } } });
    expect(before.status).toBe(200);
    expect(await topLevelOrder(organization.id)).toEqual([top.id, collection.id, other.id]);

    // Into a collection, next to a given sibling.
    const placed = await admin.rest('POST', `/v1/spaces/${other.id}/move`, {
      parent: collection.id,
      position: { before: { type: 'space', space: inside.id } },
    });
    expect(placed.status).toBe(200);
    expect(await collectionSpaceIds(admin, collection.id)).toEqual([other.id, inside.id]);
  });

  it('turns an in-collection space private when it leaves its collection', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id);
    const space = await createSpace(admin, organization.id, { parent: collection.id, visibility: 'in-collection' });
    const res = await admin.rest('POST', `/v1/spaces/${space.id}/move`, { parent: null });
    expect(res.status).toBe(200);
    expect(res.body.visibility).toBe('private');
    expect(res.body.urls.published).toBeUndefined();
  });

  it('rejects bad moves with 400 and changes nothing', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id);
    const a = await createSpace(admin, organization.id);
    const b = await createSpace(admin, organization.id);
    const c = await createSpace(admin, organization.id);
    const inside = await createSpace(admin, organization.id, { parent: collection.id });
    const other = await newOrganizationWithRoles(server);
    const foreign = await createCollection(other.admin, other.organization.id);
    const move = (body: unknown) => admin.rest('POST', `/v1/spaces/${a.id}/move`, body);
    const cases: [unknown, string | RegExp][] = [
      [{}, 'parent or position is required'],
      [undefined, 'body: a JSON object is required'],
      [{ parent: 'nope' }, 'parent: no collection "nope" in this organization'],
      [{ parent: foreign.id }, `parent: no collection "${foreign.id}" in this organization`],
      [{ position: { after: { type: 'space', space: inside.id } } }, `position.after: space "${inside.id}" is not a sibling in the target parent`],
      [{ position: { before: { type: 'space', space: 'ghost' } } }, 'position.before: space "ghost" is not a sibling in the target parent'],
      [{ position: { before: { type: 'space', space: a.id } } }, `position.before: space "${a.id}" is not a sibling in the target parent`],
      [{ position: { after: { type: 'page', space: b.id } } }, 'position.after.type: must be "space" or "collection"'],
      [{ position: { after: { type: 'space' } } }, 'position.after.space: is required'],
      [{ position: { after: { space: b.id } } }, 'position.after.type: is required'],
      [
        { position: { after: { type: 'space', space: c.id }, before: { type: 'space', space: b.id } } },
        'position: "after" and "before" must be adjacent siblings, in that order',
      ],
      [{ parent: null, color: 'red' }, 'color: unknown field'],
      [{ position: 'end' }, /^position: /],
      ['{"parent": ', 'Malformed JSON body'],
    ];
    for (const [body, message] of cases) {
      expectError(await move(body), 400, message);
    }
    expect(await topLevelOrder(organization.id)).toEqual([collection.id, a.id, b.id, c.id]);
  });

  it('needs create on the target parent (403) besides admin on the space', async () => {
    const { organization, admin, create } = await newOrganizationWithRoles(server);
    const readOnly = await createCollection(admin, organization.id);
    await admin.rest('PATCH', `/v1/collections/${readOnly.id}`, { defaultLevel: 'read' });
    const space = await createSpace(admin, organization.id);
    // The member administrates this space, but may only read the collection.
    await patchSpace(admin, space.id, { defaultLevel: 'admin' });
    expectError(
      await create.rest('POST', `/v1/spaces/${space.id}/move`, { parent: readOnly.id }),
      403,
      'Creating content in this collection needs the create role on it',
    );
    // Within the same parent, no create check applies.
    const sibling = await createSpace(admin, organization.id);
    const ok = await create.rest('POST', `/v1/spaces/${space.id}/move`, { position: { after: { type: 'space', space: sibling.id } } });
    expect(ok.status).toBe(200);
    expect(await topLevelOrder(organization.id)).toEqual([readOnly.id, sibling.id, space.id]);
  });

  it('moves through GraphQL', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const collection = await createCollection(admin, organization.id, { title: 'Target' });
    const space = await createSpace(admin, organization.id);
    const res = await admin.gql(`mutation($id: ID!, $input: MoveContentInput!) { moveSpace(id: $id, input: $input) { ...S } } ${SPACE_GQL}`, {
      id: space.id,
      input: { parent: collection.id },
    });
    expect(res.errors).toBeUndefined();
    expect(res.data.moveSpace).toMatchObject({ parent: collection.id, parentCollection: { id: collection.id, title: 'Target' } });
    const top = await admin.gql(`mutation($id: ID!) { moveSpace(id: $id, input: { parent: null }) { parent parentCollection { id } } }`, { id: space.id });
    expect(top.data.moveSpace).toEqual({ parent: null, parentCollection: null });
    const bad = await admin.gql(`mutation($id: ID!) { moveSpace(id: $id, input: {}) { id } }`, { id: space.id });
    expectGqlError(bad, 'BAD_REQUEST', 'parent or position is required');
  });
});

// ─── transferSpace ───────────────────────────────────────────────────────────────────────────────────

describe('POST /v1/spaces/{spaceId}/transfer', () => {
  it('moves a space to the top level of another organization the caller administrates', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const target = await newOrganization(server, admin, { title: 'Target org' });
    const collection = await createCollection(admin, organization.id);
    const space = await createSpace(admin, organization.id, { parent: collection.id, title: 'Moving', visibility: 'in-collection' });
    server.clock.advance(SECOND);
    const existing = await createSpace(admin, target.id);
    server.clock.advance(SECOND);

    const res = await admin.rest('POST', `/v1/spaces/${space.id}/transfer`, { organization: target.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...space,
      organization: target.id,
      parent: undefined,
      visibility: 'private',
      updatedAt: serverNow(server),
      urls: { location: `${PUBLIC_URL}/v1/spaces/${space.id}`, app: `${PUBLIC_URL}/o/${target.id}/s/${space.id}` },
    });
    expect('parent' in res.body).toBe(false);
    expect(await orgSpaceIds(admin, target.id)).toEqual([space.id, existing.id]); // oldest first
    expect(await orgSpaceIds(admin, organization.id)).toEqual([]);
    expect(await collectionSpaceIds(admin, collection.id)).toEqual([]);
    expect(await topLevelOrder(target.id)).toEqual([existing.id, space.id]);
    // Tenant-owned rows follow the space.
    expect(await server.em().findOne(Revision, { id: space.revision })).toMatchObject({ organization: target.id });
    // Members of the old organization lose sight of it.
    expectError(await read.rest('GET', `/v1/spaces/${space.id}`), 404, 'Space not found');
  });

  it('moves a space into a collection of the target organization', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const target = await newOrganization(server, admin);
    const destination = await createCollection(admin, target.id, { title: 'Landing' });
    const already = await createSpace(admin, target.id, { parent: destination.id });
    const space = await createSpace(admin, organization.id, { visibility: 'public' });
    const res = await admin.rest('POST', `/v1/spaces/${space.id}/transfer`, { organization: target.id, collection: destination.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ organization: target.id, parent: destination.id, visibility: 'public' });
    expect(await collectionSpaceIds(admin, destination.id)).toEqual([already.id, space.id]);
  });

  it('moves a space to another collection of the same organization', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const from = await createCollection(admin, organization.id);
    const to = await createCollection(admin, organization.id);
    const space = await createSpace(admin, organization.id, { parent: from.id });
    const res = await admin.rest('POST', `/v1/spaces/${space.id}/transfer`, { organization: organization.id, collection: to.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ organization: organization.id, parent: to.id });
    expect(await collectionSpaceIds(admin, to.id)).toEqual([space.id]);
  });

  it('needs the admin role in both organizations', async () => {
    const { organization, admin, create, space } = await newOrganizationWithSpace(server);

    // Target where the caller is only a member.
    const { organization: memberOf, owner: stranger } = await newOrganizationWithMember(server, admin, 'create');
    expectError(
      await admin.rest('POST', `/v1/spaces/${space.id}/transfer`, { organization: memberOf.id }),
      403,
      'Transferring a space needs the admin role in the target organization',
    );
    // Target the caller does not belong to, or that does not exist: 404.
    const notMine = await newOrganization(server, stranger);
    expectError(await admin.rest('POST', `/v1/spaces/${space.id}/transfer`, { organization: notMine.id }), 404, 'Organization not found');
    expectError(await admin.rest('POST', `/v1/spaces/${space.id}/transfer`, { organization: 'no-such-org' }), 404, 'Organization not found');

    // A space admin who is not an admin of the organization.
    await patchSpace(admin, space.id, { defaultLevel: 'admin' });
    const target = await newOrganization(server, create);
    expectError(
      await create.rest('POST', `/v1/spaces/${space.id}/transfer`, { organization: target.id }),
      403,
      'Transferring a space needs the admin role in its organization',
    );
    expect((await spaceRow(space.id))!.organization).toBe(organization.id);
  });

  it('validates its body with 400', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const target = await newOrganization(server, admin);
    const foreign = await createCollection(admin, organization.id);
    const space = await createSpace(admin, organization.id);
    const transfer = (body: unknown) => admin.rest('POST', `/v1/spaces/${space.id}/transfer`, body);
    expectError(await transfer({}), 400, 'organization: is required');
    expectError(await transfer(undefined), 400, 'body: a JSON object is required');
    expectError(await transfer({ organization: null }), 400, /^organization: /);
    expectError(await transfer({ organization: target.id, collection: foreign.id }), 400, `collection: no collection "${foreign.id}" in this organization`);
    expectError(await transfer({ organization: target.id, collection: 'nope' }), 400, 'collection: no collection "nope" in this organization');
    expectError(await transfer({ organization: target.id, parent: 'x' }), 400, 'parent: unknown field');
    expectError(await transfer('{"organization":'), 400, 'Malformed JSON body');
    expect((await spaceRow(space.id))!.organization).toBe(organization.id);
  });

  it('transfers through GraphQL, and the graph follows', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const target = await newOrganization(server, admin, { title: 'Elsewhere' });
    const destination = await createCollection(admin, target.id, { title: 'Inbox' });
    const space = await createSpace(admin, organization.id);
    const res = await admin.gql(`mutation($id: ID!, $input: TransferInput!) { transferSpace(id: $id, input: $input) { ...S } } ${SPACE_GQL}`, {
      id: space.id,
      input: { organization: target.id, collection: destination.id },
    });
    expect(res.errors).toBeUndefined();
    expect(res.data.transferSpace).toMatchObject({
      organization: target.id,
      parent: destination.id,
      owningOrganization: { id: target.id, title: 'Elsewhere' },
      parentCollection: { id: destination.id, title: 'Inbox' },
      viewerRole: 'admin',
      urls: { app: `${PUBLIC_URL}/o/${target.id}/s/${space.id}` },
    });
    const g = await admin.gql(`query($o: ID!) { organization(id: $o) { spaces { items { id } } } }`, { o: target.id });
    expect(g.data.organization.spaces.items).toEqual([{ id: space.id }]);
    const refused = await admin.gql(`mutation($id: ID!) { transferSpace(id: $id, input: { organization: "no-such-org" }) { id } }`, { id: space.id });
    expectGqlError(refused, 'NOT_FOUND', 'Organization not found');
  });
});
