import type { Resolvers } from '../../kernel/resolver-types.js';
import { pageAppUrl } from '../content/index.js';
import { searchOrganization, type PageHit, type SectionHit, type SpaceHit } from './service.js';

/** A section of a page hit, with the page's space (for its URL). */
export type SectionResult = { section: SectionHit; space: PageHit['space'] };

const sectionPath = (s: SectionHit) => (s.anchor ? `${s.pagePath}#${s.anchor}` : s.pagePath);

export const searchResolvers: Resolvers = {
  Query: {
    searchOrganizationContent: (_, args, ctx) => searchOrganization(ctx, args.organizationId, args),
  },
  SearchSpaceResult: {
    id: (h) => h.space.id,
    title: (h) => h.space.title,
    space: (h) => h.space,
  },
  SearchPageResult: {
    urls: (h, _, ctx) => ({ app: pageAppUrl(ctx.config.appUrl, h.space, h.path, null) }),
    sections: (h) => h.sections.map((section) => ({ section, space: h.space })),
  },
  SearchSectionResult: {
    id: ({ section }) => (section.anchor ? `${section.page}#${section.anchor}` : section.page),
    title: ({ section }) => section.title,
    path: ({ section }) => sectionPath(section),
    body: ({ section }) => section.body,
    urls: ({ section, space }, _, ctx) => ({
      app: pageAppUrl(ctx.config.appUrl, space, sectionPath(section), null),
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
