import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../src/kernel/roles.js';
import { Collection } from '../src/domain/collections/index.js';
import { ContentGrant } from '../src/domain/grants/index.js';
import { Member, Organization } from '../src/domain/organizations/index.js';
import { Space, type SpaceRow } from '../src/domain/spaces/index.js';
import { Team, TeamMember } from '../src/domain/teams/index.js';
import { newId } from '../src/kernel/ids.js';
import { newUser, type Caller } from './support/factories.js';
import { useTestServer } from './support/server.js';

/**
 * Lists filter by the viewer's permissions in SQL (auth/visibility.ts, over what the database keeps on
 * every collection and space); single items are judged by the policy row by row (Policy.spaceRole,
 * collectionRole). Moving a check into SQL must not open a leak, nor hide what the policy shows: for
 * random organizations — collection trees, default levels, member roles (guests, disabled members),
 * teams, grants to users and teams, deleted spaces, then moves and default-level changes — every list
 * and count through the GraphQL door equals what the policy decides item by item, for every viewer.
 */
const server = useTestServer();
let people: Caller[];
beforeAll(async () => {
  people = await Promise.all(Array.from({ length: 5 }, () => newUser(server)));
});

const level = fc.constantFrom<string | null>('inherit', 'inherit', 'inherit', null, ...ROLES);
const orgRole = fc.constantFrom<Role | null | 'none' | 'disabled'>('admin', 'create', 'edit', 'read', 'comment', null, null, 'none', 'disabled');
const role = fc.constantFrom<Role>(...ROLES);
/** True about once in `n` draws. */
const oneIn = (n: number) => fc.nat(n - 1).map((draw) => draw === 0);

/** An organization's shape, by index: parents are earlier collections, grantees are people or teams. */
const organizationShape = fc.record({
  collections: fc.array(fc.record({ parent: fc.nat(), nested: fc.boolean(), level }), { maxLength: 7 }),
  spaces: fc.array(fc.record({ parent: fc.nat(), nested: fc.boolean(), level, deleted: oneIn(6) }), { minLength: 1, maxLength: 10 }),
  roles: fc.array(orgRole, { minLength: 5, maxLength: 5 }),
  teams: fc.array(fc.array(fc.nat(4), { maxLength: 3 }), { maxLength: 3 }),
  grants: fc.array(fc.record({ onSpace: fc.boolean(), target: fc.nat(), toTeam: oneIn(3), grantee: fc.nat(), role }), { maxLength: 8 }),
  moves: fc.array(fc.record({ collection: fc.nat(), parent: fc.nat(), toTop: oneIn(4), level: fc.option(level) }), { maxLength: 3 }),
});
type Shape = typeof organizationShape extends fc.Arbitrary<infer T> ? T : never;

/** Builds the organization in the database (the rows as the services write them) and returns its ids. */
async function build(shape: Shape) {
  const em = server.em();
  const now = server.clock.now();
  const organization = em.create(Organization, {
    id: newId(),
    title: 'Random',
    createdAt: now,
    emailDomains: [],
    hostname: null,
    type: 'business',
    useCase: null,
    communityType: null,
    defaultRole: 'read',
    defaultContent: null,
    logo: null,
    sso: false,
    ai: false,
    inviteLinks: true,
    plan: 'free',
  });
  shape.roles.forEach((r, i) => {
    if (r === 'none') return;
    em.create(Member, {
      organization: organization.id,
      user: people[i].user.id,
      role: r === 'disabled' ? 'edit' : r,
      joinedAt: now,
      lastSeenAt: null,
      disabled: r === 'disabled',
      sso: false,
    });
  });
  const collections: string[] = [];
  for (const [i, c] of shape.collections.entries()) {
    const id = newId();
    const parent = c.nested && i > 0 ? collections[c.parent % i] : null;
    em.create(Collection, {
      id,
      organization: organization.id,
      parent,
      title: `C${i}`,
      description: null,
      defaultLevel: c.level,
      position: `a${i}`,
      createdAt: now,
      updatedAt: now,
    });
    collections.push(id);
    await em.flush(); // parents before children: the database derives each row from its parent's
  }
  const spaces = shape.spaces.map((s, i) => {
    const id = newId();
    const parent = s.nested && collections.length ? collections[s.parent % collections.length] : null;
    em.create(Space, {
      id,
      organization: organization.id,
      parent,
      title: `S${i}`,
      emoji: null,
      visibility: 'private',
      editMode: 'live',
      defaultLevel: s.level,
      position: `b${i}`,
      revision: newId(),
      createdAt: new Date(now.getTime() + i),
      updatedAt: now,
      deletedAt: s.deleted ? now : null,
    });
    return id;
  });
  const members = shape.roles.flatMap((r, i) => (r === 'none' ? [] : [people[i].user.id]));
  const teams = shape.teams.map((memberIndexes, i) => {
    const team = em.create(Team, { id: newId(), organization: organization.id, title: `T${i}`, createdAt: now });
    for (const userId of new Set(memberIndexes.map((m) => members[m % Math.max(members.length, 1)]).filter(Boolean))) {
      em.create(TeamMember, { team: team.id, user: userId, organization: organization.id, role: 'member', addedAt: now });
    }
    return team.id;
  });
  await em.flush();
  const given = new Set<string>();
  for (const g of shape.grants) {
    const targets = g.onSpace ? spaces : collections;
    const grantees = g.toTeam ? teams : members;
    if (!targets.length || !grantees.length) continue;
    const target = targets[g.target % targets.length];
    const grantee = grantees[g.grantee % grantees.length];
    if (given.has(`${target}|${grantee}`)) continue;
    given.add(`${target}|${grantee}`);
    em.create(ContentGrant, {
      id: newId(),
      organization: organization.id,
      space: g.onSpace ? target : null,
      collection: g.onSpace ? null : target,
      team: g.toTeam ? grantee : null,
      user: g.toTeam ? null : grantee,
      role: g.role,
      createdAt: now,
    });
  }
  await em.flush();
  // Changes after the fact: the kept ancestors and access levels must follow moves and new levels.
  for (const move of shape.moves) {
    if (!collections.length) break;
    const id = collections[move.collection % collections.length];
    const candidate = collections[move.parent % collections.length];
    const [{ inside }] = await em.execute<{ inside: boolean }[]>(`select ? = any(ancestors) or id = ? as inside from collection where id = ?`, [
      id,
      id,
      candidate,
    ]);
    const parent = move.toTop || inside ? null : candidate;
    await em.nativeUpdate(Collection, { id }, { parent, ...(move.level === null ? {} : { defaultLevel: move.level }) });
  }
  return { organizationId: organization.id, members };
}

const VIEW = `query($org: ID!) {
  spaces(organizationId: $org, limit: 1000) { count items { id } }
  collections(organizationId: $org, limit: 100) { count items { id spaces(limit: 100) { count items { id } } collections(limit: 100) { count items { id } } } }
  top: collections(organizationId: $org, nested: false, limit: 100) { count items { id } }
}`;
const MEMBERS = `query($org: ID!) { members(organizationId: $org, limit: 1000) { items { id spaces } } }`;

const ids = (list: { items: { id: string }[] }) => list.items.map((item) => item.id).sort();

/** What the policy decides item by item for a viewer: the oracle of every list. */
async function expected(viewer: Caller, organizationId: string) {
  const ctx = server.context({ user: viewer.user, tokenId: 'oracle' });
  const em = server.em();
  const [spaces, collections] = await Promise.all([
    em.find(Space, { organization: organizationId, deletedAt: null }),
    em.find(Collection, { organization: organizationId }),
  ]);
  const seesSpace = await Promise.all(spaces.map((s) => ctx.policy.spaceRole(s)));
  const seesCollection = await Promise.all(collections.map((c) => ctx.policy.collectionRole(c)));
  const visibleSpaces = spaces.filter((_, i) => seesSpace[i] !== null);
  const visibleCollections = collections.filter((_, i) => seesCollection[i] !== null);
  const spacesOf = (parent: string | null) =>
    visibleSpaces
      .filter((s) => (s.parent ?? null) === parent)
      .map((s) => s.id)
      .sort();
  const childrenOf = (parent: string | null) =>
    visibleCollections
      .filter((c) => (c.parent ?? null) === parent)
      .map((c) => c.id)
      .sort();
  const memberSpaces = async (userId: string) => {
    const theirs = await Promise.all(visibleSpaces.map((s: SpaceRow) => ctx.policy.forUser(userId).spaceRole(s)));
    return theirs.filter((r) => r !== null).length;
  };
  return { visibleSpaces, visibleCollections, spacesOf, childrenOf, memberSpaces, organizationRole: await ctx.policy.organizationRole(organizationId) };
}

describe('lists filtered in SQL', () => {
  it('equal the policy decided item by item, for every viewer of random organizations', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(organizationShape, async (shape) => {
        const { organizationId, members } = await build(shape);
        for (const viewer of people) {
          const oracle = await expected(viewer, organizationId);
          const seen = await viewer.gql(VIEW, { org: organizationId });
          if (oracle.organizationRole === undefined) {
            expect(seen.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
            continue;
          }
          expect(seen.errors).toBeUndefined();
          const { spaces, collections, top } = seen.data;
          expect(ids(spaces)).toEqual(oracle.visibleSpaces.map((s) => s.id).sort());
          expect(spaces.count).toBe(oracle.visibleSpaces.length);
          expect(ids(collections)).toEqual(oracle.visibleCollections.map((c) => c.id).sort());
          expect(ids(top)).toEqual(oracle.childrenOf(null));
          for (const collection of collections.items) {
            expect(ids(collection.spaces)).toEqual(oracle.spacesOf(collection.id));
            expect(ids(collection.collections)).toEqual(oracle.childrenOf(collection.id));
          }
          if (oracle.organizationRole === null) continue; // guests do not list members
          const listed = await viewer.gql(MEMBERS, { org: organizationId });
          expect(listed.errors).toBeUndefined();
          for (const member of listed.data.members.items) {
            expect(member.spaces, `spaces of member ${members.indexOf(member.id)}`).toBe(await oracle.memberSpaces(member.id));
          }
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 30) },
    );
  });
});
