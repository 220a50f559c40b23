import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../events/record.js';
import type { Context } from '../../kernel/context.js';
import type { TranslationSettingsRow } from './entities.js';

/** The payload of translation events: the settings as the contract names their fields (no permissions or urls). */
export const translationPayload = (settings: TranslationSettingsRow) => ({
  object: 'translation-settings',
  id: settings.id,
  organization: settings.organization,
  title: settings.title,
  languages: settings.languages,
  createdAt: settings.createdAt.toISOString(),
  updatedAt: settings.updatedAt.toISOString(),
});

type TranslationEventType = 'translation.created' | 'translation.updated' | 'translation.deleted';

/** Records a change of translation settings in `em`'s unit of work; an update names the fields that changed. */
export function recordTranslationEvent(ctx: Context, em: EntityManager, type: TranslationEventType, settings: TranslationSettingsRow, changes?: string[]) {
  const payload = changes ? { ...translationPayload(settings), changes } : translationPayload(settings);
  recordEvent(ctx, em, { type, organizationId: settings.organization, target: { translationId: settings.id }, payload });
}
