import { createClient, type Client } from 'graphql-ws';

type Result = { data?: Record<string, any> | null; errors?: { message: string; extensions?: Record<string, unknown> }[] };
import WebSocket from 'ws';
import type { TestServer } from './server.js';

/** A graphql-ws client of the test server's WebSocket door, as a Node program would use it; `token` null sends none. */
export function wsClient(server: Pick<TestServer, 'url'>, token: string | null, connectionParams?: Record<string, unknown>): Client {
  return createClient({
    url: `${server.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: connectionParams ?? (token ? { authorization: `Bearer ${token}` } : {}),
    retryAttempts: 0,
  });
}

/** Resolves once `test` holds, checking again whenever the event loop is free (no timed assertion: a bound only). */
export async function eventually(test: () => boolean, what: string, boundMs = 10_000): Promise<void> {
  const until = Date.now() + boundMs;
  while (!test()) {
    if (Date.now() > until) throw new Error(`still not ${what} after ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Subscribes with `client` and answers the iterator of its results once the server holds the stream
 * (so what a test does next is seen), or at once when the server refused it (the first result then
 * holds the errors).
 */
export async function subscribe(server: TestServer, client: Client, query: string, variables: Record<string, unknown> = {}) {
  const before = server.live.feed.openStreams;
  const results = client.iterate({ query, variables }) as AsyncIterableIterator<Result>;
  // The first result is awaited beside the stream's opening: a refusal comes as a result, never a stream.
  const first = results.next();
  const settled = await Promise.race([
    first.then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    ),
    eventually(() => server.live.feed.openStreams > before, 'subscribed').then(() => undefined),
  ]);
  // A refusal is the first result, answered here: next() goes on after it.
  let pendingFirst: Promise<IteratorResult<Result>> | undefined = settled ? undefined : first;
  return {
    refused: settled && 'result' in settled ? (settled.result.value as Result | undefined) : undefined,
    failedToConnect: settled && 'error' in settled ? settled.error : undefined,
    /** The next result (the first one is the one already asked for). */
    next(): Promise<IteratorResult<Result>> {
      const next = pendingFirst ?? results.next();
      pendingFirst = undefined;
      return next;
    },
    stop: () => results.return?.(),
  };
}
