import { atLeast } from '../../kernel/roles.js';
import { found, whenLoaded } from '../../kernel/loader.js';
import { createInOrganization, deleteOrganizationItem, listInOrganization, onOrganizationItem, updateOrganizationItem } from '../../kernel/resolvers.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import type { TranslationSettingsRow } from './entities.js';
import { createTranslationSettings, deleteTranslationSettings, listTranslationSettings, translationSettingsOf, updateTranslationSettings } from './service.js';

export const translationResolvers: Resolvers = {
  Query: {
    translationSettingsList: listInOrganization(listTranslationSettings),
    translationSettings: onOrganizationItem('translationSettingsId', translationSettingsOf),
  },
  Mutation: {
    createTranslationSettings: createInOrganization(createTranslationSettings),
    updateTranslationSettings: updateOrganizationItem('translationSettingsId', updateTranslationSettings),
    deleteTranslationSettings: deleteOrganizationItem('translationSettingsId', deleteTranslationSettings),
  },
  TranslationSettings: {
    object: () => 'translation-settings',
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
