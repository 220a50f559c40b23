import slugify from '@sindresorhus/slugify';
import { badRequest } from '../../kernel/errors.js';
import { byPosition, placeAmong } from '../../kernel/ordering.js';

/**
 * A revision's manifest: which version of each page and file it holds, and where each page sits.
 * Only `page`, `version`, `parent`, `position` and `name` are state (what the tree stores, see
 * tree.ts); `slug` and `path` are derived by `arrange` when a revision is read.
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
export type PagePlacement = Pick<PageEntry, 'page' | 'version' | 'parent' | 'position' | 'name'>;

/** The slug a title asks for: lower-case ASCII words joined by dashes ("page" when nothing is left). */
export function slugOf(title: string): string {
  return slugify(title) || 'page';
}

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

/** The page ids of a page and all its descendants. */
export function subtree(pages: readonly PagePlacement[], pageId: string): Set<string> {
  const ids = new Set([pageId]);
  // Manifests are in tree order, so one pass sees every parent before its children.
  for (const page of pages) if (page.parent && ids.has(page.parent)) ids.add(page.page);
  return ids;
}

/** Where a page goes: a parent (null: top level) and a place among its siblings. */
export type Placement = { parent: string | null; before?: string | null; after?: string | null };

/** The ordering key for a page (new or moved) placed among `parent`'s other children. */
export function positionFor(pages: readonly PagePlacement[], pageId: string, place: Placement): string {
  if (place.parent && !pages.some((p) => p.page === place.parent)) throw badRequest(`parent: no page "${place.parent}" in this revision`);
  const siblings = pages
    .filter((p) => p.parent === place.parent && p.page !== pageId)
    .map((p) => ({ id: p.page, position: p.position }))
    .sort(byPosition);
  return placeAmong(siblings, place);
}

/** Pages nest at most this many levels deep (the REST documents select the tree to this depth). */
export const MAX_PAGE_DEPTH = 8;

/** The level of a page (1 at the top level). */
function levelOf(pages: readonly PagePlacement[], pageId: string): number {
  let level = 1;
  for (let page = pages.find((p) => p.page === pageId); page?.parent; page = pages.find((p) => p.page === page.parent)) level++;
  return level;
}

/** Refuses a placement that would put `pageId` (with `height` levels of descendants below it included) deeper than allowed. */
export function assertDepth(pages: readonly PagePlacement[], parent: string | null, height = 1): void {
  const level = (parent ? levelOf(pages, parent) + 1 : 1) + height - 1;
  if (level > MAX_PAGE_DEPTH) throw badRequest(`parent: pages nest at most ${MAX_PAGE_DEPTH} levels deep`);
}

/** How many levels a page and its descendants span (1 for a page without children). */
export function heightOf(pages: readonly PagePlacement[], pageId: string): number {
  const ids = subtree(arrange(pages), pageId);
  return Math.max(...[...ids].map((id) => levelOf(pages, id))) - levelOf(pages, pageId) + 1;
}
