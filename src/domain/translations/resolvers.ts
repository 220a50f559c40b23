import { atLeast } from '../../auth/roles.js';
import type { Context } from '../../graphql/context.js';
import { whenLoaded } from '../common/loader.js';
import { type OrganizationId, createInOrganization, listInOrganization, succeeded } from '../common/resolvers.js';
import type { Resolvers } from '../../graphql/resolver-types.js';
import type { TranslationSettingsRow } from './entities.js';
import {
  createTranslationSettings,
  deleteTranslationSettings,
  listTranslationSettings,
  translationSettingsOf,
  updateTranslationSettings,
} from './service.js';

type SettingsId = OrganizationId & { translationSettingsId: string };

export const translationResolvers: Resolvers = {
  Query: {
    translationSettingsList: listInOrganization(listTranslationSettings),
    translationSettings: (_: unknown, { organizationId, translationSettingsId }: SettingsId, ctx: Context) =>
      translationSettingsOf(ctx, organizationId, translationSettingsId),
  },
  Mutation: {
    createTranslationSettings: createInOrganization(createTranslationSettings),
    updateTranslationSettings: (_: unknown, { organizationId, translationSettingsId, input }: SettingsId & { input: unknown }, ctx: Context) =>
      updateTranslationSettings(ctx, organizationId, translationSettingsId, input),
    deleteTranslationSettings: (_: unknown, { organizationId, translationSettingsId }: SettingsId, ctx: Context) =>
      succeeded(deleteTranslationSettings(ctx, organizationId, translationSettingsId)),
  },
  TranslationSettings: {
    object: () => 'translation-settings',
    permissions: (s: TranslationSettingsRow, _: unknown, ctx: Context) =>
      whenLoaded(ctx.policy.organizationRole(s.organization), (role) => ({ edit: atLeast(role, 'create') })),
    urls: (s: TranslationSettingsRow, _: unknown, ctx: Context) => ({
      location: `${ctx.config.publicUrl}/v1/orgs/${s.organization}/translations/${s.id}`,
    }),
    owningOrganization: (s: TranslationSettingsRow, _: unknown, ctx: Context) => ctx.loaders.organization.load(s.organization),
  },
};
