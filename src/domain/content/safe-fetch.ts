import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/*
 * Fetching pages of other sites on a user's behalf without letting them reach this server's network:
 * only http(s); every address a host name resolves to must be public (checked at connection time, on
 * the address actually dialled, so DNS rebinding cannot slip through) unless the allow-list names the
 * host, the address or a range holding it; redirects are followed by hand and checked the same way;
 * bodies are cut off at a size, and the whole exchange at a deadline.
 */

export type FetchLimits = { maxBytes: number; deadline: number; allowedHosts: string[] };
export type Fetched = { url: string; contentType: string; body: string };

/** Why a fetch failed, in words fit for the caller. */
export class FetchRefused extends Error {}

const MAX_REDIRECTS = 5;

function allowListed(allowedHosts: string[], hostname: string, address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return allowedHosts.some((entry) => {
    if (entry === hostname) return true;
    try {
      if (entry.includes('/')) {
        const [range, bits] = ipaddr.parseCIDR(entry);
        return range.kind() === address.kind() && address.match([range, bits] as never);
      }
      return ipaddr.process(entry).toNormalizedString() === address.toNormalizedString();
    } catch {
      return false;
    }
  });
}

/** Why the address (that `hostname` names) may not be fetched, or null when it may. */
function refusal(allowedHosts: string[], hostname: string, address: string): FetchRefused | null {
  const parsed = ipaddr.process(address);
  if (parsed.range() === 'unicast' || allowListed(allowedHosts, hostname.toLowerCase(), parsed)) return null;
  return new FetchRefused(`${hostname} is ${hostname === address ? '' : `at ${address}, `}a ${parsed.range()} address, which this server does not fetch`);
}

/** A DNS lookup that fails for addresses outside the public unicast ranges (unless allow-listed). */
function guardedLookup(allowedHosts: string[]): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.map(({ address }) => refusal(allowedHosts, hostname, address)).find(Boolean);
      if (refused) return callback(refused, '', 0);
      const [first] = addresses;
      if (!first) return callback(new FetchRefused(`${hostname} does not resolve`), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}

function get(url: URL, limits: FetchLimits): Promise<{ status: number; location?: string; contentType: string; body: string }> {
  const remaining = limits.deadline - Date.now();
  if (remaining <= 0) return Promise.reject(new FetchRefused('the import ran out of time'));
  // Node dials an IP-literal host without a lookup: check it here.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  const refused = ipaddr.isValid(literal) ? refusal(limits.allowedHosts, literal, literal) : null;
  if (refused) return Promise.reject(refused);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, { lookup: guardedLookup(limits.allowedHosts), headers: { accept: 'text/html,application/xhtml+xml', 'user-agent': 'docs-platform-importer' }, signal: AbortSignal.timeout(remaining) }, (response) => {
      const status = response.statusCode ?? 0;
      const contentType = String(response.headers['content-type'] ?? '');
      if (status >= 300 && status < 400) {
        response.resume();
        return resolve({ status, location: response.headers.location, contentType, body: '' });
      }
      const declared = Number(response.headers['content-length']);
      if (declared > limits.maxBytes) {
        response.destroy();
        return reject(new FetchRefused(`${url.href} is larger than ${limits.maxBytes} bytes`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) {
          response.destroy();
          reject(new FetchRefused(`${url.href} is larger than ${limits.maxBytes} bytes`));
        } else chunks.push(chunk);
      });
      response.on('end', () => resolve({ status, contentType, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', (error) => {
      if (error instanceof FetchRefused) reject(error);
      else if (error.name === 'AbortError' || error.name === 'TimeoutError') reject(new FetchRefused(`${url.href} did not answer in time`));
      else reject(new FetchRefused(`${url.href} could not be fetched (${(error as NodeJS.ErrnoException).code ?? error.message})`));
    });
  });
}

/** Checks that a URL is an http(s) one. */
export function webUrl(address: string): URL {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new FetchRefused(`${address} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused(`only http and https addresses are fetched, not ${url.protocol}`);
  return url;
}

/** Fetches a page (following up to 5 redirects) within the limits; throws FetchRefused saying why not. */
export async function safeFetch(address: string, limits: FetchLimits): Promise<Fetched> {
  let url = webUrl(address);
  for (let hops = 0; ; hops++) {
    const answer = await get(url, limits);
    if (answer.status >= 300 && answer.status < 400 && answer.location) {
      if (hops >= MAX_REDIRECTS) throw new FetchRefused(`${address} redirects more than ${MAX_REDIRECTS} times`);
      url = webUrl(new URL(answer.location, url).href);
      continue;
    }
    if (answer.status !== 200) throw new FetchRefused(`${url.href} answered ${answer.status}`);
    return { url: url.href, contentType: answer.contentType, body: answer.body };
  }
}
