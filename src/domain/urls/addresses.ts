import type { Config } from '../../kernel/config.js';
import { badRequest } from '../../kernel/errors.js';

/** The longest URL taken (0.202.0's `URL`: at most 2048 characters). */
export const URL_MAX = 2048;

/** An absolute http(s) URL, else a 400 naming `field`. */
export function parseUrl(raw: string, field = 'url'): URL {
  if (raw.length > URL_MAX) throw badRequest(`${field}: must be at most ${URL_MAX} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest(`${field}: must be an absolute URL, such as https://docs.example.com/guide`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) throw badRequest(`${field}: must be an http or https URL`);
  return url;
}

/** The path segments of `url` below `base` (an address of this server, with or without a path), decoded; null when `url` is not below it. */
export function segmentsBelow(url: URL, base: string): string[] | null {
  const origin = new URL(base);
  if (url.origin !== origin.origin) return null;
  const prefix = origin.pathname.replace(/\/+$/, '');
  if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return null;
  const segments = url.pathname.slice(prefix.length).split('/').filter(Boolean);
  try {
    return segments.map((segment) => decodeURIComponent(segment));
  } catch {
    return null; // a broken escape names nothing here
  }
}

/** What an app address names, before anything is read: a collection, or a space with what in it. */
export type AppAddress =
  { kind: 'collection'; collectionId: string } | { kind: 'space'; spaceId: string; changeRequest: string | null; pagePath: string[]; revision?: string };

/**
 * The content an address that this server hands out names, when it is one of them:
 * - the app's (`APP_URL`): a collection `/o/<org>/c/<id>`, a space `/o/<org>/s/<id>`, a page of its
 *   main content `/o/<org>/s/<id>/<page path>`, a change request `/o/<org>/s/<id>/~/changes/<number>`
 *   and a page of it `…/~/changes/<number>/<page path>`, a revision `/o/<org>/s/<id>/revisions/<id>`
 *   (its space: a revision is no content of its own in the answer; a page at that path when the space
 *   has no such revision);
 * - a space's published address (`PUBLIC_URL/s/<id>/<page path>`, the space's `urls.published`).
 * The organization segment is not checked: a space keeps its id when it moves to another organization.
 */
export function appAddress(url: URL, config: Config): AppAddress | null {
  const app = segmentsBelow(url, config.appUrl);
  if (app && app[0] === 'o' && app.length >= 4) {
    const [, , kind, id, ...rest] = app;
    if (kind === 'c' && rest.length === 0) return { kind: 'collection', collectionId: id };
    if (kind === 's') {
      if (rest[0] === '~' && rest[1] === 'changes' && rest.length >= 3) return { kind: 'space', spaceId: id, changeRequest: rest[2], pagePath: rest.slice(3) };
      // A revision's address, unless the space has no such revision: then the path of a page (slugs may be "revisions").
      if (rest[0] === 'revisions' && rest.length === 2) return { kind: 'space', spaceId: id, changeRequest: null, pagePath: rest, revision: rest[1] };
      return { kind: 'space', spaceId: id, changeRequest: null, pagePath: rest };
    }
  }
  const published = segmentsBelow(url, config.publicUrl);
  if (published && published[0] === 's' && published.length >= 2) {
    return { kind: 'space', spaceId: published[1], changeRequest: null, pagePath: published.slice(2) };
  }
  return null;
}
