import { found } from '../../../kernel/loader.js';
import { structureShapes } from '../index.js';
import { rememberShareKey } from '../site-spaces/index.js';
import { answerIfBuilt, itemsShape, shapeOf } from '../../../db/read-shapes.js';
import { prebuilt } from '../../../kernel/prebuilt-answers.js';
import { notFound } from '../../../kernel/errors.js';
import { createInOrganization, readBeforeGuard, succeeded } from '../../../kernel/resolvers.js';
import { etagOf, writeIfMatch, type ConditionalResource } from '../../../graphql/conditional-writes.js';
import type { QueryResolverFn, Resolvers } from '../../../kernel/resolver-types.js';
import { Site, type SiteAdaptiveSchemaRow, type SiteRow } from '../index.js';
import {
  createSite,
  defaultSiteSpace,
  deleteSite,
  getAdaptiveSchema,
  listSites,
  pageOfShareLinks,
  publishedContentSite,
  publishedStructure,
  setPublished,
  siteStructure,
  updateAdaptiveSchema,
  updateSite,
} from './service.js';
import { listSiteSectionGroups, listSiteSections } from '../sections/index.js';
import { listSiteSpaces } from '../site-spaces/index.js';
import { siteBaseUrl, siteUrls } from '../index.js';
import { adaptiveTemplateConditions } from './template-conditions.js';

/** Sites, their adaptive schema and published view (root fields and the Site type). */
const SITE_REPRESENTATION = 'getSiteById';
/** A site as conditional writes name it (graphql/conditional-writes.ts): its GET's path names its organization. */
const siteResource = (id: string): ConditionalResource => ({
  representation: SITE_REPRESENTATION,
  variables: (site) => ({ organizationId: site.organization, siteId: id }),
  row: [Site, id],
});
const ADAPTIVE_SCHEMA_REPRESENTATION = 'getSiteAdaptiveSchema';
/** A site's adaptive schema as conditional writes name it: it has no row while unset, so its writers queue on the site's. */
const adaptiveSchemaResource = (siteId: string): ConditionalResource => ({
  representation: ADAPTIVE_SCHEMA_REPRESENTATION,
  variables: (site) => ({ organizationId: site.organization, siteId }),
  row: [Site, siteId],
});

export const siteResolvers: Resolvers = {
  Query: {
    sites: (_, { organizationId, page, limit, ...filters }, ctx) => listSites(ctx, organizationId, filters, { page, limit }),
    site: readBeforeGuard<QueryResolverFn<'site'>>(async (_, { id }, ctx, info) => {
      // Written whole by the database when it can answer every selected field (sites/site/reads.ts),
      // read with the row its guard judges.
      const shape = answerIfBuilt(ctx, shapeOf(ctx.em, ctx.areas, info, 'Site'));
      if (!shape.answers) return found(ctx.loaders.site.load(id), 'Site');
      const read = await ctx.loaders.siteAnswerOf(shape).load(id);
      if (!read) throw notFound('Site');
      ctx.loaders.site.remember(id, read.row);
      // No answer where the viewer holds no role (the guard then refuses, or, should it admit them, the resolvers answer).
      return read.answer === null ? read.row : prebuilt<SiteRow>(read.answer, shape.nullsLeftOut);
    }),
    siteAdaptiveSchema: (_, { siteId }, ctx) => getAdaptiveSchema(ctx, siteId),
    siteAdaptiveTemplateConditions: (_, { siteId }, ctx) => adaptiveTemplateConditions(ctx, siteId),
    // The share key that opened a share-link site resolves its site spaces' published URLs, as on siteSpaces.
    publishedContentSite: async (_, { siteId, shareKey }, ctx, info) => {
      await rememberShareKey(ctx, siteId, shareKey);
      return publishedContentSite(ctx, siteId, structureShapes(ctx, info, ['structure', 'structure']));
    },
    siteStructure: async (_, { siteId, shareKey }, ctx, info) => {
      await rememberShareKey(ctx, siteId, shareKey);
      return publishedStructure(ctx, siteId, structureShapes(ctx, info, ['structure']));
    },
  },
  Mutation: {
    createSite: createInOrganization(createSite),
    updateSite: (_, { id, input, ifMatch }, ctx) => writeIfMatch(ctx, ifMatch, siteResource(id), (ctx) => updateSite(ctx, id, input)),
    deleteSite: (_, { id, ifMatch }, ctx) => writeIfMatch(ctx, ifMatch, siteResource(id), (ctx) => succeeded(deleteSite(ctx, id))),
    publishSite: (_, { id }, ctx) => setPublished(ctx, id, true),
    unpublishSite: (_, { id }, ctx) => setPublished(ctx, id, false),
    updateSiteAdaptiveSchema: (_, { siteId, jsonSchema, ifMatch }, ctx) =>
      writeIfMatch(ctx, ifMatch, adaptiveSchemaResource(siteId), (ctx) => updateAdaptiveSchema(ctx, siteId, jsonSchema)),
  },
  Site: {
    object: () => 'site',
    etag: (s, _, ctx) => etagOf(ctx, SITE_REPRESENTATION, { organizationId: s.organization, siteId: s.id }),
    siteSpaces: (s, _, ctx) => ctx.loaders.siteSpaceCount.get(s.id),
    proxy: (s, _, ctx) => (s.proxyOrigin ? { origin: s.proxyOrigin, target: siteBaseUrl(s, ctx.config) } : null),
    adaptiveContent: (s) => ({ enabled: s.adaptiveContentEnabled }),
    // No ads programme on a self-hosted server.
    ads: () => null,
    // Nothing is gated by plan here: every type can use every feature, so none is a premium feature.
    features: () => [],
    urls: (s, _, ctx) => siteUrls(s, ctx.config),
    /** Only for members: a share-key visitor must not learn about the organization. */
    owningOrganization: async (s, _, ctx) => {
      if (!(await ctx.policy.isMember(s.organization))) throw notFound('Organization');
      return found(ctx.loaders.organization.load(s.organization), 'Organization');
    },
    structure: (s, _, ctx, info) => siteStructure(ctx, s, structureShapes(ctx, info, ['structure'])),
    // The same lists as the root fields siteSections, siteSectionGroups and siteSpaces.
    sections: (s, args, ctx, info) => listSiteSections(ctx, s.id, args, itemsShape(ctx, info, 'SiteSection')),
    sectionGroups: (s, args, ctx, info) => listSiteSectionGroups(ctx, s.id, args, itemsShape(ctx, info, 'SiteSectionGroup')),
    siteSpaceList: (s, args, ctx, info) => listSiteSpaces(ctx, s.id, args, itemsShape(ctx, info, 'SiteSpace')),
    // As the database holds it (a change in progress uses the service's defaultSiteSection, on its own rows).
    defaultSiteSection: (s, _, ctx) => ctx.loaders.defaultSection.get(s.id),
    defaultSiteSpace: (s, _, ctx) => defaultSiteSpace(ctx, s),
    shareLinks: (s, args, ctx) => pageOfShareLinks(ctx, s, args),
    adaptiveSchema: (s, _, ctx) => ctx.loaders.adaptiveSchema.get(s.id),
  },
  SiteAdaptiveSchema: {
    object: () => 'site-adaptive-schema',
    etag: (s, _, ctx) => etagOf(ctx, ADAPTIVE_SCHEMA_REPRESENTATION, { organizationId: s.organization, siteId: s.site }),
  },
  SiteStructureItem: {
    /** Rows carry no type tag: a site space publishes a space, a section has a path, a group has neither. */
    __resolveType: (item) => ('space' in item && item.space ? 'SiteSpace' : 'path' in item && item.path ? 'SiteSection' : 'SiteSectionGroup'),
  },
};

declare module '../../../kernel/resolver-parents.js' {
  interface ResolverParents {
    Site: SiteRow;
    SiteAdaptiveSchema: SiteAdaptiveSchemaRow;
  }
}
