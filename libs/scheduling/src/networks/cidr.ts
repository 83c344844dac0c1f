// CIDR parsing and overlap, IPv4 and IPv6, as Go's net.ParseCIDR reads them: the address is masked to its network.
// Gardener's scheduler compares network ranges only; a text that is not a CIDR overlaps nothing (admission rejects it).
// Parsing and range arithmetic are the one CIDR implementation in @gardener-ts/api (IPNet); this keeps a cache.
import { IPNet } from '@gardener-ts/api';

export interface Cidr {
  family: 'IPv4' | 'IPv6';
  /** The network address, masked to the prefix. */
  network: bigint;
  prefix: number;
  bits: 32 | 128;
}

// Parsed CIDRs by text: a decision compares the same few ranges against every seed, and parsing is the costly part.
const parsed = new Map<string, IPNet | undefined>();
const MAX_CACHED = 10_000;

function ipNet(text: string): IPNet | undefined {
  if (parsed.has(text)) return parsed.get(text);
  const net = IPNet.tryParse(text);
  if (parsed.size >= MAX_CACHED) parsed.clear();
  parsed.set(text, net);
  return net;
}

/** The range of a CIDR text, or undefined when it is not one. */
export function parseCidr(text: string): Cidr | undefined {
  const net = ipNet(text);
  return net && { family: net.family, network: net.network, prefix: net.prefix, bits: net.bits };
}

/** True when both are CIDRs of the same family and share at least one address. */
export function cidrsIntersect(a: string, b: string): boolean {
  const x = ipNet(a);
  const y = ipNet(b);
  return x !== undefined && y !== undefined && x.overlaps(y);
}

export function isIPv6Cidr(text: string): boolean {
  return ipNet(text)?.family === 'IPv6';
}

/** The family of a CIDR, or undefined for text that is not one. */
export function cidrFamily(text: string): 'IPv4' | 'IPv6' | undefined {
  return ipNet(text)?.family;
}
