import { atLeast } from '../../kernel/roles.js';
import { found, whenLoaded } from '../../kernel/loader.js';
import { createInOrganization, listInOrganization, onOrganizationItem } from '../../kernel/resolvers.js';
import { deleteOrganizationItemIfMatch, etagOfResource, updateOrganizationItemIfMatch, organizationItemResource } from '../../graphql/conditional-writes.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { TranslationSettings, type TranslationSettingsRow } from './entities.js';
import { createTranslationSettings, deleteTranslationSettings, listTranslationSettings, translationSettingsOf, updateTranslationSettings } from './service.js';

/** Translation settings as conditional writes name them (graphql/conditional-writes.ts). */
const translationResource = organizationItemResource('getTranslation', 'translationSettingsId', TranslationSettings);

export const translationResolvers: Resolvers = {
  Query: {
    translationSettingsList: listInOrganization(listTranslationSettings),
    translationSettings: onOrganizationItem('translationSettingsId', translationSettingsOf),
  },
  Mutation: {
    createTranslationSettings: createInOrganization(createTranslationSettings),
    updateTranslationSettings: updateOrganizationItemIfMatch('translationSettingsId', translationResource, updateTranslationSettings),
    deleteTranslationSettings: deleteOrganizationItemIfMatch('translationSettingsId', translationResource, deleteTranslationSettings),
  },
  TranslationSettings: {
    object: () => 'translation-settings',
    etag: (s, _, ctx) => etagOfResource(ctx, translationResource(s.organization, s.id)),
    permissions: (s, _, ctx) => whenLoaded(ctx.policy.organizationRole(s.organization), (role) => ({ edit: atLeast(role, 'create') })),
    urls: (s, _, ctx) => ({
      location: `${ctx.config.publicUrl}/v1/orgs/${s.organization}/translations/${s.id}`,
    }),
    owningOrganization: (s, _, ctx) => found(ctx.loaders.organization.get(s.organization), 'Organization'),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    TranslationSettings: TranslationSettingsRow;
  }
}
