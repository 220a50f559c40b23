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
