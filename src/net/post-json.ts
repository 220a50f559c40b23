import type { FetchConfig } from '../kernel/config.js';
import { checkUrl, failureOf, guardedAgent, webUrl } from './fetch-document.js';

/** How a receiver answered a POST: its status and the time from sending to its last byte. */
export type PostAnswer = { status: number; durationMs: number };

/** Most bytes of a receiver's answer read (the rest is dropped): only the status counts. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs a JSON body to a caller's URL through the guarded connection (private addresses refused unless
 * allowed, checked when the connection opens), within `config.timeoutMs`, following no redirect.
 * Answers the status whatever it is; throws a FetchFailure when there was no answer (or `cancel`'s reason).
 */
export async function postJson(
  target: string,
  config: Pick<FetchConfig, 'timeoutMs' | 'allowPrivate'>,
  headers: Record<string, string>,
  body: string,
  cancel?: AbortSignal,
): Promise<PostAnswer> {
  cancel?.throwIfAborted();
  const timeout = AbortSignal.timeout(config.timeoutMs);
  const signal = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
  const { request } = await import('undici');
  const dispatcher = await guardedAgent(config);
  const url = webUrl(target);
  const started = performance.now();
  try {
    checkUrl(url, config);
    const response = await request(url, { method: 'POST', dispatcher, signal, headers: { ...headers, 'content-type': 'application/json' }, body });
    let read = 0;
    for await (const chunk of response.body) {
      read += (chunk as Buffer).length;
      if (read > MAX_ANSWER_BYTES) {
        response.body.destroy();
        break;
      }
    }
    return { status: response.statusCode, durationMs: Math.round(performance.now() - started) };
  } catch (error) {
    throw failureOf(error, signal, url, cancel);
  } finally {
    await dispatcher.destroy().catch(() => undefined);
  }
}
