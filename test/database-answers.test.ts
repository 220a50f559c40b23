import { describe, expect, it } from 'vitest';
import { seedSiteTree, SITE_TREE_QUERY } from '../scripts/site-tree.js';
import { newOrganizationWithRoles } from './support/factories.js';
import { useTestServer } from './support/server.js';
import { countStatements } from './support/sql.js';

const server = useTestServer();

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
});
