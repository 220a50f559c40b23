import type { Context } from '../../kernel/context.js';
import { badRequest } from '../../kernel/errors.js';
import { parseInput } from '../../kernel/validation.js';
import { changeRequestIn } from '../change-requests/index.js';
import { createPage, editChangeRequest } from './editing.js';
import { FetchFailure, fetchDocument, webUrl } from '../../net/fetch-document.js';
import { ImportContentInput } from './inputs.js';

/*
 * Website import: fetches a page and the same-site pages it links to (breadth first, within the
 * configured count, depth, size and time), turns each page's main content into markdown and adds the
 * pages to a change request in one edit. The start page goes to the top level, every other page under
 * the page that first linked to it. Fetching happens before the edit's transaction opens.
 */

const MAX_TITLE = 100;
const MAX_MARKDOWN = 1_000_000;

type ImportedPage = { url: string; parent: string | null; title: string; markdown: string };

type HtmlTools = { load: typeof import('cheerio').load; turndown: import('turndown') };
let htmlTools: Promise<HtmlTools> | undefined;

/** The HTML parser and converter, loaded with the first import: ~40 MB a server that imports no website need not hold. */
function loadHtmlTools(): Promise<HtmlTools> {
  htmlTools ??= Promise.all([import('cheerio'), import('turndown')]).then(([cheerio, { default: TurndownService }]) => ({
    load: cheerio.load,
    turndown: new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' }),
  }));
  return htmlTools;
}

/** A page's title, markdown body and same-site links (without fragments). */
function convert({ load, turndown }: HtmlTools, url: string, html: string): { title: string; markdown: string; links: string[] } {
  const $ = load(html);
  const title = ($('title').first().text().trim() || $('h1').first().text().trim() || new URL(url).pathname).replace(/\s+/g, ' ').slice(0, MAX_TITLE);
  const origin = new URL(url).origin;
  const links = new Set<string>();
  $('a[href]').each((_, a) => {
    try {
      const target = new URL($(a).attr('href')!, url);
      target.hash = '';
      if (target.origin === origin) links.add(target.href);
    } catch {
      // not a URL: not followed
    }
  });
  $('script, style, noscript, template, iframe, form, nav, header, footer, aside').remove();
  const main = $('main').first().length
    ? $('main').first()
    : $('article').first().length
      ? $('article').first()
      : $('[role=main]').first().length
        ? $('[role=main]').first()
        : $('body');
  // The title becomes the page title: drop a first heading that repeats it.
  const heading = main.find('h1').first();
  if (heading.length && heading.text().trim() === title) heading.remove();
  const markdown = turndown.turndown(main.html() ?? '').trim();
  return { title: title || 'Imported page', markdown, links: [...links] };
}

const isHtml = (contentType: string) => /^(text\/html|application\/xhtml\+xml)\b/i.test(contentType) || contentType === '';

/** Crawls the site from `start`; the first page must come, later ones are skipped when they fail. */
async function crawl(start: string, config: Context['config']): Promise<{ pages: ImportedPage[]; total: number }> {
  const settings = config.websiteImport;
  const deadline = Date.now() + settings.timeoutMs;
  const seen = new Set([new URL(start).href.replace(/#.*$/, '')]);
  const queue: { url: string; parent: string | null; depth: number }[] = [{ url: [...seen][0], parent: null, depth: 0 }];
  const pages: ImportedPage[] = [];
  while (queue.length && pages.length < settings.maxPages && Date.now() < deadline) {
    const next = queue.shift()!;
    let page: ReturnType<typeof convert>;
    try {
      // Each page may take what is left of the import's time; the same address rules as every fetch.
      const limits = { timeoutMs: deadline - Date.now(), maxBytes: settings.maxBytes, allowPrivate: config.fetch.allowPrivate };
      const fetched = await fetchDocument(next.url, limits, 'text/html,application/xhtml+xml');
      if (!isHtml(fetched.contentType)) throw new FetchFailure('refused', `${next.url} is ${fetched.contentType}, not HTML`);
      page = convert(await loadHtmlTools(), fetched.url, fetched.body);
      if (page.markdown.length > MAX_MARKDOWN) throw new FetchFailure('too-large', `${next.url} converts to more than ${MAX_MARKDOWN} characters`);
    } catch (error) {
      if (next.parent === null && error instanceof FetchFailure) throw badRequest(`url: ${error.message}`);
      if (error instanceof FetchFailure) continue;
      throw error;
    }
    pages.push({ url: next.url, parent: next.parent, title: page.title, markdown: page.markdown });
    if (next.depth >= settings.maxDepth) continue;
    for (const link of page.links) {
      if (seen.has(link)) continue;
      seen.add(link);
      queue.push({ url: link, parent: next.url, depth: next.depth + 1 });
    }
  }
  return { pages, total: seen.size };
}

/** Imports a website into a change request as new pages; answers the new revision and the counts. */
export async function importWebsite(ctx: Context, spaceId: string, changeRequestId: string, input: unknown) {
  const { url } = parseInput(ImportContentInput, input);
  try {
    webUrl(url);
  } catch (error) {
    throw badRequest(`url: ${(error as Error).message}`);
  }
  await changeRequestIn(ctx, spaceId, changeRequestId); // 404 before fetching anything
  const { pages, total } = await crawl(url, ctx.config);
  const { view } = await editChangeRequest(ctx, spaceId, changeRequestId, (draft) => {
    const ids = new Map<string, string>();
    for (const page of pages) {
      const parent = page.parent ? (ids.get(page.parent) ?? null) : null;
      ids.set(page.url, createPage(draft, { title: page.title, markdown: page.markdown, parent }));
    }
  });
  return { revision: view.revision.id, importedResources: pages.length, totalResources: total };
}
