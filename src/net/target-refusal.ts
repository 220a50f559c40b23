import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { FetchConfig } from '../kernel/config.js';
import { refusalOf } from '../kernel/addresses.js';
import { checkUrl, FetchFailure, hostOf } from './fetch-document.js';

/** Longest wait for a host name's addresses when a URL is judged ahead of its fetches. */
const LOOKUP_TIMEOUT_MS = 2000;

/** `localhost`, `localhost.` and names under `.localhost`: loopback whatever DNS says (RFC 6761). */
const isLocalhostName = (host: string) => /(^|\.)localhost\.?$/i.test(host);

/** The addresses `host` resolves to now, as a connection would resolve it; none when it does not (in time). */
async function addressesOf(host: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<[]>((resolve) => {
    timer = setTimeout(() => resolve([]), LOOKUP_TIMEOUT_MS).unref();
  });
  const resolved = lookup(host, { all: true }).then(
    (addresses) => addresses.map((a) => a.address),
    () => [],
  );
  try {
    return await Promise.race([resolved, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Why the server's fetches would refuse `url`, judged before anything is sent (for a URL kept to be
 * fetched later, such as a webhook's); null when nothing refuses it now. The guard is the fetches' own:
 * a literal address (in any spelling URL parsing normalizes) is judged as `checkUrl` judges it, and a
 * name by the addresses it resolves to, refused when any of them is (as the connection's lookup
 * refuses it). A localhost name that does not resolve is loopback by definition. Another name that does
 * not resolve, or not in time, is not refused: DNS may be set up later or be briefly down, and the
 * fetch says why it failed.
 */
export async function refusalOfTarget(url: URL, config: Pick<FetchConfig, 'allowPrivate'>): Promise<string | null> {
  try {
    checkUrl(url, config);
  } catch (error) {
    if (error instanceof FetchFailure) return error.message;
    throw error;
  }
  const host = hostOf(url);
  if (isIP(host)) return null;
  const resolved = await addressesOf(host);
  const addresses = resolved.length === 0 && isLocalhostName(host) ? ['127.0.0.1'] : resolved;
  return addresses.map((address) => refusalOf(host, address, config.allowPrivate)).find(Boolean) ?? null;
}
