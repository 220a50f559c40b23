import { schemaBeside, type Area } from '../../kernel/area.js';
import { TranslationSettings } from './entities.js';
import { translationResolvers } from './resolvers.js';
import { CreateTranslationSettingsInput, UpdateTranslationSettingsInput } from './inputs.js';
import { translationRoutes } from './routes.js';

/** Translation settings of organizations. */
export const translationsArea = {
  name: 'translations',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { CreateTranslationSettingsInput, UpdateTranslationSettingsInput },
  resolvers: translationResolvers,
  entities: [TranslationSettings],
  routes: translationRoutes,
} satisfies Area;
