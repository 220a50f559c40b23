import type { DataDirectoryLocked, LockHolder } from '../db/data-dir-lock.js';
import { ADMIN_TOKEN_FILE, readAdminToken } from '../db/admin-token-file.js';

/** How the admin CLI reaches the server that holds an embedded data directory: where, with which token. */
export type ServerAccess = {
  url: string;
  token: string;
  /** "the server (process N) that holds DIR", for messages. */
  server: string;
  /** Where the token came from, for messages. */
  tokenSource: string;
};

/**
 * The server that holds a data directory the CLI could not take, or an error saying to try again: a
 * server that has not started to listen, the CLI or a migration run hold it only for a moment.
 */
export function serverHolding(refusal: DataDirectoryLocked): LockHolder & { url: string } {
  const { holder } = refusal;
  if (holder?.kind !== 'server' || !holder.url) {
    throw new Error(`${refusal.message}; try again when it has ${holder?.kind === 'server' ? 'started' : 'finished'}`);
  }
  return { ...holder, url: holder.url };
}

/** The server holding the data directory and an instance administrator's token for it: ADMIN_TOKEN, or the one the server wrote into the directory. */
export function serverAccess(holder: LockHolder & { url: string }, dataDir: string, env: NodeJS.ProcessEnv): ServerAccess {
  const given = env.ADMIN_TOKEN?.trim();
  const token = given || readAdminToken(dataDir);
  const server = `the server (process ${holder.pid}) that holds ${dataDir}`;
  if (!token) {
    throw new Error(`${server} has not written ${ADMIN_TOKEN_FILE} there: give an instance administrator's API token in ADMIN_TOKEN`);
  }
  return { url: holder.url, token, server, tokenSource: given ? 'ADMIN_TOKEN' : `${dataDir}/${ADMIN_TOKEN_FILE}` };
}

/** A request to the server failed before it answered: says which server and why. */
export const unreachable = (access: ServerAccess, error: unknown) =>
  new Error(`${access.server} does not answer at ${access.url}: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}`);
