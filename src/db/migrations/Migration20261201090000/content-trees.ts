/*
 * FROZEN: a copy of the content tree code (src/domain/content/manifest.ts, tree.ts, store.ts,
 * src/kernel/ordering.ts and src/db/statements.ts) as it was when Migration20261201090000 was
 * written, reduced to what that migration uses. The migration must convert the same way on every
 * database, whatever the live code later becomes, so this file is never changed and never imported
 * by live code (nor by any other migration). It imports no module of src/ outside src/db/migrations/.
 */
import { hash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery } from 'kysely';

// ─── statements (src/db/statements.ts: queryIn) ──────────────────────────────────────────────────────

/**
 * Runs a statement with `$n` parameters in the EntityManager's transaction (the migration's), else
 * on the ORM's connection outside any transaction. (The live queryIn also tells the statement
 * observers, which only tests use; a migration's conversion need not.)
 */
export async function queryIn<T>(em: EntityManager, sql: string, parameters: readonly unknown[] = []): Promise<T[]> {
  type Executor = { executeQuery(query: CompiledQuery): Promise<{ rows: unknown[] }> };
  const executor: Executor = em.getTransactionContext<Executor>() ?? em.getConnection().getClient();
  const result = await executor.executeQuery(CompiledQuery.raw(sql, [...parameters]));
  return result.rows as T[];
}

// ─── ordering (src/kernel/ordering.ts: byPosition) ───────────────────────────────────────────────────

/** An item with a fractional ordering key among its siblings. */
type Ordered = { id: string; position: string };

/** The order siblings are shown in: by position, then by id (which only matters for equal positions). */
function byPosition(a: Ordered, b: Ordered): number {
  return a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

// ─── manifests (src/domain/content/manifest.ts) ──────────────────────────────────────────────────────

/**
 * A revision's manifest: which version of each page and file it holds, and where each page sits.
 * Only `page`, `version`, `parent`, `position` and `name` are state (what the tree stores);
 * `slug` and `path` are derived by `arrange`.
 */
export type PageEntry = {
  /** The page id. */
  page: string;
  /** Key of the PageVersion row with the page's fields and body. */
  version: string;
  /** Parent page id; null at the top level. */
  parent: string | null;
  /** Fractional ordering key among its siblings. */
  position: string;
  /** The slug its title asks for; `slug` is this, made unique among siblings. */
  name: string;
  slug: string;
  /** Slugs from the top level down, joined by "/". */
  path: string;
};
/** A file of a revision; `ordinal` (as stored) orders the files, which list in the order they were added. */
export type FileEntry = { file: string; version: string; ordinal?: number };
export type Manifest = { pages: PageEntry[]; files: FileEntry[] };
type PagePlacement = Pick<PageEntry, 'page' | 'version' | 'parent' | 'position' | 'name'>;

/**
 * Puts pages in tree order (depth first, siblings by position then id) and derives each page's slug
 * (its name, with "-2", "-3"… after the first sibling asking for it) and path.
 */
export function arrange(pages: readonly PagePlacement[]): PageEntry[] {
  const children = new Map<string | null, PagePlacement[]>();
  for (const page of pages) {
    const siblings = children.get(page.parent) ?? [];
    siblings.push(page);
    children.set(page.parent, siblings);
  }
  const out: PageEntry[] = [];
  const visit = (parent: string | null, prefix: string) => {
    const siblings = (children.get(parent) ?? []).sort((a, b) => byPosition({ id: a.page, position: a.position }, { id: b.page, position: b.position }));
    const taken = new Set<string>();
    for (const page of siblings) {
      let slug = page.name;
      for (let n = 2; taken.has(slug); n++) slug = `${page.name}-${n}`;
      taken.add(slug);
      const path = prefix ? `${prefix}/${slug}` : slug;
      out.push({ page: page.page, version: page.version, parent: page.parent, position: page.position, name: page.name, slug, path });
      visit(page.page, path);
    }
  };
  visit(null, '');
  return out;
}

// ─── trees (src/domain/content/tree.ts) ──────────────────────────────────────────────────────────────

/*
 * A revision's manifest as a content-addressed tree, as git stores trees. Each entry (a page's place
 * and version, a file's version) is stored once under the hash of its content; a revision names the
 * root node of a hash trie over its entries, keyed by page or file id. The trie's shape depends only
 * on the set of entries: a node holding at most LEAF_SIZE entries is a leaf listing their hashes,
 * a larger one is a branch of FANOUT children, split by one more hex digit of each key's hash.
 * Hashes cover the space id, so no row is ever shared between spaces (each space owns its rows).
 */

/** Entries a leaf may hold before it splits into a branch. */
const LEAF_SIZE = 16;
/** Children of a branch: one per hex digit. */
const FANOUT = 16;

export type TreeEntry = {
  hash: string;
  kind: 'page' | 'file';
  /** The page or file id. */
  item: string;
  /** Key of the PageVersion or ContentFile row. */
  version: string;
  /** Pages: parent page id (null at the top level), fractional position and the slug the title asks for. */
  parent: string | null;
  position: string | null;
  name: string | null;
  /** Files: their order in the revision (files list in the order they were added). */
  ordinal: number | null;
};

/** A leaf lists entry hashes (by key); a branch lists FANOUT child hashes, '' where empty. */
export type TreeNode = { hash: string; entries: string[] | null; children: string[] | null };

type Tree = { root: string | null; entries: TreeEntry[]; nodes: TreeNode[] };

/** Content hashes: SHA-256 of the space id and the content, 128 bits in hex. */
function digest(space: string, content: string): string {
  return hash('sha256', `${space}\n${content}`).slice(0, 32);
}

function entryHash(space: string, entry: Omit<TreeEntry, 'hash'>): string {
  return digest(space, JSON.stringify([entry.kind, entry.item, entry.version, entry.parent, entry.position, entry.name, entry.ordinal]));
}

type Keyed = { key: string; slots: string; entry: string };

function buildNode(space: string, items: Keyed[], depth: number, nodes: TreeNode[]): string {
  if (items.length <= LEAF_SIZE || depth >= items[0]!.slots.length) {
    const entries = items.map((i) => i.entry);
    const node = { hash: digest(space, `leaf ${entries.join(' ')}`), entries, children: null };
    nodes.push(node);
    return node.hash;
  }
  const buckets: Keyed[][] = Array.from({ length: FANOUT }, () => []);
  for (const item of items) buckets[parseInt(item.slots[depth]!, 16)]!.push(item);
  const children = buckets.map((bucket) => (bucket.length ? buildNode(space, bucket, depth + 1, nodes) : ''));
  const node = { hash: digest(space, `branch ${children.map((c) => c || '-').join(' ')}`), entries: null, children };
  nodes.push(node);
  return node.hash;
}

/**
 * The tree of a manifest: every entry and node, and the root (null for empty content). Files get
 * ordinals that follow their order in the manifest, keeping the ordinal they had wherever it still
 * fits, so that an untouched file keeps its entry.
 */
export function treeOf(space: string, manifest: { pages: readonly PagePlacement[]; files: readonly FileEntry[] }): Tree {
  const entries: TreeEntry[] = [];
  const add = (entry: Omit<TreeEntry, 'hash'>) => entries.push({ ...entry, hash: entryHash(space, entry) });
  for (const p of manifest.pages) add({ kind: 'page', item: p.page, version: p.version, parent: p.parent, position: p.position, name: p.name, ordinal: null });
  let previous = -1;
  for (const f of manifest.files) {
    previous = f.ordinal !== undefined && f.ordinal > previous ? f.ordinal : previous + 1;
    add({ kind: 'file', item: f.file, version: f.version, parent: null, position: null, name: null, ordinal: previous });
  }
  if (entries.length === 0) return { root: null, entries, nodes: [] };
  const keyed = entries
    .map((e) => {
      const key = `${e.kind}:${e.item}`;
      return { key, slots: hash('sha1', key), entry: e.hash };
    })
    .sort((a, b) => (a.key < b.key ? -1 : 1));
  const nodes: TreeNode[] = [];
  const root = buildNode(space, keyed, 0, nodes);
  return { root, entries, nodes };
}

/** The manifest a tree's entries make: pages in tree order with their slugs and paths, files in order. */
export function manifestOf(entries: readonly TreeEntry[]): Manifest {
  const pages: PagePlacement[] = [];
  const files: FileEntry[] = [];
  for (const e of entries) {
    if (e.kind === 'page') pages.push({ page: e.item, version: e.version, parent: e.parent, position: e.position!, name: e.name! });
    else files.push({ file: e.item, version: e.version, ordinal: e.ordinal! });
  }
  return { pages: arrange(pages), files: files.sort((a, b) => a.ordinal! - b.ordinal!) };
}

// ─── storing and walking trees (src/domain/content/store.ts) ─────────────────────────────────────────

/** Hashes of the entries and nodes known to be stored. */
type StoredObjects = Set<string>;

export type Owner = { organization: string; space: string };

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

/** Every node of the trees of the revisions `$1` names, with the revision it was reached from. */
export const WALK_TREES = `with recursive walk as (
    select r."id" as "revision", n."hash", n."entries", n."children"
    from "revision" r join "content_node" n on n."hash" = r."tree"
    where r."id" = any($1)
  union all
    select w."revision", n."hash", n."entries", n."children"
    from walk w cross join lateral unnest(w."children") as c("hash") join "content_node" n on n."hash" = c."hash"
)`;

/** The tree entries of the walked revisions, as [revision, hash, kind, item, version, parent, position, name, ordinal] tuples. */
export const WALKED_ENTRIES = `coalesce((select json_agg(json_build_array(w."revision", e."hash", e."kind", e."item", e."version", e."parent", e."position", e."name", e."ordinal"))
    from walk w cross join lateral unnest(w."entries") as k("hash") join "content_entry" e on e."hash" = k."hash"), '[]')`;

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

const INSERT_OBJECTS = `with new_entries as (
    insert into "content_entry" ("hash", "organization_id", "space_id", "kind", "item", "version", "parent", "position", "name", "ordinal")
    select e."hash", $1, $2, e."kind", e."item", e."version", e."parent", e."position", e."name", e."ordinal"
    from jsonb_to_recordset($3::jsonb) as e("hash" text, "kind" text, "item" text, "version" text, "parent" text, "position" text, "name" text, "ordinal" int)
    order by e."hash"
    on conflict ("hash") do nothing
  )
  insert into "content_node" ("hash", "organization_id", "space_id", "entries", "children")
  select n."hash", $1, $2, n."entries", n."children"
  from jsonb_to_recordset($4::jsonb) as n("hash" text, "entries" text[], "children" text[])
  order by n."hash"
  on conflict ("hash") do nothing`;

/**
 * Writes the entries and nodes of a space's trees that `stored` lacks, and adds them to it, in the
 * EntityManager's transaction. Rows go in hash order, so that concurrent writers of the same rows
 * wait for each other rather than deadlock.
 */
export async function storeObjects(em: EntityManager, owner: Owner, trees: Pick<Tree, 'entries' | 'nodes'>, stored: StoredObjects): Promise<void> {
  const entries = trees.entries.filter((e) => !stored.has(e.hash));
  const nodes = trees.nodes.filter((n) => !stored.has(n.hash));
  if (!entries.length && !nodes.length) return;
  await queryIn(em, INSERT_OBJECTS, [owner.organization, owner.space, JSON.stringify(entries), JSON.stringify(nodes)]);
  for (const object of [...entries, ...nodes]) stored.add(object.hash);
}
