import type { RequestHandler } from 'express';
import onHeaders from 'on-headers';

/**
 * `Cache-Control: no-store` on every answer that does not set its own: no cache, shared or in a
 * browser, keeps any answer of either door. Answers depend on the token, and many carry secrets (API
 * tokens made by mutations, share-link keys, signed download URLs, integration secrets, SAML
 * redirects with a token): one rule for all leaves no operation to forget. Routes that know better set
 * their own (the playground's assets are public, signed downloads private). ETags still work: express
 * tags each GET answer with a strong ETag (a hash of the body, kernel/etags.ts) and answers
 * `If-None-Match` with 304, which serves clients that keep the ETag themselves (scripts polling a site
 * tree) and send it back as `If-Match` on writes; no-store only keeps caches from storing the body
 * (docs/behaviour/conditional-requests.md).
 */
export const noStoreByDefault: RequestHandler = (_req, res, next) => {
  onHeaders(res, () => {
    if (!res.hasHeader('cache-control')) res.setHeader('cache-control', 'no-store');
  });
  next();
};

/**
 * An `If-None-Match` is answered by its ETag alone (RFC 9110 §13.2.1: the origin evaluates the
 * precondition), whatever `Cache-Control` the request carries. Express's freshness check treats a
 * request's `no-cache` as "send the body", and fetch() adds `Cache-Control: no-cache` to every request
 * that carries a conditional header of its own: clients on fetch (the official one included) would
 * never get their 304. The request's Cache-Control means nothing else here (no cache sits in front).
 */
export const preconditionsBeforeCacheControl: RequestHandler = (req, _res, next) => {
  if (req.headers['if-none-match'] !== undefined) delete req.headers['cache-control'];
  next();
};
