import ipaddr from 'ipaddr.js';

/** Whose budget a request draws on: its API token's, else its client address's. */
export type Subject = { key: string; kind: 'token' | 'address' };

/**
 * The client address as a budget's key: an IPv4 address as it is (also when IPv4-mapped), an IPv6
 * address by its /64 network, which one client usually holds whole (and could walk through).
 */
function addressKey(address: string | undefined): string {
  if (!address || !ipaddr.isValid(address)) return address ?? 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`);
  return `${network.toString()}/64`;
}

/** The subject of a request: the token that authenticated it, else the address it came from (per TRUST_PROXY). */
export function subjectOf(tokenId: string | undefined, address: string | undefined): Subject {
  if (tokenId) return { key: `token:${tokenId}`, kind: 'token' };
  return { key: `address:${addressKey(address)}`, kind: 'address' };
}
