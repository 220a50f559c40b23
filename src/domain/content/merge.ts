import { arrange, type FileEntry, type Manifest, type PageEntry, type PagePlacement } from './manifest.js';

/** How a merge treats a page that both sides changed: refuse (409), or keep one side's state. */
export type ConflictChoice = 'refuse' | 'ours' | 'theirs';

export type MergeOutcome = { manifest: Manifest; conflicts: [] } | { manifest: null; conflicts: string[] };

/**
 * Three-way merge of one kind of item by id: an item changed (added, edited, moved or removed) on one
 * side only takes that side's state; changed on both sides to different states, it is a conflict.
 */
function threeWay<T>(base: Map<string, T>, ours: Map<string, T>, theirs: Map<string, T>, same: (a: T | undefined, b: T | undefined) => boolean) {
  const merged = new Map<string, T>();
  const conflicts: string[] = [];
  for (const id of new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])) {
    const [b, o, t] = [base.get(id), ours.get(id), theirs.get(id)];
    const oursChanged = !same(b, o);
    const theirsChanged = !same(b, t);
    let result = b;
    if (oursChanged && theirsChanged && !same(o, t)) conflicts.push(id);
    else if (oursChanged) result = o;
    else if (theirsChanged) result = t;
    if (result !== undefined) merged.set(id, result);
  }
  return { merged, conflicts };
}

const samePage = (a: PagePlacement | undefined, b: PagePlacement | undefined) =>
  a === b || (!!a && !!b && a.version === b.version && a.parent === b.parent && a.position === b.position);
const sameFile = (a: FileEntry | undefined, b: FileEntry | undefined) => a === b || (!!a && !!b && a.version === b.version);

const byPage = (pages: PageEntry[]) => new Map(pages.map((p) => [p.page, p]));
const byFile = (files: FileEntry[]) => new Map(files.map((f) => [f.file, f]));

/** Pages whose parent is missing or that sit in a cycle (two sides moved pages under each other). */
function misplaced(pages: Map<string, PagePlacement>): string[] {
  const bad: string[] = [];
  for (const page of pages.values()) {
    const seen = new Set([page.page]);
    for (let parent = page.parent; parent !== null; parent = pages.get(parent)!.parent) {
      if (!pages.has(parent) || seen.has(parent)) {
        bad.push(page.page);
        break;
      }
      seen.add(parent);
    }
  }
  return bad;
}

/**
 * Merges `ours` (a change request's content) and `theirs` (the space's main content), both descended
 * from `base`, page by page and file by file. Pages changed on both sides are conflicts unless
 * `choice` keeps one side for them; a result whose tree would lose a parent is a conflict too.
 */
export function mergeManifests(base: Manifest, ours: Manifest, theirs: Manifest, choice: ConflictChoice = 'refuse'): MergeOutcome {
  const pages = threeWay(byPage(base.pages), byPage(ours.pages), byPage(theirs.pages), samePage);
  const files = threeWay(byFile(base.files), byFile(ours.files), byFile(theirs.files), sameFile);
  if (choice !== 'refuse') {
    const side = choice === 'ours' ? byPage(ours.pages) : byPage(theirs.pages);
    for (const id of pages.conflicts) {
      const kept = side.get(id);
      if (kept) pages.merged.set(id, kept);
      else pages.merged.delete(id);
    }
    pages.conflicts = [];
  }
  const conflicts = [...pages.conflicts, ...misplaced(pages.merged)];
  if (conflicts.length) return { manifest: null, conflicts: [...new Set(conflicts)] };
  // Files cannot truly conflict (a file version never changes); a file removed on one side stays removed.
  return { manifest: { pages: arrange([...pages.merged.values()]), files: [...files.merged.values()] }, conflicts: [] };
}
