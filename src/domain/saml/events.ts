import type { SamlProviderRow } from './entities.js';

/**
 * saml.updated: a provider of the organization's single sign-on was created, changed or deleted
 * (`change`), as the contract names its fields; the certificate is named by presence only.
 */
export const samlProviderPayload = (provider: SamlProviderRow, change: 'created' | 'updated' | 'deleted', changes?: string[]) => ({
  change,
  provider: {
    object: 'saml-provider',
    id: provider.id,
    label: provider.label,
    entityID: provider.entityID,
    ssoURL: provider.ssoURL,
    hasCertificate: provider.certificate !== null,
    defaultTeam: provider.defaultTeam ?? null,
    defaultRole: provider.defaultRole,
    createdAt: provider.createdAt.toISOString(),
  },
  ...(changes ? { changes } : {}),
});

export const samlProviderTarget = (provider: SamlProviderRow) => ({ organizationId: provider.organization, samlProviderId: provider.id });
