import { z } from 'zod';
import { applyChanges } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import { samlProviderPayload, samlProviderTarget } from './events.js';
import { ROLES } from '../../kernel/roles.js';
import type { Context } from '../../kernel/context.js';
import { badRequest, notFound } from '../../kernel/errors.js';
import { pageOfOrganization, rowOfOrganization } from '../../db/organization-rows.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { oneOf, parseInput, text } from '../../kernel/validation.js';
import { newId } from '../../kernel/ids.js';
import { parsePemCertificate } from './certificates.js';
import { SamlProvider, type SamlProviderEntity, type SamlProviderRow } from './entities.js';
import { isActive, serviceUrls } from './service-provider.js';

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
  defaultTeam: text({ min: 1, max: 255 }).nullable(),
  /** Role of new members; null makes them guests. */
  defaultRole: oneOf(ROLES).nullable(),
};

const CreateSamlProviderInput = z.object({
  label: SamlProviderFields.label,
  entityID: SamlProviderFields.entityID.optional(),
  certificate: SamlProviderFields.certificate.optional(),
  ssoURL: SamlProviderFields.ssoURL.optional(),
  defaultTeam: SamlProviderFields.defaultTeam.optional(),
  /** The organization's defaultRole when omitted. */
  defaultRole: SamlProviderFields.defaultRole.optional(),
});

const UpdateSamlProviderInput = z
  .object({
    label: SamlProviderFields.label.optional(),
    entityID: SamlProviderFields.entityID.optional(),
    certificate: SamlProviderFields.certificate.optional(),
    ssoURL: SamlProviderFields.ssoURL.optional(),
    defaultTeam: SamlProviderFields.defaultTeam.optional(),
    defaultRole: SamlProviderFields.defaultRole.optional(),
  })
  .refine((changes) => Object.values(changes).some((value) => value !== undefined), { error: 'at least one field to change is required' });

/** `teamId` when it is a team of the organization; a 400 naming defaultTeam otherwise. */
async function teamOfOrganization(ctx: Context, organizationId: string, teamId: string | null | undefined) {
  if (!teamId) return teamId;
  const team = await ctx.loaders.team.load(teamId);
  if (!team || team.organization !== organizationId) throw badRequest(`defaultTeam: no team "${teamId}" in this organization`);
  return teamId;
}

/** The provider `id` of the organization; 404 when it belongs to another organization or none. */
export function samlProviderOf(ctx: Context, organizationId: string, id: string): Promise<SamlProviderEntity> {
  return rowOfOrganization(ctx.em, SamlProvider, organizationId, { id }, 'SAML provider');
}

/** The organization's providers, oldest first; one page read in SQL. */
export function listSamlProviders(ctx: Context, organizationId: string, args: PageArgs) {
  return pageOfOrganization(ctx.em, SamlProvider, 'p', organizationId, args);
}

/**
 * Creates a provider. Only `label` is required: the provider stays pending (no logins) until
 * `entityID`, `ssoURL` and `certificate` are all set.
 */
export async function createSamlProvider(ctx: Context, organizationId: string, input: unknown): Promise<SamlProviderRow> {
  const fields = parseInput(CreateSamlProviderInput, input);
  const organization = (await ctx.loaders.organization.load(organizationId))!;
  const provider = ctx.em.create(SamlProvider, {
    id: newId(),
    organization: organizationId,
    label: fields.label,
    entityID: fields.entityID ?? null,
    ssoURL: fields.ssoURL ?? null,
    certificate: fields.certificate ?? null,
    defaultTeam: (await teamOfOrganization(ctx, organizationId, fields.defaultTeam)) ?? null,
    defaultRole: fields.defaultRole === undefined ? organization.defaultRole : fields.defaultRole,
    createdAt: ctx.clock.now(),
  });
  recordEvent(ctx, ctx.em, { type: 'saml.updated', organizationId, target: samlProviderTarget(provider), payload: samlProviderPayload(provider, 'created') });
  await ctx.em.flush();
  return provider;
}

/** Changes the given fields; `defaultTeam: null` removes the team, `defaultRole: null` makes new members guests. */
export async function updateSamlProvider(ctx: Context, organizationId: string, id: string, input: unknown): Promise<SamlProviderRow> {
  const changes = parseInput(UpdateSamlProviderInput, input);
  const provider = await samlProviderOf(ctx, organizationId, id);
  if (changes.defaultTeam !== undefined) await teamOfOrganization(ctx, organizationId, changes.defaultTeam);
  const changed = applyChanges(provider, changes);
  if (changed.length)
    recordEvent(ctx, ctx.em, {
      type: 'saml.updated',
      organizationId,
      target: samlProviderTarget(provider),
      payload: samlProviderPayload(provider, 'updated', changed),
    });
  await ctx.em.flush();
  return provider;
}

/** Deletes a provider; logins through it stop at once (its pending requests go with it). */
export async function deleteSamlProvider(ctx: Context, organizationId: string, id: string): Promise<void> {
  const provider = await samlProviderOf(ctx, organizationId, id);
  ctx.em.remove(provider);
  recordEvent(ctx, ctx.em, { type: 'saml.updated', organizationId, target: samlProviderTarget(provider), payload: samlProviderPayload(provider, 'deleted') });
  await ctx.em.flush();
}

/** What the login page offers: the organization's active providers with their start URLs, oldest first. */
export async function ssoProviderLogins(ctx: Context, organizationId: string) {
  if (!(await ctx.loaders.organization.load(organizationId))) throw notFound('Organization');
  const providers = await ctx.loaders.samlProvidersByOrganization.load(organizationId);
  return {
    items: providers.filter(isActive).map((provider) => ({
      id: provider.id,
      label: provider.label,
      startURL: serviceUrls(ctx.config, provider.id).startURL,
    })),
  };
}
