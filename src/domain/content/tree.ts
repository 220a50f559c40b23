import { hash } from 'node:crypto';
import { arrange, type FileEntry, type Manifest, type PagePlacement } from './manifest.js';

/*
 * A revision's manifest as a content-addressed tree, as git stores trees. Each entry (a page's place
 * and version, a file's version) is stored once under the hash of its content; a revision names the
 * root node of a hash trie over its entries, keyed by page or file id. The trie's shape depends only
 * on the set of entries: a node holding at most LEAF_SIZE entries is a leaf listing their hashes,
 * a larger one is a branch of FANOUT children, split by one more hex digit of each key's hash. An
 * edit that changes one entry writes that entry, its leaf and the branches above it (a handful of
 * rows, about log16 of the size of the space); every other node and entry is the previous revision's.
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

export type Tree = { root: string | null; entries: TreeEntry[]; nodes: TreeNode[] };

/** Content hashes: SHA-256 of the space id and the content, 128 bits in hex. */
function digest(space: string, content: string): string {
  return hash('sha256', `${space}\n${content}`).slice(0, 32);
}

function entryHash(space: string, entry: Omit<TreeEntry, 'hash'>): string {
  return digest(space, JSON.stringify([entry.kind, entry.item, entry.version, entry.parent, entry.position, entry.name, entry.ordinal]));
}

type Keyed = { key: string; slots: string; entry: string };

function buildNode(space: string, items: Keyed[], depth: number, nodes: TreeNode[]): string {
  if (items.length <= LEAF_SIZE || depth >= items[0].slots.length) {
    const entries = items.map((i) => i.entry);
    const node = { hash: digest(space, `leaf ${entries.join(' ')}`), entries, children: null };
    nodes.push(node);
    return node.hash;
  }
  const buckets: Keyed[][] = Array.from({ length: FANOUT }, () => []);
  for (const item of items) buckets[parseInt(item.slots[depth], 16)].push(item);
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
