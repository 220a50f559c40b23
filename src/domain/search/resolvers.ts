import type { Context } from '../../kernel/context.js';
import type { PageArgs } from '../../kernel/pagination.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { pageAppUrl } from '../content/index.js';
import { searchOrganization, type PageHit, type SectionHit, type SpaceHit } from './service.js';

const sectionPath = (s: SectionHit) => (s.anchor ? `${s.pagePath}#${s.anchor}` : s.pagePath);

export const searchResolvers: Resolvers = {
  Query: {
    searchOrganizationContent: (_: unknown, args: { organizationId: string; query: string } & PageArgs, ctx: Context) =>
      searchOrganization(ctx, args.organizationId, args),
  },
  SearchSpaceResult: {
    id: (h: SpaceHit) => h.space.id,
    title: (h: SpaceHit) => h.space.title,
    space: (h: SpaceHit) => h.space,
  },
  SearchPageResult: {
    urls: (h: PageHit, _: unknown, ctx: Context) => ({ app: pageAppUrl(ctx.config.appUrl, h.space, h.path, null) }),
    sections: (h: PageHit) => h.sections.map((section) => ({ section, space: h.space })),
  },
  SearchSectionResult: {
    id: ({ section }: { section: SectionHit }) => (section.anchor ? `${section.page}#${section.anchor}` : section.page),
    title: ({ section }: { section: SectionHit }) => section.title,
    path: ({ section }: { section: SectionHit }) => sectionPath(section),
    body: ({ section }: { section: SectionHit }) => section.body,
    urls: ({ section, space }: { section: SectionHit; space: PageHit['space'] }, _: unknown, ctx: Context) => ({
      app: pageAppUrl(ctx.config.appUrl, space, sectionPath(section), null),
    }),
  },
};
