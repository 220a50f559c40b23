import { posix } from 'node:path';
import { z } from 'zod';
import type { Context } from '../../kernel/context.js';
import { paginateRows, type PageArgs } from '../../kernel/pagination.js';
import { oneOf, parseInput } from '../../kernel/validation.js';
import type { SpaceRow } from '../spaces/index.js';
import { linkTargets } from './markdown.js';
import { pageIn, spaceContent } from './service.js';
import { DEFAULT_READ, fileViews, gitPathOf, pageTree, type FileView, type PageView, type RevisionView } from './views.js';

/*
 * Link checks: every link and image target in page bodies, classified as
 * - `in-app`: a page or file of the same content (relative path, `.gitbook/assets/<name>`), or a space
 *   or page of this platform by its app or published URL, that exists and the viewer can read;
 * - `broken`: one of those that does not exist (or that the viewer cannot read: no existence leaks),
 *   or a target that is no well-formed http(s)/mailto/tel URL;
 * - `ok`: a well-formed external URL.
 */

export type LinkStatus = 'ok' | 'broken' | 'in-app';
/** What a link points at, in the reference's ContentLocation kinds. */
export type LinkTarget =
  | { kind: 'page'; view: RevisionView; page: PageView }
  | { kind: 'file'; view: RevisionView; file: FileView }
  | { kind: 'space'; view: RevisionView }
  | { kind: 'url'; url: string };
export type LinkUsage = { key: string; status: LinkStatus; target: LinkTarget; locations: PageView[] };
type Classified = { key: string; status: LinkStatus; target: LinkTarget };

const EXTERNAL_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);

function decoded(target: string): string {
  try {
    return decodeURI(target);
  } catch {
    return target;
  }
}

const broken = (url: string): Classified => ({ key: `broken|${url}`, status: 'broken', target: { kind: 'url', url } });

/** A space by id when it is live and the viewer can read it. */
async function readableSpace(ctx: Context, spaceId: string): Promise<SpaceRow | null> {
  const space = await ctx.loaders.space.load(spaceId);
  if (!space || space.deletedAt) return null;
  return (await ctx.policy.spaceRole(space)) ? space : null;
}

/** A space (and page path) of this platform named by an app URL (`/o/<org>/s/<space>/<path>`) or a published one (`/s/<space>/<path>`). */
function platformAddress(ctx: Context, url: URL): { spaceId: string; path: string } | null {
  for (const base of [ctx.config.appUrl, ctx.config.publicUrl]) {
    const origin = new URL(base);
    if (url.origin !== origin.origin || !url.pathname.startsWith(origin.pathname.replace(/\/$/, '') + '/')) continue;
    const rest = url.pathname.slice(origin.pathname.replace(/\/$/, '').length);
    const match = /^(?:\/o\/[^/]+)?\/s\/([^/]+)\/?(.*)$/.exec(rest);
    if (match) return { spaceId: decoded(match[1]), path: decoded(match[2]).replace(/\/+$/, '') };
  }
  return null;
}

async function classifyPlatformLink(ctx: Context, target: string, address: { spaceId: string; path: string }): Promise<Classified> {
  const space = await readableSpace(ctx, address.spaceId);
  if (!space) return broken(target);
  const view = await spaceContent(ctx, space, DEFAULT_READ);
  // Change-request and revision addresses (`~/…`) name the space as a whole.
  if (!address.path || address.path.startsWith('~')) return { key: `space|${space.id}`, status: 'in-app', target: { kind: 'space', view } };
  const page = (await pageTree(ctx, view)).byPath.get(address.path);
  return page ? { key: `page|${space.id}|${page.entry.page}`, status: 'in-app', target: { kind: 'page', view, page } } : broken(target);
}

/** A relative target: a file by its git path, or a page by its git path or page path (relative to the page, else from the top). */
async function classifyRelativeLink(ctx: Context, from: PageView, target: string): Promise<Classified> {
  const view = from.view;
  const path = decoded(target).split(/[?#]/)[0].replace(/^<|>$/g, '');
  if (!path) return { key: `page|${view.space.id}|${from.entry.page}`, status: 'in-app', target: { kind: 'page', view, page: from } };
  const fromDir = posix.dirname(gitPathOf(from));
  const candidates = path.startsWith('/') ? [posix.normalize(path).slice(1)] : [posix.normalize(posix.join(fromDir, path)), posix.normalize(path)];
  const files = await fileViews(ctx, view);
  const tree = await pageTree(ctx, view);
  for (const candidate of candidates) {
    const file = files.find((f) => `.gitbook/assets/${f.file.name}` === candidate);
    if (file) return { key: `file|${file.entry.file}`, status: 'in-app', target: { kind: 'file', view, file } };
    const pagePath = candidate
      .replace(/(^|\/)README\.md$/i, '')
      .replace(/\.md$/i, '')
      .replace(/\/+$/, '');
    const page = tree.byPath.get(pagePath);
    if (page) return { key: `page|${view.space.id}|${page.entry.page}`, status: 'in-app', target: { kind: 'page', view, page } };
  }
  return broken(target);
}

/** Classifies one link target found on a page. */
export async function classifyLink(ctx: Context, from: PageView, target: string): Promise<Classified> {
  const trimmed = target.trim();
  if (!/^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !trimmed.startsWith('//')) return classifyRelativeLink(ctx, from, trimmed);
  let url: URL;
  try {
    url = new URL(trimmed.startsWith('//') ? `https:${trimmed}` : trimmed);
  } catch {
    return broken(target);
  }
  if (!EXTERNAL_SCHEMES.has(url.protocol) || ((url.protocol === 'http:' || url.protocol === 'https:') && !url.hostname)) return broken(target);
  const address = platformAddress(ctx, url);
  if (address) return classifyPlatformLink(ctx, target, address);
  return { key: `ok|${url.href}`, status: 'ok', target: { kind: 'url', url: url.href } };
}

/** The links of some pages, one usage per target with the pages where it appears, in order of first appearance. */
export async function linksOf(ctx: Context, pages: PageView[]): Promise<LinkUsage[]> {
  const usages = new Map<string, LinkUsage>();
  for (const page of pages) {
    const targets = [...new Set(linkTargets(page.version.markdown))];
    const classified = await Promise.all(targets.map((target) => classifyLink(ctx, page, target)));
    for (const link of classified) {
      const usage = usages.get(link.key);
      if (!usage) usages.set(link.key, { ...link, locations: [page] });
      else if (!usage.locations.includes(page)) usage.locations.push(page);
    }
  }
  return [...usages.values()];
}

const LinkFilters = z.object({ status: oneOf(['ok', 'broken', 'in-app']).nullish() });

function listOf(usages: LinkUsage[], args: PageArgs, brokenInChangeRequest: number | null, status?: LinkStatus | null) {
  const indexed = usages.map((usage, index) => ({ usage, index }));
  const shown = status ? indexed.filter(({ usage }) => usage.status === status) : indexed;
  const page = paginateRows(shown, ({ index }) => [index], args);
  const brokenTotal = usages.filter((u) => u.status === 'broken').length;
  return {
    ...page,
    items: page.items.map(({ usage }) => usage),
    stats: { total: usages.length, broken: { total: brokenTotal, changeRequest: brokenInChangeRequest } },
  };
}

/** The links of a space's main content, filtered by `status`; stats count them all. */
export async function spaceLinks(ctx: Context, space: SpaceRow, args: PageArgs & { status?: unknown }) {
  const { status } = parseInput(LinkFilters, { status: args.status });
  const view = await spaceContent(ctx, space, DEFAULT_READ);
  return listOf(await linksOf(ctx, (await pageTree(ctx, view)).all), args, null, status);
}

/**
 * The links of a page of a change request. `broken.changeRequest` counts the broken ones that the
 * change request brought: broken here but not on the same page of the main content.
 */
export async function changeRequestPageLinks(ctx: Context, view: RevisionView, pageId: string, args: PageArgs) {
  const page = await pageIn(ctx, view, pageId);
  const usages = await linksOf(ctx, [page]);
  const main = await spaceContent(ctx, view.space, DEFAULT_READ);
  const mainPage = (await pageTree(ctx, main)).byId.get(pageId);
  const brokenInMain = new Set(mainPage ? (await linksOf(ctx, [mainPage])).filter((u) => u.status === 'broken').map((u) => u.key) : []);
  const brokenHere = usages.filter((u) => u.status === 'broken' && !brokenInMain.has(u.key)).length;
  return listOf(usages, args, brokenHere);
}
