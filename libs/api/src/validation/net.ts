// CIDR parsing and overlap checks for the validation rules, over the one CIDR implementation in ../cidr.ts.
import { IPNet, parseIPAddress } from '../cidr.js';

export interface CIDR {
  family: 'IPv4' | 'IPv6';
  /** The network address as a number of `bits` bits. */
  address: bigint;
  prefix: number;
  bits: 32 | 128;
}

/** An IP address as a number, or undefined (see `parseIPAddress`). */
export function parseIP(text: string): { family: 'IPv4' | 'IPv6'; value: bigint } | undefined {
  const address = parseIPAddress(text);
  return address && { family: address.family, value: address.value };
}

export interface ParsedCIDR extends CIDR {
  /** The address was the network address (no host bits set), as Gardener requires for network ranges. */
  canonical: boolean;
}

/** A CIDR as Go's net.ParseCIDR reads it, or undefined. */
export function parseCIDR(text: string): ParsedCIDR | undefined {
  const net = IPNet.tryParse(text);
  if (!net) return undefined;
  return { family: net.family, address: net.network, prefix: net.prefix, bits: net.bits, canonical: net.canonical };
}

const toIPNet = (cidr: CIDR) => IPNet.of({ family: cidr.family, value: cidr.address, bits: cidr.bits }, cidr.prefix);

/** The network form, as Go prints it (`10.0.0.0/8`, `2001:db8::/32`). */
export function formatCIDR(cidr: CIDR): string {
  return toIPNet(cidr).toString();
}

/** Two networks overlap when one contains the other's network address. */
export function cidrsOverlap(a: CIDR, b: CIDR): boolean {
  return toIPNet(a).overlaps(toIPNet(b));
}
