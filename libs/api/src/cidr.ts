// IP addresses and CIDR ranges, IPv4 and IPv6, read as Go's net.ParseCIDR / netip.ParseAddr read them (dotted
// decimal without leading zeros, no IPv6 zones; the address is masked to its network) and the range arithmetic
// Gardener's validation and scheduling use: contains, overlaps, network and broadcast (last) address, size.
// Address syntax is checked with ipaddr.js; arithmetic is on bigint.
import ipaddr from 'ipaddr.js';

/** An IP family, as Gardener names them (`spec.networking.ipFamilies`). */
export type IPFamily = 'IPv4' | 'IPv6';

/** An IP address as a number of 32 or 128 bits. */
export interface IPAddress {
  readonly family: IPFamily;
  readonly value: bigint;
  readonly bits: 32 | 128;
}

/** A text that is not a CIDR; the message is Go's (`invalid CIDR address: 10.0.0.0/33`). */
export class CIDRError extends Error {
  constructor(
    /** The text that did not parse. */
    readonly input: string,
  ) {
    super(`invalid CIDR address: ${input}`);
    this.name = 'CIDRError';
  }
}

const fromBytes = (bytes: number[]) => bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);

/** An IP address (`10.0.0.1`, `2001:db8::1`, `::ffff:10.0.0.1`), or undefined when `text` is not one. */
export function parseIPAddress(text: string): IPAddress | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) {
    return { family: 'IPv4', value: fromBytes(ipaddr.IPv4.parse(text).toByteArray()), bits: 32 };
  }
  // ipaddr.js also reads zones (`fe80::1%eth0`), which Go's ParseCIDR refuses.
  if (text.includes(':') && !text.includes('%') && ipaddr.IPv6.isValid(text)) {
    return { family: 'IPv6', value: fromBytes(ipaddr.IPv6.parse(text).toByteArray()), bits: 128 };
  }
  return undefined;
}

/** The text of an address: dotted decimal, or IPv6 as RFC 5952 (`2001:db8::1`, `::ffff:10.0.0.1`). */
export function formatIPAddress(address: IPAddress): string {
  const width = address.family === 'IPv4' ? 8n : 16n;
  const parts: number[] = [];
  for (let shift = BigInt(address.bits) - width; shift >= 0n; shift -= width) {
    parts.push(Number((address.value >> shift) & ((1n << width) - 1n)));
  }
  if (address.family === 'IPv4') return parts.join('.');
  const ip = new ipaddr.IPv6(parts);
  return ip.isIPv4MappedAddress() ? `::ffff:${ip.toIPv4Address().toString()}` : ip.toRFC5952String();
}

const hostMask = (bits: number, prefix: number) => (1n << BigInt(bits - prefix)) - 1n;

/** A CIDR range (Go's `net.IPNet`): the network address, the prefix length, and the address as written. Immutable. */
export class IPNet {
  private constructor(
    readonly family: IPFamily,
    /** The network address (host bits cleared). */
    readonly network: bigint,
    readonly prefix: number,
    readonly bits: 32 | 128,
    /** The address as written before the slash (`10.0.0.5` of `10.0.0.5/24`). */
    readonly ip: bigint,
  ) {}

  /** Go's `net.ParseCIDR`; throws {@link CIDRError}. */
  static parse(text: string): IPNet {
    const net = IPNet.tryParse(text);
    if (!net) throw new CIDRError(text);
    return net;
  }

  /** The range, or undefined when `text` is not a CIDR. */
  static tryParse(text: string): IPNet | undefined {
    const slash = text.indexOf('/');
    if (slash < 0) return undefined;
    const address = parseIPAddress(text.slice(0, slash));
    const prefixText = text.slice(slash + 1);
    if (!address || !/^\d{1,3}$/.test(prefixText)) return undefined;
    const prefix = Number(prefixText);
    if (prefix > address.bits) return undefined;
    const network = address.value & ~hostMask(address.bits, prefix);
    return new IPNet(address.family, network, prefix, address.bits, address.value);
  }

  /** The range of `prefix` bits around an address. */
  static of(address: IPAddress, prefix: number): IPNet {
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > address.bits) {
      throw new RangeError(`prefix ${prefix} is out of range for ${address.family}`);
    }
    const network = address.value & ~hostMask(address.bits, prefix);
    return new IPNet(address.family, network, prefix, address.bits, address.value);
  }

  /** True when the address as written was the network address (no host bits), as Gardener requires for ranges. */
  get canonical(): boolean {
    return this.ip === this.network;
  }

  /** How many addresses the range holds: 2^(bits - prefix). */
  size(): bigint {
    return 1n << BigInt(this.bits - this.prefix);
  }

  /** The first address. */
  networkAddress(): IPAddress {
    return { family: this.family, value: this.network, bits: this.bits };
  }

  /** The last address (IPv4's broadcast address). */
  broadcastAddress(): IPAddress {
    return { family: this.family, value: this.network | hostMask(this.bits, this.prefix), bits: this.bits };
  }

  /** The n-th address from the network address (0 is the network address); throws beyond the range. */
  address(n: bigint | number): IPAddress {
    const offset = BigInt(n);
    if (offset < 0n || offset >= this.size()) throw new RangeError(`${this.toString()} has no address number ${n}`);
    return { family: this.family, value: this.network + offset, bits: this.bits };
  }

  /** Whether the address (text or parsed) lies in the range; addresses of the other family never do. */
  contains(address: string | IPAddress): boolean {
    const ip = typeof address === 'string' ? parseIPAddress(address) : address;
    if (!ip || ip.family !== this.family) return false;
    return (ip.value & ~hostMask(this.bits, this.prefix)) === this.network;
  }

  /** Whether the other range lies completely inside this one. */
  containsNet(other: IPNet): boolean {
    return other.family === this.family && other.prefix >= this.prefix && this.contains(other.networkAddress());
  }

  /** Whether the two ranges share an address (one contains the other); ranges of different families never do. */
  overlaps(other: IPNet): boolean {
    if (other.family !== this.family) return false;
    const mask = ~hostMask(this.bits, Math.min(this.prefix, other.prefix));
    return (this.network & mask) === (other.network & mask);
  }

  /** The network form, as Go's `IPNet.String()`: `10.0.0.0/24`, `2001:db8::/64`. */
  toString(): string {
    return `${formatIPAddress(this.networkAddress())}/${this.prefix}`;
  }
}

/** Whether two CIDR texts overlap; false when either is not a CIDR or the families differ. */
export function cidrsOverlapping(a: string, b: string): boolean {
  const x = IPNet.tryParse(a);
  const y = IPNet.tryParse(b);
  return x !== undefined && y !== undefined && x.overlaps(y);
}

/** Whether the CIDR text contains the address text; false when either does not parse. */
export function cidrContains(cidr: string, address: string): boolean {
  return IPNet.tryParse(cidr)?.contains(address) ?? false;
}
