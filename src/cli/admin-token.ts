import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../kernel/clock.js';
import { ApiToken, User } from '../domain/users/index.js';
import { createApiToken } from '../domain/users/index.js';

/** The file in an embedded server's data directory that holds the admin CLI's token while it runs. */
export const ADMIN_TOKEN_FILE = 'admin-token';

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
    return (await createApiToken(tx as EntityManager, clock, admin.id, LABEL)).secret;
  });
  // Written whole, then renamed: a CLI never reads half a token.
  writeFileSync(`${path}.new`, `${secret}\n`, { mode: 0o600 });
  renameSync(`${path}.new`, path);
}

/** The token an embedded server wrote into its data directory, or undefined. */
export function readAdminToken(dataDir: string): string | undefined {
  try {
    return readFileSync(join(dataDir, ADMIN_TOKEN_FILE), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
