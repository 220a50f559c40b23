import { applyChanges } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import { samlProviderPayload, samlProviderTarget } from './events.js';
import type { Context } from '../../kernel/context.js';
import { badRequest, notFound } from '../../kernel/errors.js';
import { pageOfOrganization, rowOfOrganization } from '../../db/organization-rows.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { parseInput } from '../../kernel/validation.js';
import { CreateSAMLProviderInput, UpdateSAMLProviderInput } from './inputs.js';
import { newId } from '../../kernel/ids.js';
import { SamlProvider, type SamlProviderEntity, type SamlProviderRow } from './entities.js';
import { isActive, serviceUrls } from './service-provider.js';

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
  const fields = parseInput(CreateSAMLProviderInput, input);
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
  const changes = parseInput(UpdateSAMLProviderInput, input);
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
