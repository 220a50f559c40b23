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
    if ('host' in entry) return entry.host === host.toLowerCase();
    const [range, bits] = entry.range;
    return range.kind() === ip.kind() && ip.match(range as never, bits);
  });
}

/** Why `host` (resolved to `address`) may not be fetched, in words fit for the caller; null when it may. */
export function refusalOf(host: string, address: string, allowList: string[]): string | null {
  if (mayConnect(host, address, allowList)) return null;
  return `${host} is ${host === address ? '' : `at ${address}, `}a ${normalized(address).range()} address, which this server does not fetch`;
}
