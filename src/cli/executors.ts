import type { ExecutionResult } from 'graphql';
import type { Config } from '../kernel/config.js';
import { unreachable, type ServerAccess } from './server-access.js';

/** Opens the configured database in this process (src/cli-database.ts), given by the wiring so the CLI knows no area. */
export type OpenDatabase = (config: Config) => Promise<Executor>;

/** Runs the admin CLI's GraphQL operations somewhere: on a database it opened, or through a server. */
export type Executor = {
  /** The operation's data, or throws its first error (a DomainError's message is meant for the operator). */
  execute(document: string, variables: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
};

/** Executes operations through the GraphQL door of the server that holds the embedded data directory. */
export function throughServer(access: ServerAccess): Executor {
  const { server, token } = access;
  return {
    async execute(document, variables) {
      let response: Response;
      try {
        response = await fetch(`${access.url}/graphql`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: document, variables }),
        });
      } catch (error) {
        throw unreachable(access, error);
      }
      const body = (await response.json().catch(() => null)) as ExecutionResult | null;
      const [first] = body?.errors ?? [];
      if (response.status === 401) {
        throw new Error(`${server} refused the token in ${access.tokenSource}: ${first?.message ?? 'unauthenticated'}`);
      }
      if (first) throw new Error(first.message);
      if (!response.ok || !body?.data) throw new Error(`${server} answered HTTP ${response.status}`);
      return body.data;
    },
    close: async () => {},
  };
}
