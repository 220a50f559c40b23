import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import type { FetchConfig } from '../config.js';
import { mayConnect } from './addresses.js';

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
      if (err) return callback(err, []);
      const refused = addresses.find((a) => !mayConnect(hostname, a.address, allowPrivate));
      if (refused) return callback(new FetchFailure('refused', `${hostname} resolves to a private address (${refused.address})`), []);
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

function failureOf(error: unknown, signal: AbortSignal): FetchFailure {
  if (error instanceof FetchFailure) return error;
  const cause = (error as { cause?: unknown })?.cause;
  if (cause instanceof FetchFailure) return cause;
  const code = (error as { code?: string })?.code;
  if (signal.aborted || (code && TIMEOUT_CODES.has(code))) return new FetchFailure('timeout', 'the server did not answer in time');
  return new FetchFailure('network', `could not fetch: ${(error as Error)?.message ?? String(error)}`);
}

/** Checks a URL before connecting: http(s) only, and a literal IP address must be one we may reach. */
function checkUrl(url: URL, config: FetchConfig) {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchFailure('refused', `${url.protocol} URLs are not fetched`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) && !mayConnect(host, host, config.allowPrivate)) throw new FetchFailure('refused', `${host} is a private address`);
}

/**
 * Fetches a text document with GET: at most `maxBytes`, all of it within `timeoutMs`, following up to
 * five redirects, each target checked like the first URL. Throws a FetchFailure saying why it failed.
 */
export async function fetchDocument(target: string, config: FetchConfig): Promise<string> {
  const signal = AbortSignal.timeout(config.timeoutMs);
  const dispatcher = new Agent({
    connect: { lookup: guardedLookup(config.allowPrivate) as never, timeout: config.timeoutMs },
    headersTimeout: config.timeoutMs,
    bodyTimeout: config.timeoutMs,
  });
  try {
    let url = new URL(target);
    for (let redirects = 0; ; redirects++) {
      checkUrl(url, config);
      const response = await request(url, { method: 'GET', dispatcher, signal, headers: { accept: 'application/json, application/yaml, text/yaml, */*' } });
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
        await response.body.dump();
        if (redirects >= MAX_REDIRECTS) throw new FetchFailure('network', 'too many redirects');
        url = new URL(location, url);
        continue;
      }
      if (response.statusCode < 200 || response.statusCode >= 300) {
        await response.body.dump();
        throw new FetchFailure('status', `the server answered ${response.statusCode}`);
      }
      const declared = Number(response.headers['content-length']);
      if (declared > config.maxBytes) {
        await response.body.dump();
        throw new FetchFailure('too-large', `the document is larger than ${config.maxBytes} bytes`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > config.maxBytes) {
          response.body.destroy();
          throw new FetchFailure('too-large', `the document is larger than ${config.maxBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks).toString('utf8');
    }
  } catch (error) {
    throw failureOf(error, signal);
  } finally {
    await dispatcher.destroy().catch(() => undefined);
  }
}
