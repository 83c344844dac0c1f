// CIDR parsing and overlap, IPv4 and IPv6, as Go's net.ParseCIDR reads them: the address is masked to its network.
// Gardener's scheduler compares network ranges only; a text that is not a CIDR overlaps nothing (admission rejects it).

export interface Cidr {
  family: 'IPv4' | 'IPv6';
  /** The network address, masked to the prefix. */
  network: bigint;
  prefix: number;
  bits: 32 | 128;
}

// Parsed CIDRs by text: a decision compares the same few ranges against every seed, and parsing is the costly part.
const parsed = new Map<string, Cidr | undefined>();
const MAX_CACHED = 10_000;

export function parseCidr(text: string): Cidr | undefined {
  if (parsed.has(text)) return parsed.get(text);
  const cidr = parseUncached(text);
  if (parsed.size >= MAX_CACHED) parsed.clear();
  parsed.set(text, cidr);
  return cidr;
}

function parseUncached(text: string): Cidr | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const address = text.slice(0, slash);
  const prefixText = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  const v4 = parseIPv4(address);
  if (v4 !== undefined) return prefix <= 32 ? { family: 'IPv4', network: mask(v4, prefix, 32), prefix, bits: 32 } : undefined;
  const v6 = parseIPv6(address);
  if (v6 !== undefined) return prefix <= 128 ? { family: 'IPv6', network: mask(v6, prefix, 128), prefix, bits: 128 } : undefined;
  return undefined;
}

/** True when both are CIDRs of the same family and share at least one address. */
export function cidrsIntersect(a: string, b: string): boolean {
  const x = parseCidr(a);
  const y = parseCidr(b);
  if (!x || !y || x.family !== y.family) return false;
  // Two ranges overlap iff one contains the other: compare both under the shorter prefix.
  const prefix = Math.min(x.prefix, y.prefix);
  if (x.family === 'IPv4') {
    // Plain numbers for IPv4 (the common case; BigInt arithmetic is far slower). A shift by 32 is no shift in JS.
    return prefix === 0 || Number(x.network) >>> (32 - prefix) === Number(y.network) >>> (32 - prefix);
  }
  return mask(x.network, prefix, x.bits) === mask(y.network, prefix, y.bits);
}

export function isIPv6Cidr(text: string): boolean {
  return parseCidr(text)?.family === 'IPv6';
}

/** The family of a CIDR, or undefined for text that is not one. */
export function cidrFamily(text: string): 'IPv4' | 'IPv6' | undefined {
  return parseCidr(text)?.family;
}

function mask(value: bigint, prefix: number, bits: number): bigint {
  const hostBits = BigInt(bits - prefix);
  return (value >> hostBits) << hostBits;
}

function parseIPv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    // Go refuses leading zeros (they were once read as octal by other tools).
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = (value << 8n) | BigInt(octet);
  }
  return value;
}

function parseIPv6(text: string): bigint | undefined {
  if (!text.includes(':')) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string): number[] | undefined => {
    if (half === '') return [];
    const out: number[] = [];
    const pieces = half.split(':');
    for (const [i, piece] of pieces.entries()) {
      // An IPv4 tail (::ffff:10.0.0.1) fills the last two groups.
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIPv4(piece);
        if (v4 === undefined) return undefined;
        out.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined;
      out.push(parseInt(piece, 16));
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return all.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}
