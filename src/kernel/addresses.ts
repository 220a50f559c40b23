import ipaddr from 'ipaddr.js';

/** An allow-list entry: a host name, or an address range (a single address is a range of one). */
type AllowEntry = { host: string } | { range: [ipaddr.IPv4 | ipaddr.IPv6, number] };

/** Parses `FETCH_ALLOW_PRIVATE` entries: host names, IP addresses or CIDR ranges; null for a malformed one. */
export function parseAllowEntry(entry: string): AllowEntry | null {
  if (entry.includes('/')) {
    try {
      return { range: ipaddr.parseCIDR(entry) };
    } catch {
      return null;
    }
  }
  if (ipaddr.isValid(entry)) {
    const address = ipaddr.parse(entry);
    return { range: [address, address.kind() === 'ipv4' ? 32 : 128] };
  }
  return /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(entry) ? { host: entry.toLowerCase() } : null;
}

/** IPv4-mapped IPv6 addresses (::ffff:10.0.0.1) are judged as the IPv4 address they carry. */
function normalized(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const parsed = ipaddr.parse(address);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
}

/** True for addresses on the public internet; loopback, private, link-local, multicast and reserved ranges are not. */
export function isPublicAddress(address: string): boolean {
  return normalized(address).range() === 'unicast';
}

/** A host name as the allow-list names it: lower case, without the trailing dot of a fully qualified name. */
const hostKey = (host: string) => host.toLowerCase().replace(/\.$/, '');

/**
 * Whether a fetch may connect to `address` (resolved from `host`): public addresses always, others only
 * when the host or a range holding the address is allow-listed.
 */
export function mayConnect(host: string, address: string, allowList: string[]): boolean {
  if (isPublicAddress(address)) return true;
  const ip = normalized(address);
  return allowList.some((raw) => {
    const entry = parseAllowEntry(raw);
    if (!entry) return false;
    if ('host' in entry) return entry.host === hostKey(host);
    const [range, bits] = entry.range;
    return range.kind() === ip.kind() && ip.match(range, bits);
  });
}

/**
 * Why `host` (resolved to `address`) may not be fetched, in words fit for the caller and naming the
 * setting that would allow it; null when it may.
 */
export function refusalOf(host: string, address: string, allowList: string[]): string | null {
  if (mayConnect(host, address, allowList)) return null;
  const ip = normalized(address);
  // ipaddr names ranges in camel case (linkLocal, uniqueLocal).
  const kind = ip.range().replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  const at = host === ip.toString() ? '' : `at ${ip.toString()}, `;
  const article = /^(un[^i]|[aeio])/.test(kind) ? 'an' : 'a';
  return `${host} is ${at}${article} ${kind} address, which this server does not fetch unless FETCH_ALLOW_PRIVATE allows it`;
}
