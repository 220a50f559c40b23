import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { buildSchema, parse, validate } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { AccessRules } from './support/read-path/access-rules.js';
import { argsOf, flag, pageLimit, randomSelections, type RootField } from './support/read-path/random-selections.js';
import { CURSOR, referenceAnswer, type Answer, type ErrorAt, type ReferenceContext } from './support/read-path/reference-reader.js';
import { seedOrganizations, type SeededOrganizations, type ViewerName } from './support/read-path/seeded-organization.js';
import { printDocument, rootsOf, type ArgValue, type FieldSelection } from './support/read-path/selection.js';
import { readSnapshot, type Snapshot } from './support/read-path/snapshot.js';
import { useTestServer } from './support/server.js';

/**
 * The read path, differentially: random GraphQL selections (fast-check, over the schema's types from the
 * root fields of organizations, collections, spaces, change requests, comments, sites, sections and site
 * spaces; nested lists included, four objects deep) are sent through the public HTTP door for each of
 * six viewers — the admin, a member with grants (and a team's owner), a member without grants, a reader
 * (organization role read), a guest with one grant, an outsider — and each answer must equal what a
 * deliberately simple reference reader answers for that viewer: the data, and the errors (a hidden
 * object is hidden the same way: NOT_FOUND and a null, or absent from lists and counts).
 *
 * The reference (support/read-path/) reads every row of the seeded organizations once, with plain
 * `select`s, and computes each selected field from rows by rules written in the tests: a list is the
 * child rows by foreign key, filtered to what the viewer may see, in the documented order, the first
 * `limit`; a count is the number of those rows. Visibility is a straightforward re-implementation of
 * the documented rules (docs/behaviour/access.md, docs/permissions.md; see access-rules.ts), not the
 * server's Policy, loaders or SQL filter: the server's read path is what is under test, so the
 * reference shares none of it. It is meant to stay that simple: it is slow where the server is fast,
 * and that is fine for a test.
 *
 * Left out of the comparison, each with its reason in reference-reader.ts: revisions' content (pages
 * and files) and a comment's targeted page. `next.page` cursors are opaque: only their presence is
 * compared. The documents may exceed the server's cost and token bounds (lists of 1000 nested four
 * deep), which this file raises: those bounds are another test's business.
 *
 * It guards the replacement of the read path (issue 34): it passes on the current server, and must go
 * on passing, on PGlite and on PostgreSQL. A failure prints the viewer, the document and fast-check's
 * seed and shrunk counterexample (`PROPERTY_SEED=<seed> PROPERTY_RUNS=<n>` replays it).
 */

/** Fields not drawn, with the reason. */
const LEFT_OUT: Record<string, string> = {};

const server = useTestServer({ GRAPHQL_MAX_COST: String(Number.MAX_SAFE_INTEGER), GRAPHQL_MAX_TOKENS: '100000' });
const schema = buildSchema(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8'));
const documents = randomSelections(schema, { maxDepth: 4, leaveOut: LEFT_OUT, outOfRangeLimits: true });

let seeded: SeededOrganizations;
let rows: Snapshot;
beforeAll(async () => {
  seeded = await seedOrganizations(server);
  rows = await readSnapshot(server.em());
}, 120_000);

/** An id that names nothing. */
const UNKNOWN = 'NoSuchId000000000000';

/** The root fields, with ids of the seeded rows (hidden, deleted and other organizations' included) and unknown ones. */
function rootFields(): RootField[] {
  const idOf = <T extends { id: string }>(list: T[]) => fc.constantFrom(...list.map((row) => row.id), UNKNOWN);
  /** Mostly the first choice (the usual case), sometimes the others. */
  const mostly = <T>(usual: fc.Arbitrary<T>, ...others: fc.Arbitrary<T>[]) =>
    fc.oneof({ weight: 4, arbitrary: usual }, ...others.map((arbitrary) => ({ weight: 1, arbitrary })));
  const organizationId = mostly(fc.constant(seeded.organizationId), idOf(rows.organizations));
  const spaceId = mostly(
    fc.constantFrom(...rows.spaces.filter((s) => s.deletedAt === null).map((s) => s.id)),
    fc.constantFrom(...rows.spaces.filter((s) => s.deletedAt !== null).map((s) => s.id)),
    idOf(rows.spaces),
  );
  const siteId = mostly(fc.constantFrom(...rows.sites.filter((s) => s.organizationId === seeded.organizationId).map((s) => s.id)), idOf(rows.sites));
  const changeRequestRef = mostly(
    // A change request of the space, by id or by number.
    fc
      .tuple(fc.constantFrom(...rows.changeRequests), fc.boolean())
      .map(([c, byNumber]) => ({ spaceId: c.spaceId, changeRequestId: byNumber ? String(c.number) : c.id })),
    // Anything: another space's change request, a number the space has not reached, an unknown id.
    fc.record({ spaceId, changeRequestId: fc.constantFrom(...rows.changeRequests.map((c) => c.id), '1', '4', '99', UNKNOWN) }),
  );
  /** A discussion: a comment's own (space, or change request), or any space's, or a change request of another space. */
  const discussion = mostly(
    fc.constantFrom(...rows.comments).map((c) => ({ spaceId: c.spaceId, changeRequestId: c.changeRequestId ?? undefined })),
    fc.record({ spaceId, changeRequestId: fc.option(fc.constantFrom(...rows.changeRequests.map((c) => c.id)), { nil: undefined }) }),
  );
  const commentRef = mostly(
    fc.constantFrom(...rows.comments).map((c) => ({ spaceId: c.spaceId, changeRequestId: c.changeRequestId ?? undefined, commentId: c.id })),
    fc.tuple(discussion, idOf(rows.comments)).map(([d, commentId]) => ({ ...d, commentId })),
  );
  const anyOf = <T>(values: T[]) => fc.option(fc.constantFrom(...values), { nil: undefined });
  const withPage = <T extends Record<string, ArgValue | undefined>>(args: fc.Arbitrary<T>) =>
    fc.tuple(args, pageLimit(true)).map(([given, limit]) => argsOf({ ...given, limit }));
  // The families about equally often: organizations and their lists, single items, discussions, sites.
  return [
    { field: 'organization', weight: 2, args: organizationId.map((id) => ({ id })) },
    { field: 'collections', weight: 2, args: withPage(fc.record({ organizationId, nested: flag })) },
    { field: 'spaces', weight: 2, args: withPage(fc.record({ organizationId })) },
    { field: 'collection', weight: 3, args: idOf(rows.collections).map((id) => ({ id })) },
    { field: 'space', weight: 3, args: spaceId.map((id) => ({ id })) },
    {
      field: 'changeRequests',
      weight: 2,
      args: withPage(fc.record({ spaceId, status: anyOf(['open', 'draft', 'archived', 'merged']).map((s) => (s ? { enum: s } : undefined)) })),
    },
    { field: 'changeRequest', weight: 2, args: changeRequestRef },
    {
      field: 'comments',
      weight: 4,
      args: withPage(
        fc.tuple(discussion, fc.record({ order: anyOf(['asc', 'desc']), status: anyOf(['all', 'open', 'resolved']) })).map(([d, f]) => ({ ...d, ...f })),
      ),
    },
    { field: 'commentReplies', weight: 2, args: withPage(commentRef) },
    { field: 'site', weight: 3, args: siteId.map((id) => ({ id })) },
    { field: 'sites', weight: 1, args: withPage(fc.record({ organizationId })) },
    { field: 'siteSections', weight: 2, args: withPage(fc.record({ siteId })) },
    { field: 'siteSectionGroups', weight: 1, args: withPage(fc.record({ siteId })) },
    { field: 'siteSpaces', weight: 2, args: withPage(fc.record({ siteId, default: flag })) },
  ];
}

type GraphQLAnswer = { data?: Record<string, unknown> | null; errors?: { path?: (string | number)[]; extensions?: { code?: string } }[] };

/** The server's answer with its cursors replaced where the reference expects one (their presence is what is compared). */
function withCursorsAligned(actual: unknown, expected: unknown): unknown {
  if (expected === CURSOR && typeof actual === 'string' && actual.length > 0) return CURSOR;
  if (Array.isArray(actual) && Array.isArray(expected)) return actual.map((item, i) => withCursorsAligned(item, expected[i]));
  if (actual && expected && typeof actual === 'object' && typeof expected === 'object') {
    const reference = expected as Record<string, unknown>;
    return Object.fromEntries(Object.entries(actual).map(([key, value]) => [key, withCursorsAligned(value, reference[key])]));
  }
  return actual;
}

function contextFor(name: ViewerName): ReferenceContext {
  const userId = seeded.viewers[name].user.id;
  return {
    rows,
    access: new AccessRules(rows, userId, server.clock.now()),
    viewer: rows.users.find((u) => u.id === userId)!,
    publicUrl: server.deps.config.publicUrl,
    appUrl: server.deps.config.appUrl,
  };
}

/**
 * The server's answer must equal the reference's. Errors: the server reports those it met before the
 * nulls they caused stopped the rest (GraphQL does not say which fields still run beside a non-null
 * one that failed), so each of its errors must be one the reference expects, at the same path and with
 * the same code, and it reports some exactly when the reference does.
 */
function expectSameAnswer(actual: GraphQLAnswer, expected: Answer, label: string) {
  expect(withCursorsAligned(actual.data ?? null, expected.data), label).toEqual(expected.data);
  const errors: ErrorAt[] = (actual.errors ?? []).map((e) => ({ path: e.path ?? [], code: e.extensions?.code ?? '(no code)' }));
  if (expected.errors.length === 0) {
    expect(errors, label).toEqual([]);
    return;
  }
  expect(errors.length, `${label}\nexpected errors: ${JSON.stringify(expected.errors)}`).toBeGreaterThan(0);
  for (const error of errors) expect(expected.errors, `${label}\nexpected errors: ${JSON.stringify(expected.errors)}`).toContainEqual(error);
}

/** Sends the selection as `viewer` through the GraphQL door and compares the answer with the reference's. */
async function compareAs(viewer: ViewerName, roots: FieldSelection[]) {
  const query = printDocument(roots);
  const answer = await seeded.viewers[viewer].rest<GraphQLAnswer>('POST', '/graphql', { query });
  expect(answer.body && typeof answer.body === 'object', `${viewer}: ${answer.status} ${JSON.stringify(answer.body)}`).toBe(true);
  expectSameAnswer(answer.body, referenceAnswer(schema, roots, contextFor(viewer)), `viewer: ${viewer}\n${query}`);
}

const VIEWERS: ViewerName[] = ['admin', 'memberWithGrants', 'memberWithoutGrants', 'reader', 'guest', 'outsider'];

describe('the read path', () => {
  it('answers random selections as the reference reader does, for every viewer', { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(documents(rootFields()), async (roots) => {
        expect(validate(schema, parse(printDocument(roots))), `the selections made an invalid document:\n${printDocument(roots)}`).toEqual([]);
        for (const viewer of VIEWERS) await compareAs(viewer, roots);
      }),
      { seed: Number(process.env.PROPERTY_SEED ?? 342_026), numRuns: Number(process.env.PROPERTY_RUNS ?? 80) },
    );
  });
});

const idOfSpace = (title: string) => rows.spaces.find((s) => s.title === title)!.id;

/**
 * Server bugs the property found (2026-11-29), minimised; fixed since, and kept as cases of their own.
 */
describe('bugs the property found', () => {
  // A bad `limit` is a BAD_REQUEST of its own list. Both pages are read in one DataLoader batch
  // (db/pages.ts, pageLoader), which used to fail whole: `a`, whose limit is fine, was null too.
  it('an out-of-range limit fails only its own list, not the lists read in the same batch', async () => {
    const roots = rootsOf(`{
      r0: space(id: "${idOfSpace('Secret recipes')}") {
        a: parentCollection { spaces(limit: 1) { count } }
        b: parentCollection { spaces(limit: 0) { count } }
      }
    }`);
    await compareAs('admin', roots);
  });

  // "The replies themselves, oldest first": they used to be read without an order (comments/loaders.ts),
  // so an edited reply, whose row moved, came last. Ties are broken by id, as in `commentReplies`.
  it('Comment.replyItems lists the replies oldest first', async () => {
    const roots = rootsOf(`{
      r0: comments(spaceId: "${idOfSpace('Welcome')}", order: "asc") { items { id replyItems { id postedAt body { markdown } } } }
    }`);
    await compareAs('admin', roots);
  });
});
