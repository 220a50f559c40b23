import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import type { Clock } from './kernel/clock.js';
import type { Config } from './kernel/config.js';
import { executeReturning } from './db/statements.js';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_TOKEN_FILE } from './db/admin-token-file.js';
import type { Logger } from './kernel/logger.js';
import { ApiToken, createApiToken, createUser, User } from './domain/users/index.js';
import { createOrganization } from './domain/organizations/index.js';
import { provisionedOwnerTokenHash, recordOwnerToken } from './instances/agreement.js';
import { hashTokenSecret } from './auth/tokens.js';

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
    await executeReturning(tx, sql`select pg_advisory_xact_lock(${PROVISIONING_LOCK}, hashtext(current_schema()))`);
    if ((await tx.count(User, {})) > 0) return null;
    return provision(tx, clock, config);
  });
}

function provision(em: EntityManager, clock: Clock, config: Config): Promise<Provisioned> {
  return em.transactional(async (tx) => {
    const owner = await createUser(tx, clock, { email: config.ownerEmail, displayName: 'Owner', instanceAdmin: true });
    const organization = await createOrganization(tx, clock, owner.id, { title: 'My organization' });
    const { token, secret } = await createApiToken(tx, clock, owner.id, 'owner (first start)', config.ownerToken);
    recordOwnerToken(tx, clock, token.secretHash);
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

/**
 * Warns when OWNER_TOKEN is not the owner's token of the first start, or is that token revoked since:
 * OWNER_TOKEN is read by a first start only, so the configuration says something untrue but nothing
 * serves differently (every instance checks tokens against the database).
 */
export async function checkOwnerToken(em: EntityManager, config: Config, logger: Logger): Promise<void> {
  if (!config.ownerToken) return;
  const hash = hashTokenSecret(config.ownerToken);
  const recorded = await provisionedOwnerTokenHash(em);
  const token = await em.findOne(ApiToken, { secretHash: hash });
  const live = !!token && token.revokedAt === null;
  if (recorded === hash && live) return;
  const what =
    recorded === hash
      ? 'OWNER_TOKEN is the token this database was provisioned with, revoked since'
      : 'OWNER_TOKEN is not the token this database was provisioned with (another instance, or a start without it, provisioned first)';
  const effect = live ? 'it is a live token of a user all the same' : 'it authenticates nobody';
  logger.warn(`${what}: it is only read by a first start, so it changes nothing here and ${effect}; remove it from the configuration`);
}

const LABEL = `admin CLI (DATA_DIR/${ADMIN_TOKEN_FILE})`;

/**
 * Issues the admin CLI a token of the first instance administrator and writes it into the data
 * directory, readable by its owner only, for the CLI to use while this server holds the directory.
 * The token of the previous start is revoked: one such token is valid at a time.
 */
export async function writeAdminToken(em: EntityManager, clock: Clock, dataDir: string): Promise<void> {
  const path = join(dataDir, ADMIN_TOKEN_FILE);
  const [admin] = await em.find(User, { instanceAdmin: true }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit: 1 });
  if (!admin) {
    rmSync(path, { force: true });
    return;
  }
  const secret = await em.transactional(async (tx) => {
    await tx.nativeUpdate(ApiToken, { user: admin.id, label: LABEL, revokedAt: null }, { revokedAt: clock.now() });
    return (await createApiToken(tx, clock, admin.id, LABEL)).secret;
  });
  // Written whole, then renamed: a CLI never reads half a token.
  writeFileSync(`${path}.new`, `${secret}\n`, { mode: 0o600 });
  renameSync(`${path}.new`, path);
}
