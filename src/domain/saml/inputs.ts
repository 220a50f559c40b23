import { z } from 'zod';
import { shownAs } from '../../kernel/input-types.js';
import { ROLES } from '../../kernel/roles.js';
import { oneOf, text } from '../../kernel/validation.js';
import { parsePemCertificate } from './certificates.js';

const SamlProviderFields = {
  /** The name people pick on the login page; 1-30 characters. */
  label: text({ min: 1, max: 30 }),
  /** The identity provider's entity ID (the Issuer of its assertions); at most 1024 characters. */
  entityID: text({ min: 1, max: 1024 }),
  /** The identity provider's signing certificate: one PEM X.509 certificate, at most 10000 characters. */
  certificate: text({ max: 10000 })
    .transform((pem) => pem.trim())
    .refine((pem) => parsePemCertificate(pem) !== null, { error: 'must be a PEM-encoded X.509 certificate (-----BEGIN CERTIFICATE-----…)' }),
  /** Where the identity provider takes AuthnRequests: an http(s) URL of at most 2048 characters. */
  ssoURL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048, { error: 'must be at most 2048 characters' }),
  /** A team of the organization that new members join; null for none. */
  defaultTeam: shownAs('ID', text({ min: 1, max: 255 })).nullable(),
  /** Role of new members; null makes them guests. */
  defaultRole: shownAs('Role', oneOf(ROLES)).nullable(),
};

export const CreateSAMLProviderInput = z.object({
  label: SamlProviderFields.label,
  entityID: SamlProviderFields.entityID.optional(),
  certificate: SamlProviderFields.certificate.optional().describe('One PEM-encoded X.509 certificate.'),
  ssoURL: SamlProviderFields.ssoURL.optional(),
  defaultTeam: SamlProviderFields.defaultTeam.optional().describe('Id of a team of the organization.'),
  defaultRole: SamlProviderFields.defaultRole.optional().describe("Omitted: the organization's defaultRole; null: guest."),
});

export const UpdateSAMLProviderInput = z
  .object({
    label: SamlProviderFields.label.optional(),
    entityID: SamlProviderFields.entityID.optional(),
    certificate: SamlProviderFields.certificate.optional(),
    ssoURL: SamlProviderFields.ssoURL.optional(),
    defaultTeam: SamlProviderFields.defaultTeam.optional().describe('Id of a team of the organization; null removes it.'),
    defaultRole: SamlProviderFields.defaultRole.optional().describe('null: guest.'),
  })
  .refine((changes) => Object.values(changes).some((value) => value !== undefined), { error: 'at least one field to change is required' });
