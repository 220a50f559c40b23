import type { Resolvers } from '../../kernel/resolver-types.js';
import { pageAppUrl } from '../content/index.js';
import { searchOrganization, searchSite, searchSpace, type PageHit, type SectionHit, type SpaceHit } from './service.js';

/** A section of a page hit, with the page (for its path and its space's URL). */
export type SectionResult = { section: SectionHit; page: PageHit };

const sectionPath = ({ section, page }: SectionResult) => (section.anchor ? `${page.path}#${section.anchor}` : page.path);

export const searchResolvers: Resolvers = {
  Query: {
    searchOrganizationContent: (_, args, ctx) => searchOrganization(ctx, args.organizationId, args),
    searchSpaceContent: (_, args, ctx) => searchSpace(ctx, args.spaceId, args),
    searchSiteContent: (_, args, ctx) => searchSite(ctx, args.siteId, args.input, args),
  },
  SearchSpaceResult: {
    type: () => 'space',
    id: (h) => h.space.id,
    title: (h) => h.space.title,
    space: (h) => h.space,
  },
  SearchPageResult: {
    rank: (h) => h.position,
    ancestors: (h) => h.ancestors.map((title) => ({ title })),
    urls: (h, _, ctx) => ({ app: pageAppUrl(ctx.config.appUrl, h.space, h.path, null) }),
    sections: (h) => h.sections.map((section) => ({ section, page: h })),
  },
  SearchSectionResult: {
    id: ({ section }) => (section.anchor ? `${section.page}#${section.anchor}` : section.page),
    title: ({ section }) => section.title,
    path: (result) => sectionPath(result),
    body: ({ section }) => section.body,
    score: ({ section }) => section.rank,
    urls: (result, _, ctx) => ({
      app: pageAppUrl(ctx.config.appUrl, result.page.space, sectionPath(result), null),
    }),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    SearchSpaceResult: SpaceHit;
    SearchPageResult: PageHit;
    SearchSectionResult: SectionResult;
  }
}
