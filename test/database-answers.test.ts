import { describe, expect, it } from 'vitest';
import { seedSiteTree, SITE_TREE_QUERY } from '../scripts/site-tree.js';
import { newOrganizationWithRoles } from './support/factories.js';
import { useTestServer } from './support/server.js';
import { countStatements } from './support/sql.js';
import { readFileSync } from 'node:fs';
import { buildSchema, getOperationAST, Kind, parse, type FragmentDefinitionNode } from 'graphql';
import { routes } from '../rest-facade/routes/index.js';
import { leaveOutNulls, nullFieldsOf, shapeOf } from '../rest-facade/answer-shape.js';

const server = useTestServer();

const schema = buildSchema(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8'));

/** The root field's response name of a route's document, and the null fields REST leaves out of its answer. */
function restAnswerOf(document: string) {
  const parsed = parse(document);
  const operation = getOperationAST(parsed)!;
  const fragments = Object.fromEntries(
    parsed.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );
  const [[rootKey, root]] = shapeOf(schema, operation.selectionSet, schema.getQueryType()!, fragments);
  return { rootKey, nullFields: nullFieldsOf(root.children!) };
}

type TreeSpace = { id: string; permissions: { view: boolean; edit?: boolean } };
type TreeSection = { siteSpaces: { space: TreeSpace }[] };
type Tree = { site: { structure: { structure: (TreeSection | { sections: TreeSection[] })[] } } };

/** The spaces of a site tree's answer, in its order. */
const spacesOf = (tree: Tree): TreeSpace[] =>
  tree.site.structure.structure.flatMap((item) => ('sections' in item ? item.sections : [item]).flatMap((section) => section.siteSpaces.map((s) => s.space)));

/*
 * Where the database writes the answer (db/read-shapes.ts, kernel/prebuilt-answers.ts), it states in
 * SQL what resolvers state in JavaScript: permissions from the viewer's role, defaults, published URLs.
 * A directive (@include) keeps a selection on rows and resolvers, so the same document answers both
 * ways, and both answers must be equal, for every viewer.
 */
describe('answers the database writes', () => {
  it('equal the resolvers’ answers for every viewer: permissions through default levels and grants, defaults, URLs', async () => {
    const { organization, admin, create, edit, read, guest } = await newOrganizationWithRoles(server);
    const siteId = await seedSiteTree(server.em(), organization.id, 3, 3, 1, server.clock.now());
    const tree = await admin.gql(SITE_TREE_QUERY, { id: siteId });
    expect(tree.errors).toBeUndefined();
    const spaceIds = spacesOf(tree.data as Tree).map((space) => space.id);
    // Default levels along the spaces, and grants to the guest and to a reader above their default.
    const levels = ['read', 'edit', null, 'admin', 'inherit', 'comment'];
    for (const [i, id] of spaceIds.slice(0, levels.length).entries()) {
      const changed = await admin.gql(`mutation($id: ID!, $level: DefaultLevel) { updateSpace(id: $id, input: { defaultLevel: $level }) { id } }`, {
        id,
        level: levels[i],
      });
      expect(changed.errors).toBeUndefined();
    }
    for (const [spaceId, user, role] of [
      [spaceIds[2], guest.user.id, 'edit'],
      [spaceIds[0], read.user.id, 'review'],
      [spaceIds[7], guest.user.id, 'read'],
    ] as const) {
      const granted = await admin.gql(
        `mutation($spaceId: ID!, $user: ID!, $role: Role!) { grantSpaceRole(spaceId: $spaceId, input: { user: $user, role: $role }) { id } }`,
        {
          spaceId,
          user,
          role,
        },
      );
      expect(granted.errors).toBeUndefined();
    }
    // The same document kept on rows: a directive makes the selection depend on the variables.
    const onRows = SITE_TREE_QUERY.replaceAll('permissions {', 'permissions @include(if: true) {').replaceAll('urls {', 'urls @include(if: true) {');
    expect(onRows).not.toBe(SITE_TREE_QUERY);
    // The written answer reads no row to resolve: the sections that the site spaces' URLs name are not read.
    const writtenStatements = await countStatements(() => admin.gql(SITE_TREE_QUERY, { id: siteId }));
    const resolvedStatements = await countStatements(() => admin.gql(onRows, { id: siteId }));
    expect(writtenStatements).toBeLessThan(resolvedStatements);
    for (const viewer of [admin, create, edit, read, guest]) {
      const written = await viewer.gql(SITE_TREE_QUERY, { id: siteId });
      const resolved = await viewer.gql(onRows, { id: siteId });
      // Guests do not see the site at all: both ways answer the same refusal.
      expect(written.errors).toEqual(resolved.errors);
      expect(written.data).toEqual(resolved.data);
    }
    // What varies does vary: the reader reviews where granted, and does not view a space without default access.
    const readerTree = await read.gql(SITE_TREE_QUERY, { id: siteId });
    expect(readerTree.errors).toBeUndefined();
    const readerPermissions = new Map(spacesOf(readerTree.data as Tree).map((space) => [space.id, space.permissions]));
    expect(readerPermissions.get(spaceIds[0])).toMatchObject({ view: true, edit: true });
    expect(readerPermissions.get(spaceIds[2])).toMatchObject({ view: false, edit: false });
  });

  it('over REST leave out the null fields REST leaves out, and keep those marked @keepNull', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const siteId = await seedSiteTree(server.em(), organization.id, 3, 3, 1, server.clock.now());
    // A collection whose default level is null, which REST keeps (@keepNull), beside one that inherits.
    for (const defaultLevel of [null, 'inherit']) {
      const made = await admin.gql(`mutation($org: ID!) { createCollection(organizationId: $org, input: { title: "Kept" }) { id } }`, { org: organization.id });
      const changed = await admin.gql(`mutation($id: ID!, $level: DefaultLevel) { updateCollection(id: $id, input: { defaultLevel: $level }) { id } }`, {
        id: (made.data as { createCollection: { id: string } }).createCollection.id,
        level: defaultLevel,
      });
      expect(changed.errors).toBeUndefined();
    }
    const calls = [
      {
        operationId: 'listSiteSections',
        path: `/v1/orgs/${organization.id}/sites/${siteId}/sections?limit=1000`,
        variables: { organizationId: organization.id, siteId, limit: 1000 },
      },
      { operationId: 'listCollectionsInOrganizationById', path: `/v1/orgs/${organization.id}/collections`, variables: { organizationId: organization.id } },
    ];
    for (const viewer of [admin, read]) {
      for (const { operationId, path, variables } of calls) {
        const route = routes.find((candidate) => candidate.operationId === operationId)!;
        const answer = await viewer.rest('GET', path);
        expect(answer.status).toBe(200);
        // The same document over GraphQL, its nulls left out in JavaScript (as REST did before the database wrote them).
        const viaGraphql = await viewer.gql(route.document, variables);
        expect(viaGraphql.errors).toBeUndefined();
        const { rootKey, nullFields } = restAnswerOf(route.document);
        const expected = (viaGraphql.data as Record<string, unknown>)[rootKey];
        leaveOutNulls(expected, nullFields);
        expect(answer.body).toEqual(JSON.parse(JSON.stringify(expected)));
      }
    }
    const collections = (await admin.rest('GET', `/v1/orgs/${organization.id}/collections`)).body as { items: { defaultLevel?: unknown }[] };
    expect(collections.items.map((collection) => collection.defaultLevel)).toContain(null);
    const sections = (await admin.rest('GET', `/v1/orgs/${organization.id}/sites/${siteId}/sections?limit=1000`)).body as { items: unknown[] };
    expect(sections.items.length).toBeGreaterThan(0);
    expect(JSON.stringify(sections)).not.toContain(':null');
  });
});
