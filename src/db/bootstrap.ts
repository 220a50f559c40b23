import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../kernel/clock.js';
import type { Config } from '../config.js';
import { executeReturning } from './statements.js';
import { User } from '../domain/users/index.js';
import { createApiToken, createUser } from '../domain/users/index.js';
import { createOrganization } from '../domain/organizations/index.js';
import { recordOwnerToken } from '../instances/agreement.js';

export type Provisioned = { email: string; organizationId: string; token: string; tokenFromEnv: boolean };

/** Arbitrary advisory-lock key (with the schema's hash) under which first starts provision. */
const PROVISIONING_LOCK = 734_112_909;

/**
 * On first start (no user yet) creates the owner (an instance administrator), their organization and
 * an API token. Returns what was made, or null when the database already had users. Instances
 * starting at once take turns on an advisory lock: the first provisions, the others find its owner.
 */
export async function provisionOwner(em: EntityManager, clock: Clock, config: Config): Promise<Provisioned | null> {
  if ((await em.count(User, {})) > 0) return null;
  return em.transactional(async (tx) => {
    await executeReturning(tx as EntityManager, 'select pg_advisory_xact_lock(?, hashtext(current_schema()))', [PROVISIONING_LOCK]);
    if ((await tx.count(User, {})) > 0) return null;
    return provision(tx as EntityManager, clock, config);
  });
}

function provision(em: EntityManager, clock: Clock, config: Config): Promise<Provisioned> {
  return em.transactional(async (tx) => {
    const owner = await createUser(tx as EntityManager, clock, { email: config.ownerEmail, displayName: 'Owner', instanceAdmin: true });
    const organization = await createOrganization(tx as EntityManager, clock, owner.id, { title: 'My organization' });
    const { token, secret } = await createApiToken(tx as EntityManager, clock, owner.id, 'owner (first start)', config.ownerToken);
    recordOwnerToken(tx as EntityManager, clock, token.secretHash);
    return { email: owner.email, organizationId: organization.id, token: secret, tokenFromEnv: !!config.ownerToken };
  });
}

export function welcomeMessage(config: Config, provisioned: Provisioned): string {
  const token = provisioned.tokenFromEnv ? '$OWNER_TOKEN' : provisioned.token;
  return [
    '',
    `First start: created the owner ${provisioned.email}, organization ${provisioned.organizationId} and an API token.`,
    provisioned.tokenFromEnv ? 'The token is the value of OWNER_TOKEN.' : `API token (shown once, store it now): ${provisioned.token}`,
    '',
    'REST:',
    `  curl -H "Authorization: Bearer ${token}" ${config.publicUrl}/v1/orgs`,
    'GraphQL:',
    `  curl -H "Authorization: Bearer ${token}" -H "Content-Type: application/json" \\`,
    `       -d '{"query":"{ viewer { id email } organizations { items { id title } } }"}' ${config.publicUrl}/graphql`,
    `Playground: open ${config.publicUrl}/graphql in a browser.`,
    '',
  ].join('\n');
}
