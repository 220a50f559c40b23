import type { Context } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { issueViewerApiToken } from '../users/index.js';
import { namedInstallation } from './checks.js';

/** How long an installation's token works: the reference calls it temporary. */
export const INSTALLATION_TOKEN_SECONDS = 3600;

/** True when an integration's scopes let it write (`space:content:write`, `site:metadata:write`…). */
const writes = (scopes: readonly string[]) => scopes.some((scope) => scope.endsWith(':write'));

/**
 * A temporary API token for an installation (0.202.0's createIntegrationInstallationToken): a token of
 * the caller (an admin of the installation's organization: this server has no integration credentials),
 * limited to that organization, capped at `edit` when the integration's scopes write and at `read`
 * otherwise, expiring in an hour. A limited caller gets one only within its own token's scope.
 */
export async function createInstallationToken(ctx: Context, integrationName: string, installationId: string) {
  const installation = await namedInstallation(ctx, { integrationName, installationId });
  const integration = await ctx.loaders.integration.load(installation.integration);
  if (!integration) throw notFound('Integration installation');
  const expiresAt = new Date(ctx.clock.now().getTime() + INSTALLATION_TOKEN_SECONDS * 1000);
  return issueViewerApiToken(ctx, 'createIntegrationInstallationToken', `integration ${integration.name} (installation ${installation.id})`, {
    organization: installation.organization,
    role: writes(integration.scopes) ? 'edit' : 'read',
    expiresAt,
  });
}
