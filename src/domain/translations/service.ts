import type { Context } from '../../kernel/context.js';
import { pageOfOrganization, rowOfOrganization } from '../../db/organization-rows.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { parseInput } from '../../kernel/validation.js';
import { CreateTranslationSettingsInput, UpdateTranslationSettingsInput } from './inputs.js';
import { newId } from '../../kernel/ids.js';
import { applyChanges } from '../../events/changes.js';
import { recordTranslationEvent } from './events.js';
import { TranslationSettings, type TranslationSettingsRow, type TranslationSettingsEntity } from './entities.js';

/** The settings `id` of the organization; 404 when they belong to another organization or none. */
export function translationSettingsOf(ctx: Context, organizationId: string, id: string): Promise<TranslationSettingsEntity> {
  return rowOfOrganization(ctx.em, TranslationSettings, organizationId, { id }, 'Translation settings');
}

/** Translation settings of the organization, oldest first; one page read in SQL. */
export function listTranslationSettings(ctx: Context, organizationId: string, args: PageArgs) {
  return pageOfOrganization(ctx.em, TranslationSettings, 't', organizationId, args);
}

export async function createTranslationSettings(ctx: Context, organizationId: string, input: unknown): Promise<TranslationSettingsRow> {
  const fields = parseInput(CreateTranslationSettingsInput, input);
  const now = ctx.clock.now();
  const settings = ctx.em.create(TranslationSettings, {
    id: newId(),
    organization: organizationId,
    title: fields.title,
    languages: fields.languages ?? [],
    createdAt: now,
    updatedAt: now,
  });
  recordTranslationEvent(ctx, ctx.em, 'translation.created', settings);
  await ctx.em.flush();
  return settings;
}

/** Sets the title and, when `languages` is given, replaces the languages. */
export async function updateTranslationSettings(ctx: Context, organizationId: string, id: string, input: unknown): Promise<TranslationSettingsRow> {
  const fields = parseInput(UpdateTranslationSettingsInput, input);
  const settings = await translationSettingsOf(ctx, organizationId, id);
  const changed = applyChanges(settings, { title: fields.title, languages: fields.languages ?? undefined }, ctx.clock.now());
  if (changed.length) recordTranslationEvent(ctx, ctx.em, 'translation.updated', settings, changed);
  await ctx.em.flush();
  return settings;
}

export async function deleteTranslationSettings(ctx: Context, organizationId: string, id: string): Promise<void> {
  const settings = await translationSettingsOf(ctx, organizationId, id);
  ctx.em.remove(settings);
  recordTranslationEvent(ctx, ctx.em, 'translation.deleted', settings);
  await ctx.em.flush();
}
