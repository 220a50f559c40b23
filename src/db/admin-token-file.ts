import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file in an embedded server's data directory that holds the admin CLI's token while it runs. */
export const ADMIN_TOKEN_FILE = 'admin-token';

/** The token an embedded server wrote into its data directory, or undefined. */
export function readAdminToken(dataDir: string): string | undefined {
  try {
    return readFileSync(join(dataDir, ADMIN_TOKEN_FILE), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
