import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { Agent } from 'undici';
import type { FetchConfig } from '../kernel/config.js';
import { refusalOf } from '../kernel/addresses.js';

/** Why a document could not be fetched. */
export type FetchFailureKind = 'timeout' | 'refused' | 'too-large' | 'status' | 'network';

export class FetchFailure extends Error {
  constructor(
    public readonly kind: FetchFailureKind,
    message: string,
  ) {
    super(message);
  }
}

const MAX_REDIRECTS = 5;
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A DNS lookup that refuses private, loopback and link-local addresses unless allow-listed. It runs
 * when a connection opens, so the address judged is the address connected to (no rebinding between a
 * check and the connection).
 */
function guardedLookup(allowPrivate: string[]) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err?.code === 'ENOTFOUND' || err?.code === 'ENODATA') return callback(new FetchFailure('network', `${hostname} does not resolve`), []);
      if (err) return callback(err, []);
      const refused = addresses.map((a) => refusalOf(hostname, a.address, allowPrivate)).find(Boolean);
      if (refused) return callback(new FetchFailure('refused', refused), []);
      if (addresses.length === 0) return callback(new FetchFailure('network', `${hostname} does not resolve`), []);
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** The FetchFailure (or `cancel`'s reason) that a failed request of `url` stands for. */
export function failureOf(error: unknown, signal: AbortSignal, url: URL, cancel?: AbortSignal): unknown {
  // Cancelled by the caller: its reason, not a failure of the document.
  if (cancel?.aborted) return cancel.reason;
  if (error instanceof FetchFailure) return error;
  const cause = (error as { cause?: unknown })?.cause;
  if (cause instanceof FetchFailure) return cause;
  const code = (error as { code?: string })?.code;
  if (signal.aborted || (code && TIMEOUT_CODES.has(code))) return new FetchFailure('timeout', `${url.href} did not answer in time`);
  return new FetchFailure('network', `${url.href} could not be fetched (${code ?? (error as Error)?.message ?? String(error)})`);
}

/** The URL when `address` is an http(s) URL; a 'refused' FetchFailure saying why not otherwise. */
export function webUrl(address: string): URL {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new FetchFailure('refused', `${address} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchFailure('refused', `only http and https addresses are fetched, not ${url.protocol}`);
  return url;
}

/** The URL's host name, or its IP address without an IPv6 address's brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Checks a URL before connecting: http(s) only, and a literal IP address must be one we may reach. */
export function checkUrl(url: URL, config: Pick<FetchConfig, 'allowPrivate'>) {
  webUrl(url.href);
  const host = hostOf(url);
  const refused = isIP(host) ? refusalOf(host, host, config.allowPrivate) : null;
  if (refused) throw new FetchFailure('refused', refused);
}

/** A connection pool whose DNS lookups refuse the addresses `config` does not allow, with its timeouts. */
export async function guardedAgent(config: Pick<FetchConfig, 'timeoutMs' | 'allowPrivate'>): Promise<Agent> {
  const { Agent } = await import('undici');
  return new Agent({
    connect: { lookup: guardedLookup(config.allowPrivate), timeout: config.timeoutMs },
    headersTimeout: config.timeoutMs,
    bodyTimeout: config.timeoutMs,
  });
}

export type FetchedDocument = { url: string; contentType: string; body: string };

/**
 * Fetches a text document with GET (the one way this server fetches on a user's behalf: spec URLs and
 * website import): at most `maxBytes`, all of it within `timeoutMs`, following up to five redirects,
 * each target checked like the first URL. Throws a FetchFailure saying why it failed, or `cancel`'s
 * reason once it is aborted.
 */
export async function fetchDocument(
  target: string,
  config: FetchConfig,
  accept = 'application/json, application/yaml, text/yaml, */*',
  cancel?: AbortSignal,
): Promise<FetchedDocument> {
  cancel?.throwIfAborted();
  const timeout = AbortSignal.timeout(config.timeoutMs);
  const signal = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
  // undici loads with the first fetch: ~25 MB a server that fetches nothing need not hold.
  const { request } = await import('undici');
  const dispatcher = await guardedAgent(config);
  let url = webUrl(target);
  try {
    for (let redirects = 0; ; redirects++) {
      checkUrl(url, config);
      const response = await request(url, { method: 'GET', dispatcher, signal, headers: { accept } });
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
        await response.body.dump();
        if (redirects >= MAX_REDIRECTS) throw new FetchFailure('network', `${target} redirects more than ${MAX_REDIRECTS} times`);
        url = new URL(location, url);
        continue;
      }
      if (response.statusCode < 200 || response.statusCode >= 300) {
        await response.body.dump();
        throw new FetchFailure('status', `${url.href} answered ${response.statusCode}`);
      }
      const declared = Number(response.headers['content-length']);
      if (declared > config.maxBytes) {
        await response.body.dump();
        throw new FetchFailure('too-large', `${url.href} is larger than ${config.maxBytes} bytes`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > config.maxBytes) {
          response.body.destroy();
          throw new FetchFailure('too-large', `${url.href} is larger than ${config.maxBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      return { url: url.href, contentType: String(response.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') };
    }
  } catch (error) {
    throw failureOf(error, signal, url, cancel);
  } finally {
    await dispatcher.destroy().catch(() => undefined);
  }
}
