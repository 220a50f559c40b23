import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';
import { Organization } from '../organizations/index.js';

/** Settings of an organization's translations: a title and the languages content is translated into. */
export const TranslationSettings = defineEntity({
  name: 'TranslationSettings',
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    title: p.string().length(100),
    /** Language codes of the reference's enum, without repeats, in the order given. */
    languages: p.json<string[]>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
/** The managed entity, for the services that change it; reads get the read-only `TranslationSettingsRow`. */
export type TranslationSettingsEntity = InferEntity<typeof TranslationSettings>;
export type TranslationSettingsRow = Plain<TranslationSettingsEntity>;
