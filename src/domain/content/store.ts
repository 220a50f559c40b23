import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { type Sql } from 'sql-template-tag';
import { jsonListOf, queryIn, rowsOf, type Plain } from '../../db/statements.js';
import { ContentEntry, ContentNode, Revision, type RevisionContent, type RevisionRow } from './entities.js';
import type { Manifest } from './manifest.js';
import { manifestOf, treeOf, type Tree, type TreeEntry } from './tree.js';

/*
 * Reading and writing revisions' content trees (tree.ts). A read is one statement whatever the size
 * of the space: the revision rows, and every entry of their trees through a recursive walk of the
 * nodes. A write stores only the entries and nodes the revisions it started from do not hold.
 */

/** Hashes of the entries and nodes known to be stored: those of the revisions a writer read. */
export type StoredObjects = Set<string>;

/** An entry of a walked tree, with the revision it was reached from (see WALKED_ENTRIES). */
export type EntryTuple = [
  revision: string,
  hash: string,
  kind: 'page' | 'file',
  item: string,
  version: string,
  parent: string | null,
  position: string | null,
  name: string | null,
  ordinal: number | null,
];

/** Every node of the trees of the revisions `revisionIds` names, with the revision it was reached from. */
export const walkTrees = (revisionIds: readonly string[]) => sql`with recursive walk as (
    select r."id" as "revision", n."hash", n."entries", n."children"
    from "revision" r join "content_node" n on n."hash" = r."tree"
    where r."id" = any(${revisionIds})
  union all
    select w."revision", n."hash", n."entries", n."children"
    from walk w cross join lateral unnest(w."children") as c("hash") join "content_node" n on n."hash" = c."hash"
)`;

/** The tree entries of the walked revisions, as [revision, hash, kind, item, version, parent, position, name, ordinal] tuples. */
export const WALKED_ENTRIES = sql`coalesce((select json_agg(json_build_array(w."revision", e."hash", e."kind", e."item", e."version", e."parent", e."position", e."name", e."ordinal"))
    from walk w cross join lateral unnest(w."entries") as k("hash") join "content_entry" e on e."hash" = k."hash"), '[]')`;

/** The revision rows' list, built once from the metadata (a cache that can be lost). */
let revisionList: Sql | undefined;

/** The entries of each walked revision, by revision id. */
export function entriesByRevision(tuples: readonly EntryTuple[]): Map<string, TreeEntry[]> {
  const byRevision = new Map<string, TreeEntry[]>();
  for (const [revision, hash, kind, item, version, parent, position, name, ordinal] of tuples) {
    let entries = byRevision.get(revision);
    if (!entries) byRevision.set(revision, (entries = []));
    entries.push({ hash, kind, item, version, parent, position, name, ordinal });
  }
  return byRevision;
}

/**
 * Revisions with their content, in one statement (in the EntityManager's transaction when it is in
 * one). `stored` holds the hashes of every entry and node of them, for a write that starts from them.
 */
export async function readRevisions(em: EntityManager, ids: readonly string[]): Promise<{ revisions: RevisionContent[]; stored: StoredObjects }> {
  revisionList ??= jsonListOf(em, Revision, 'r');
  const unique = [...new Set(ids)];
  const statement = sql`${walkTrees(unique)}
    select (select ${revisionList} from "revision" r where r."id" = any(${unique})) as "rows",
      ${WALKED_ENTRIES} as "entries",
      coalesce((select json_agg(w."hash") from walk w), '[]') as "nodes"`;
  const [result] = await queryIn<{ rows: unknown[][]; entries: EntryTuple[]; nodes: string[] }>(em, statement);
  const byRevision = entriesByRevision(result.entries);
  const revisions = rowsOf<Plain<RevisionRow>>(em, Revision, result.rows).map((row) => withContent(row, manifestOf(byRevision.get(row.id) ?? [])));
  const stored: StoredObjects = new Set(result.nodes);
  for (const tuple of result.entries) stored.add(tuple[1]);
  return { revisions, stored };
}

/** One revision with its content; throws when it does not exist (for writers, who name revisions they hold). */
export async function readRevision(em: EntityManager, id: string): Promise<{ revision: RevisionContent; stored: StoredObjects }> {
  const { revisions, stored } = await readRevisions(em, [id]);
  if (!revisions[0]) throw new Error(`Revision ${id} is missing`);
  return { revision: revisions[0], stored };
}

export function withContent(row: RevisionRow, manifest: Manifest): RevisionContent {
  return { ...row, pages: manifest.pages, files: manifest.files };
}

const insertObjects = (owner: Owner, entries: string, nodes: string) => sql`with new_entries as (
    insert into "content_entry" ("hash", "organization_id", "space_id", "kind", "item", "version", "parent", "position", "name", "ordinal")
    select e."hash", ${owner.organization}, ${owner.space}, e."kind", e."item", e."version", e."parent", e."position", e."name", e."ordinal"
    from jsonb_to_recordset(${entries}::jsonb) as e("hash" text, "kind" text, "item" text, "version" text, "parent" text, "position" text, "name" text, "ordinal" int)
    order by e."hash"
    on conflict ("hash") do nothing
  )
  insert into "content_node" ("hash", "organization_id", "space_id", "entries", "children")
  select n."hash", ${owner.organization}, ${owner.space}, n."entries", n."children"
  from jsonb_to_recordset(${nodes}::jsonb) as n("hash" text, "entries" text[], "children" text[])
  order by n."hash"
  on conflict ("hash") do nothing`;

/**
 * Stores the tree of a space's manifest, writing only the entries and nodes `stored` lacks (and
 * adding them to it), in the EntityManager's transaction. Rows go in hash order, so that concurrent
 * writers of the same rows wait for each other rather than deadlock. Answers the root hash and the
 * manifest as stored (files with their ordinals).
 */
export async function storeTree(
  em: EntityManager,
  owner: Owner,
  manifest: Manifest,
  stored: StoredObjects,
): Promise<{ tree: string | null; manifest: Manifest }> {
  const tree = treeOf(owner.space, manifest);
  await storeObjects(em, owner, tree, stored);
  return { tree: tree.root, manifest: asStored(manifest, tree) };
}

/** Writes the entries and nodes of a space's trees that `stored` lacks, and adds them to it. */
export async function storeObjects(em: EntityManager, owner: Owner, trees: Pick<Tree, 'entries' | 'nodes'>, stored: StoredObjects): Promise<void> {
  const entries = trees.entries.filter((e) => !stored.has(e.hash));
  const nodes = trees.nodes.filter((n) => !stored.has(n.hash));
  if (!entries.length && !nodes.length) return;
  await queryIn(em, insertObjects(owner, JSON.stringify(entries), JSON.stringify(nodes)));
  for (const object of [...entries, ...nodes]) stored.add(object.hash);
}

/**
 * The tree of a new space's first content, created in the unit of work so that its rows are written
 * with the space's (none can exist yet: hashes cover the space id).
 */
export function createTree(em: EntityManager, owner: Owner, manifest: Manifest): { tree: string | null; manifest: Manifest } {
  const tree = treeOf(owner.space, manifest);
  for (const { hash, ...entry } of tree.entries) em.create(ContentEntry, { hash, ...owner, ...entry });
  for (const node of tree.nodes) em.create(ContentNode, { ...node, ...owner });
  return { tree: tree.root, manifest: asStored(manifest, tree) };
}

export type Owner = { organization: string; space: string };

/** The manifest with the ordinals its files were stored with. */
function asStored(manifest: Manifest, tree: Tree): Manifest {
  const ordinals = tree.entries.filter((e) => e.kind === 'file').map((e) => e.ordinal!);
  return { pages: manifest.pages, files: manifest.files.map((f, i) => ({ file: f.file, version: f.version, ordinal: ordinals[i] })) };
}
