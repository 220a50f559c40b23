/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

export const TRANSLATION_SETTINGS = /* GraphQL */ `
  fragment TranslationSettingsFields on TranslationSettings {
    object id title languages createdAt updatedAt permissions { edit } urls { location }
  }
`;
