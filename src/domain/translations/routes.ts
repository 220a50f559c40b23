import type { Route } from '../../kernel/rest-route.js';
import { TRANSLATION_SETTINGS } from './fragments.js';

const LIST_PATH = '/v1/orgs/{organizationId}/translations';
const ONE_PATH = `${LIST_PATH}/{translationSettingsId}`;

export const translationRoutes: Route[] = [
  {
    operationId: 'listTranslations',
    method: 'GET',
    path: LIST_PATH,
    status: 200,
    document: `query($organizationId: ID!, $page: String, $limit: Int) {
      translationSettingsList(organizationId: $organizationId, page: $page, limit: $limit) { items { ...TranslationSettingsFields } count next { page } }
    } ${TRANSLATION_SETTINGS}`,
  },
  {
    operationId: 'createTranslation',
    method: 'POST',
    path: LIST_PATH,
    status: 201,
    body: 'input',
    document: `mutation($organizationId: ID!, $input: CreateTranslationSettingsInput!) {
      createTranslationSettings(organizationId: $organizationId, input: $input) { ...TranslationSettingsFields }
    } ${TRANSLATION_SETTINGS}`,
  },
  {
    operationId: 'getTranslation',
    method: 'GET',
    path: ONE_PATH,
    status: 200,
    document: `query($organizationId: ID!, $translationSettingsId: ID!) {
      translationSettings(organizationId: $organizationId, translationSettingsId: $translationSettingsId) { ...TranslationSettingsFields }
    } ${TRANSLATION_SETTINGS}`,
  },
  {
    operationId: 'updateTranslation',
    method: 'PUT',
    path: ONE_PATH,
    status: 200,
    body: 'input',
    document: `mutation($organizationId: ID!, $translationSettingsId: ID!, $input: UpdateTranslationSettingsInput!, $ifMatch: String) {
      updateTranslationSettings(organizationId: $organizationId, translationSettingsId: $translationSettingsId, input: $input, ifMatch: $ifMatch) { ...TranslationSettingsFields }
    } ${TRANSLATION_SETTINGS}`,
  },
  {
    operationId: 'deleteTranslation',
    method: 'DELETE',
    path: ONE_PATH,
    status: 204,
    document: `mutation($organizationId: ID!, $translationSettingsId: ID!, $ifMatch: String) {
      deleteTranslationSettings(organizationId: $organizationId, translationSettingsId: $translationSettingsId, ifMatch: $ifMatch)
    }`,
  },
];
