import { describe, expect, it } from 'vitest';
import { DEEP_QUERY, seedDeepTree } from '../scripts/bench-tree/deep-tree.js';
import { callerFor, newMember, newOrganizationWithRoles, type Caller } from './support/factories.js';
import { createTeam, grant as grantRole } from './support/people.js';
import { useTestServer } from './support/server.js';
import { countStatements } from './support/sql.js';

const server = useTestServer();

/** Small enough to seed quickly, large enough that pages end early (cursors) and lists differ by viewer. */
const SIZE = {
  collections: 3,
  subCollections: 2,
  spacesPerCollection: 3,
  spacesPerSubCollection: 2,
  changeRequestsPerSpace: 8,
  commentsPerChangeRequest: 6,
  commentsPerSpace: 1,
};

/** The same document kept on rows and resolvers, level by level: a directive makes each selection depend on the variables. */
const onResolvers = (document: string) => document.replaceAll('items {', 'items @include(if: true) {');

type Page<T> = { count: number; items: T[]; next: { page: string } | null };
type Listed = { id: string };
type ChangeRequestItem = Listed & { commentList: Page<Listed> };
type SpaceItem = Listed & { changeRequestList: Page<ChangeRequestItem> };
type CollectionItem = Listed & { spaces: Page<SpaceItem>; collections: Page<CollectionItem> };
/** The deep document's answer, and the parts of it that the walks below ask. */
type Deep = { organization: { collections: Page<CollectionItem> } };
type Answer = { data: Deep; errors?: { message: string; extensions?: { code?: string } }[] };

/*
 * The deep document of bench:tree (organization → collections → sub-collections → spaces → open change
 * requests → comments) is written by the database in one statement (organizations/reads.ts and the
 * pages other areas declare), with each list filtered for the viewer in SQL. It must answer what the
 * resolvers answer, list by list: rows, order, counts and cursors.
 */
describe('the deep document', () => {
  it('is written by the database in one statement (with its row for the guard), as the resolvers answer it, for every viewer', async () => {
    const { organization, admin, read, guest } = await newOrganizationWithRoles(server);
    await seedDeepTree(server.em(), organization.id, admin.user.id, SIZE, server.clock.now());
    const tree = await admin.gql<Deep>(DEEP_QUERY, { id: organization.id });
    expect(tree.errors).toBeUndefined();
    const [first, second, third] = tree.data.organization.collections.items;
    // Members by default lose a top-level collection (and what inherits from it) and two spaces, one of
    // which the reader sees by a grant; the guest has a grant on one space only, in a collection they do
    // not see, on a sub-collection, whose top-level collection they do not see either, and on a
    // top-level collection, which opens what is in it.
    const grant = (on: 'space' | 'collection') =>
      on === 'space'
        ? `mutation($id: ID!, $user: ID!) { grantSpaceRole(spaceId: $id, input: { user: $user, role: review }) { id } }`
        : `mutation($id: ID!, $user: ID!) { grantCollectionRole(collectionId: $id, input: { user: $user, role: read }) { id } }`;
    const changes: [string, Record<string, unknown>][] = [
      [`mutation($id: ID!) { updateCollection(id: $id, input: { defaultLevel: null }) { id } }`, { id: second.id }],
      [`mutation($id: ID!) { updateSpace(id: $id, input: { defaultLevel: null }) { id } }`, { id: first.spaces.items[1].id }],
      [`mutation($id: ID!) { updateSpace(id: $id, input: { defaultLevel: null }) { id } }`, { id: first.spaces.items[2].id }],
      [grant('space'), { id: first.spaces.items[1].id, user: read.user.id }],
      [grant('space'), { id: first.collections.items[0].spaces.items[0].id, user: guest.user.id }],
      [grant('collection'), { id: second.collections.items[0].id, user: guest.user.id }],
      [grant('collection'), { id: third.id, user: guest.user.id }],
    ];
    for (const [mutation, variables] of changes) expect((await admin.gql(mutation, variables)).errors).toBeUndefined();
    // Another guest sees the collection hidden from members by default, through a grant to their team.
    const teamGuest = await newMember(server, organization.id, null);
    const team = await createTeam(admin, organization.id, 'Readers', [teamGuest.user.id]);
    await grantRole(admin, { collection: second.id }, { team: team.id }, 'read');
    const token = await admin.gql<{ createApiToken: { token: string } }>(`mutation { createApiToken(label: "reader", scope: { role: read }) { token } }`);
    expect(token.errors).toBeUndefined();
    const capped = callerFor(server, admin.user, token.data.createApiToken.token);

    const answers = new Map<Caller, Answer>();
    for (const viewer of [admin, read, guest, teamGuest, capped]) {
      let written: Answer | undefined;
      const statements = await countStatements(async () => void (written = await viewer.gql<Deep>(DEEP_QUERY, { id: organization.id })));
      const resolved: Answer = await viewer.gql<Deep>(onResolvers(DEEP_QUERY), { id: organization.id });
      expect(written!.errors).toBeUndefined();
      expect(resolved.errors).toBeUndefined();
      // Byte for byte: the same members in the same order, cursors included.
      expect(JSON.stringify(written!.data)).toBe(JSON.stringify(resolved.data));
      // The token (with the viewer's memberships), and the answer, read with the organization's row that the guard judges.
      expect(statements).toBe(2);
      answers.set(viewer, written!);
      // The organization's whole lists too: every collection in tree order, every space.
      const lists = `query($id: ID!) { organization(id: $id) { collections(limit: 100) { count items { id } next { page } }
        spaces(limit: 100) { count items { id } next { page } } } }`;
      let listsWritten: Answer | undefined;
      expect(await countStatements(async () => void (listsWritten = await viewer.gql<Deep>(lists, { id: organization.id })))).toBe(2);
      expect(listsWritten!.errors).toBeUndefined();
      expect(JSON.stringify(listsWritten!.data)).toBe(JSON.stringify((await viewer.gql<Deep>(onResolvers(lists), { id: organization.id })).data));
    }
    // What varies does vary.
    const topCount = (viewer: Caller) => answers.get(viewer)!.data.organization.collections.count;
    expect(topCount(admin)).toBe(3);
    expect(topCount(capped)).toBe(3);
    expect(topCount(read)).toBe(2);
    expect(topCount(guest)).toBe(1);
    expect(topCount(teamGuest)).toBe(1);
    expect(answers.get(teamGuest)!.data.organization.collections.items[0].id).toBe(second.id);
    expect(answers.get(guest)!.data.organization.collections.items[0].id).toBe(third.id);
    const firstOf = (viewer: Caller) => answers.get(viewer)!.data.organization.collections.items[0];
    expect(firstOf(admin).spaces.count).toBe(3);
    expect(firstOf(read).spaces.count).toBe(2);
    expect(firstOf(read).collections.items[0].spaces.count).toBe(2);
    const someSpace = answers.get(admin)!.data.organization.collections.items[0].spaces.items[0];
    expect(someSpace.changeRequestList.count).toBeGreaterThan(0);
    expect(someSpace.changeRequestList.items[0].commentList).toMatchObject({ count: 6 });
  });

  it('hands out cursors that lead on, from the lists the database writes', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    await seedDeepTree(server.em(), organization.id, admin.user.id, SIZE, server.clock.now());
    // `at(page)` is the document with the list's arguments; `pageOf` finds the list in the answer.
    const walk = async (at: (args: string) => string, pageOf: (data: Deep) => Page<Listed>, limit: number) => {
      const ids: string[] = [];
      let written: Answer | undefined;
      const statements = await countStatements(async () => void (written = await admin.gql<Deep>(at(`limit: ${limit}`), { id: organization.id })));
      expect(written!.errors).toBeUndefined();
      expect(statements).toBe(2);
      // The cursor the database wrote is the resolvers' own, byte for byte.
      const resolved = await admin.gql<Deep>(onResolvers(at(`limit: ${limit}`)), { id: organization.id });
      expect(JSON.stringify(written!.data)).toBe(JSON.stringify(resolved.data));
      let page = pageOf(written!.data);
      ids.push(...page.items.map((item) => item.id));
      while (page.next) {
        const next: Answer = await admin.gql<Deep>(at(`limit: ${limit}, page: $page`).replace('query($id: ID!)', 'query($id: ID!, $page: String)'), {
          id: organization.id,
          page: page.next.page,
        });
        expect(next.errors).toBeUndefined();
        page = pageOf(next.data);
        ids.push(...page.items.map((item) => item.id));
      }
      return ids;
    };
    const walkBoth = async (at: (args: string) => string, pageOf: (data: Deep) => Page<Listed>) => {
      const all = await walk(at, pageOf, 100);
      expect(all.length).toBeGreaterThan(1);
      expect(await walk(at, pageOf, 1)).toEqual(all);
    };
    // Collections in tree order (a text array's cursor), top-level ones by position.
    await walkBoth(
      (args) => `query($id: ID!) { organization(id: $id) { collections(${args}) { count items { id } next { page } } } }`,
      (data) => data.organization.collections,
    );
    await walkBoth(
      (args) => `query($id: ID!) { organization(id: $id) { collections(nested: false, ${args}) { count items { id } next { page } } } }`,
      (data) => data.organization.collections,
    );
    // The organization's spaces, oldest first (a time's cursor, ascending).
    await walkBoth(
      (args) => `query($id: ID!) { organization(id: $id) { spaces(${args}) { count items { id } next { page } } } }`,
      (data) => (data as unknown as { organization: { spaces: Page<Listed> } }).organization.spaces,
    );
    // Comments newest first (a time's cursor), under change requests by number (descending), under spaces by position.
    const deep = (args: string, status = '') =>
      `query($id: ID!) { organization(id: $id) { collections(nested: false, limit: 1) { items { collections(limit: 1) { items {
        spaces(limit: 1) { items { changeRequestList(${status}limit: 1) { items { commentList(${args}) { count items { id } next { page } } } } } } } } } } } }`;
    const crOf = (data: Deep) => data.organization.collections.items[0].collections.items[0].spaces.items[0].changeRequestList.items[0];
    await walkBoth(deep, (data) => crOf(data).commentList);
    await walkBoth(
      (args) => `query($id: ID!) { organization(id: $id) { collections(nested: false, limit: 1) { items { spaces(limit: 1) { items {
        changeRequestList(status: merged, ${args}) { count items { id } next { page } } } } } } } }`,
      (data) => data.organization.collections.items[0].spaces.items[0].changeRequestList,
    );
    await walkBoth(
      (args) =>
        `query($id: ID!) { organization(id: $id) { collections(nested: false, limit: 1) { items { collections(${args}) { count items { id } next { page } } } } } }`,
      (data) => data.organization.collections.items[0].collections,
    );
  });

  it('refuses what the resolvers refuse', async () => {
    const { organization, admin, outsider } = await newOrganizationWithRoles(server);
    const code = (answer: Answer) => answer.errors?.[0]?.extensions?.code;
    expect(code(await admin.gql(`query($id: ID!) { organization(id: $id) { collections(limit: 0) { count } } }`, { id: organization.id }))).toBe('BAD_REQUEST');
    expect(code(await admin.gql(`query { organization(id: "nope") { id collections(limit: 2) { count } } }`))).toBe('NOT_FOUND');
    expect(code(await outsider.gql(`query($id: ID!) { organization(id: $id) { id collections(limit: 2) { count } } }`, { id: organization.id }))).toBe(
      'NOT_FOUND',
    );
  });
});
