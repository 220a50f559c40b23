import { describe, expect, it } from 'vitest';
import { Collection } from '../src/domain/collections/index.js';
import { byPosition, type Ordered } from '../src/kernel/ordering.js';
import { Space } from '../src/domain/spaces/index.js';
import { freshDatabase } from './support/database.js';
import { callerFor, newOrganization, newOrganizationWithRoles, newUser, type Caller } from './support/factories.js';
import { insertSection, insertSite, insertSiteSpace, siteBase } from './support/sites.js';
import { startTestServer, type TestServer, useTestServer } from './support/server.js';

/*
 * Collections and spaces share one sibling order under each parent. Placements under one parent are
 * serialized (the parent's row lock) and computed from the neighbours, so items created or moved at
 * once get distinct positions, and positions made equal before that (by the earlier unserialized
 * placements) no longer block a move next to them.
 */

const server = useTestServer();

type Kind = 'space' | 'collection';
type Door = 'REST' | 'GraphQL';
type Child = Ordered & { kind: Kind };

const times = <T>(n: number, request: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => request(i)));

/** The children of a parent (collections and live spaces), in the order they are shown in. */
async function childrenOf(organizationId: string, parentId: string | null, on: TestServer = server): Promise<Child[]> {
  const em = on.em();
  const [collections, spaces] = await Promise.all([
    em.find(Collection, { organization: organizationId, parent: parentId }),
    em.find(Space, { organization: organizationId, parent: parentId, deletedAt: null }),
  ]);
  return [
    ...collections.map((c) => ({ id: c.id, position: c.position, kind: 'collection' as const })),
    ...spaces.map((s) => ({ id: s.id, position: s.position, kind: 'space' as const })),
  ].sort(byPosition);
}

function expectDistinctPositions(children: Child[]) {
  expect(new Set(children.map((c) => c.position)).size).toBe(children.length);
}

/** The HTTP status a GraphQL answer's first error stands for. */
const statusOf = (errors: { extensions?: Record<string, unknown> }[]) => (errors[0].extensions?.status as number | undefined) ?? 500;

/** Creates a space or collection through a door; answers its status (201, or the GraphQL error's) and id. */
async function create(caller: Caller, door: Door, kind: Kind, organizationId: string, parent: string | null, title: string) {
  const body = { title, ...(parent ? { parent } : {}) };
  if (door === 'REST') {
    const res = await caller.rest('POST', `/v1/orgs/${organizationId}/${kind === 'space' ? 'spaces' : 'collections'}`, body);
    return { status: res.status, id: res.body?.id as string };
  }
  const mutation = kind === 'space' ? 'createSpace(organizationId: $o, input: $input)' : 'createCollection(organizationId: $o, input: $input)';
  const inputType = kind === 'space' ? 'CreateSpaceInput!' : 'CreateCollectionInput!';
  const res = await caller.gql(`mutation($o: ID!, $input: ${inputType}) { created: ${mutation} { id } }`, { o: organizationId, input: body });
  return { status: res.errors ? statusOf(res.errors) : 201, id: res.data?.created?.id as string };
}

type Pointer = { type: Kind; space?: string; collection?: string };
const pointerTo = (child: Child): Pointer => (child.kind === 'space' ? { type: 'space', space: child.id } : { type: 'collection', collection: child.id });

/** Moves a child through a door; answers the status (200, or the GraphQL error's) and the error message. */
async function move(caller: Caller, door: Door, child: Child, position: { before?: Child; after?: Child }) {
  const input = {
    position: {
      ...(position.before ? { before: pointerTo(position.before) } : {}),
      ...(position.after ? { after: pointerTo(position.after) } : {}),
    },
  };
  if (door === 'REST') {
    const res = await caller.rest('POST', `/v1/${child.kind === 'space' ? 'spaces' : 'collections'}/${child.id}/move`, input);
    return { status: res.status, message: res.body?.error?.message as string | undefined };
  }
  const mutation = child.kind === 'space' ? 'moveSpace(id: $id, input: $input)' : 'moveCollection(id: $id, input: $input)';
  const res = await caller.gql(`mutation($id: ID!, $input: MoveContentInput!) { moved: ${mutation} { id } }`, { id: child.id, input });
  return { status: res.errors ? statusOf(res.errors) : 200, message: res.errors?.[0]?.message };
}

/** The ids in `order` after moving `id` just before (or after) `target`. */
function moved(order: Child[], id: string, side: 'before' | 'after', target: string): string[] {
  const ids = order.map((c) => c.id).filter((other) => other !== id);
  ids.splice(ids.indexOf(target) + (side === 'after' ? 1 : 0), 0, id);
  return ids;
}

const scenarios: { name: string; kinds: Kind[]; inCollection: boolean }[] = [
  { name: 'spaces in a collection', kinds: ['space'], inCollection: true },
  { name: 'spaces at the top level', kinds: ['space'], inCollection: false },
  { name: 'collections in a collection', kinds: ['collection'], inCollection: true },
  { name: 'collections at the top level', kinds: ['collection'], inCollection: false },
  { name: 'spaces and collections at the top level', kinds: ['space', 'collection'], inCollection: false },
];

describe('creating at once under one parent', () => {
  for (const door of ['REST', 'GraphQL'] as const) {
    for (const scenario of scenarios) {
      it(`gives 20 ${scenario.name} created at once through ${door} distinct positions, and moves among them succeed`, async () => {
        const { organization, admin } = await newOrganizationWithRoles(server);
        const parent = scenario.inCollection ? (await create(admin, 'REST', 'collection', organization.id, null, 'Parent')).id : null;
        const answers = await times(20, (i) => create(admin, door, scenario.kinds[i % scenario.kinds.length], organization.id, parent, `Item ${i}`));
        expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));

        const children = (await childrenOf(organization.id, parent)).filter((c) => c.id !== parent);
        expect(children.map((c) => c.id).sort()).toEqual(answers.map((a) => a.id).sort());
        expectDistinctPositions(children);

        // Before, after, and between two adjacent siblings: each lands exactly there.
        let order = children;
        for (const [child, side, target] of [
          [order[19], 'before', order[0]],
          [order[0], 'after', order[10]],
          [order[5], 'before', order[6]],
        ] as const) {
          const expected = moved(order, child.id, side, target.id);
          const res = await move(admin, door, child, { [side]: target });
          expect(res.status, res.message).toBe(200);
          order = (await childrenOf(organization.id, parent)).filter((c) => c.id !== parent);
          expect(order.map((c) => c.id)).toEqual(expected);
        }
        const expected = moved(order, order[0].id, 'after', order[3].id);
        expect((await move(admin, door, order[0], { after: order[3], before: order[4] })).status).toBe(200);
        order = (await childrenOf(organization.id, parent)).filter((c) => c.id !== parent);
        expect(order.map((c) => c.id)).toEqual(expected);
        expectDistinctPositions(order);
      });
    }
  }

  it('gives 20 moves at once to the end and next to other siblings distinct positions', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const parent = (await create(admin, 'REST', 'collection', organization.id, null, 'Parent')).id;
    for (let i = 0; i < 20; i++) expect((await create(admin, 'REST', i % 4 ? 'space' : 'collection', organization.id, parent, `Item ${i}`)).status).toBe(201);
    const order = await childrenOf(organization.id, parent);
    // Half go to the end, half right after the first item, through both doors at once.
    const answers = await Promise.all(order.map((child, i) => move(admin, i % 3 ? 'REST' : 'GraphQL', child, i % 2 ? { after: order[0] } : {})));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const after = await childrenOf(organization.id, parent);
    expect(after).toHaveLength(20);
    expectDistinctPositions(after);
  });
});

describe('two server instances on one PostgreSQL database', () => {
  it.runIf(!!process.env.TEST_DATABASE_URL)('give spaces and collections created at once in one collection distinct positions', async () => {
    const database = await freshDatabase();
    const first = await startTestServer({}, { database });
    const second = await startTestServer({}, { database });
    try {
      const owner = await newUser(first);
      const organization = await newOrganization(first, owner);
      const callers = [owner, callerFor(second, owner.user, owner.token)];
      const parent = (await create(owner, 'REST', 'collection', organization.id, null, 'Parent')).id;
      const answers = await times(40, (i) =>
        create(callers[i % 2], i % 4 < 2 ? 'REST' : 'GraphQL', i % 3 ? 'space' : 'collection', organization.id, i % 5 ? parent : null, `Item ${i}`),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(40).fill(201));
      const inParent = await childrenOf(organization.id, parent, first);
      const topLevel = await childrenOf(organization.id, null, first);
      expect(inParent).toHaveLength(32);
      expect(topLevel).toHaveLength(9); // the parent and 8 items
      expectDistinctPositions(inParent);
      expectDistinctPositions(topLevel);
    } finally {
      await first.stop();
      await second.stop();
      await database.dispose();
    }
  });
});

describe('positions made equal before placements were serialized', () => {
  /** Gives these children one position, with SQL, as concurrent creations used to. */
  async function makeEqual(children: Child[], position: string) {
    const em = server.em();
    for (const child of children)
      await em.execute(`update ${child.kind === 'space' ? 'space' : 'collection'} set position = ? where id = ?`, [position, child.id]);
  }

  it('let moves before, after and between them succeed, exactly there, through both doors', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const parent = (await create(admin, 'REST', 'collection', organization.id, null, 'Parent')).id;
    for (let i = 0; i < 8; i++) expect((await create(admin, 'REST', i % 3 ? 'space' : 'collection', organization.id, parent, `Item ${i}`)).status).toBe(201);
    const created = await childrenOf(organization.id, parent);
    await makeEqual(created.slice(1, 5), created[1].position); // a run of four equal positions
    await makeEqual(created.slice(5, 8), created[5].position); // and a run of three at the end

    let order = await childrenOf(organization.id, parent);
    for (const [door, child, side, target] of [
      ['REST', order[0], 'after', order[2]],
      ['GraphQL', order[7], 'before', order[3]],
      ['REST', order[1], 'after', order[6]],
      ['GraphQL', order[6], 'before', order[5]],
    ] as const) {
      const expected = moved(order, child.id, side, target.id);
      const res = await move(admin, door, child, { [side]: target });
      expect(res.status, res.message).toBe(200);
      order = await childrenOf(organization.id, parent);
      expect(order.map((c) => c.id)).toEqual(expected);
    }

    // Between two adjacent siblings of equal positions.
    expectDistinctPositions(order); // every run that a move touched was given distinct positions
    await makeEqual(order.slice(3, 5), order[3].position);
    order = await childrenOf(organization.id, parent);
    const expected = moved(order, order[0].id, 'after', order[3].id);
    expect((await move(admin, 'REST', order[0], { after: order[3], before: order[4] })).status).toBe(200);
    expect((await childrenOf(organization.id, parent)).map((c) => c.id)).toEqual(expected);

    // A creation at the end goes last, after a run of equal positions too.
    const last = await childrenOf(organization.id, parent);
    await makeEqual(last.slice(-2), last.at(-1)!.position);
    const added = await create(admin, 'GraphQL', 'space', organization.id, parent, 'Last');
    expect(added.status).toBe(201);
    expect((await childrenOf(organization.id, parent)).at(-1)!.id).toBe(added.id);
  });

  it('let site spaces move next to site spaces of equal positions', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const site = await insertSite(server, organization.id);
    const section = await insertSection(server, site, { path: 's', position: 'a0', isDefault: true });
    const spaces = await times(4, async (i) => (await create(admin, 'REST', 'space', organization.id, null, `Space ${i}`)).id);
    for (const [i, space] of spaces.entries())
      await insertSiteSpace(server, site, { space, path: `p${i}`, position: i === 0 ? 'a0' : 'a1', section: section.id });
    const listed = async () => ((await admin.rest('GET', `${siteBase(site)}/site-spaces?limit=100`)).body.items as { id: string }[]).map((item) => item.id);
    const [first, ...equal] = await listed();
    const moveSiteSpace = (id: string, position: unknown) => admin.rest('POST', `${siteBase(site)}/site-spaces/${id}/move`, { position });

    expect((await moveSiteSpace(first, { after: { type: 'site-space', siteSpace: equal[0] } })).status).toBe(200);
    expect((await moveSiteSpace(equal[2], { before: { type: 'site-space', siteSpace: equal[1] } })).status).toBe(200);
    const order = await listed();
    expect(order).toHaveLength(4);
    // Next to the run of equal positions, on the side asked for.
    expect(order.indexOf(equal[2])).toBeLessThan(order.indexOf(equal[1]));
    expect(order.indexOf(first)).toBeGreaterThan(order.indexOf(equal[0]));
  });
});
