import type { Context } from '../../kernel/context.js';
import { pageIn } from './service.js';
import { pageTree, type RevisionView } from './views.js';

/*
 * A page's navigation meta-links, as 0.202.0's operation summaries describe them: the previous and
 * next page in reading order (the tree depth first, as a published site paginates it) and the parent.
 * Hidden pages, and pages under a hidden page, are not in the navigation: reading order skips them
 * (the page asked about may be hidden itself; its neighbours are still the visible ones around it).
 * Each link is 0.202.0's ContentRefPage (`{kind: "page", page}`); a missing one is left out.
 */

export type ContentPageRef = { kind: 'page'; page: string };
export type PageMetaLinks = { previous: ContentPageRef | null; next: ContentPageRef | null; parent: ContentPageRef | null };

const refTo = (page: string | null | undefined): ContentPageRef | null => (page ? { kind: 'page', page } : null);

/** The page's previous, next and parent pages in the view's content (a 404 for a page it does not hold). */
export async function pageMetaLinks(ctx: Context, view: RevisionView, pageId: string): Promise<PageMetaLinks> {
  const page = await pageIn(ctx, view, pageId);
  const tree = await pageTree(ctx, view);
  const hidden = new Set<string>();
  // `all` is in tree order: a parent comes before its children.
  for (const p of tree.all) if (p.version.hidden || (p.entry.parent && hidden.has(p.entry.parent))) hidden.add(p.entry.page);
  const index = tree.all.indexOf(page);
  const visible = (p: (typeof tree.all)[number]) => !hidden.has(p.entry.page);
  return {
    previous: refTo(tree.all.slice(0, index).findLast(visible)?.entry.page),
    next: refTo(tree.all.slice(index + 1).find(visible)?.entry.page),
    parent: refTo(page.entry.parent),
  };
}
