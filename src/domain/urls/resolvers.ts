import type { Resolvers } from '../../kernel/resolver-types.js';
import { contentByUrl, type ContentAtUrl } from './content-by-url.js';
import { lookupToken, resolvePublishedUrl, type PublishedLookup } from './published-by-url.js';

export const urlResolvers: Resolvers = {
  Query: {
    contentByUrl: (_, { url }, ctx) => contentByUrl(ctx, url),
    publishedContentByUrl: (_, { url, visitor }, ctx) => resolvePublishedUrl(ctx, url, visitor),
  },
  PublishedContentLookup: {
    apiToken: (lookup, _, ctx) => lookupToken(ctx, lookup),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    ContentByUrl: ContentAtUrl;
    PublishedContentLookup: PublishedLookup;
  }
}
