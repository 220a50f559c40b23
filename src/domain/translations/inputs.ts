import { z } from 'zod';
import { shownAs } from '../../kernel/input-types.js';
import { text } from '../../kernel/validation.js';

/** Language codes of the reference (`TranslationLanguage`); GraphQL's enum of the same values checks them. */
const languages = shownAs(
  '[TranslationLanguage!]',
  z.array(z.string()).refine((codes) => new Set(codes).size === codes.length, { error: 'must not name a language twice' }),
);

const title = text({ min: 1, max: 100 }).describe('1-100 characters.');

export const CreateTranslationSettingsInput = z.object({
  title,
  languages: languages.optional().describe('Omitted: none yet.'),
});

export const UpdateTranslationSettingsInput = z.object({
  title,
  languages: languages.optional().describe('Replaces the languages; omitted keeps them.'),
});
