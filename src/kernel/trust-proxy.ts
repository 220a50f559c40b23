import ipaddr from 'ipaddr.js';

/** express's `trust proxy` setting: everyone, no one, a number of hops, or the proxies' addresses. */
export type TrustProxy = boolean | number | string[];

/** The names express (proxy-addr) gives to address ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

export const TRUST_PROXY_FORMAT = 'must be true, false, a hop count, or comma-separated addresses, CIDR ranges, loopback, linklocal, uniquelocal';

const isRange = (entry: string) => {
  if (NAMED_RANGES.has(entry) || ipaddr.isValid(entry)) return true;
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
};

/** Reads TRUST_PROXY; null when it is none of the forms express takes. */
export function parseTrustProxy(text: string): TrustProxy | null {
  const value = text.trim().toLowerCase();
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.length && entries.every(isRange) ? entries : null;
}
