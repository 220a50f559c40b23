import type { EntityManager } from '@mikro-orm/postgresql';
import { groupLoader } from '../../graphql/loader.js';
import { TranslationSettings } from './entities.js';

export function translationLoaders(em: EntityManager) {
  return {
    /** Translation settings of each organization, oldest first. */
    translationSettingsByOrganization: groupLoader(
      (organizationIds: string[]) =>
        em.find(TranslationSettings, { organization: { $in: organizationIds } }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
      (settings) => settings.organization,
    ),
  };
}
