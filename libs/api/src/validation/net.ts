// CIDR parsing and overlap checks for IPv4 and IPv6 networks.

export interface CIDR {
  family: 'IPv4' | 'IPv6';
  /** The network address as a number of `bits` bits. */
  address: bigint;
  prefix: number;
  bits: 32 | 128;
}

function parseIPv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function parseIPv6(text: string): bigint | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.split('::').length > 2) return undefined;
  let groups: string[];
  const [head, tail] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail === undefined ? [] : tail ? tail.split(':') : [];
  // An embedded IPv4 address counts as two groups.
  const expand = (list: string[]): string[] | undefined => {
    const last = list[list.length - 1];
    if (last?.includes('.')) {
      const v4 = parseIPv4(last);
      if (v4 === undefined) return undefined;
      return [...list.slice(0, -1), (v4 >> 16n).toString(16), (v4 & 0xffffn).toString(16)];
    }
    return list;
  };
  const h = tail === undefined ? expand(headGroups) : headGroups;
  const t = expand(tailGroups);
  if (!h || !t) return undefined;
  if (tail === undefined) {
    if (h.length !== 8) return undefined;
    groups = h;
  } else {
    const missing = 8 - h.length - t.length;
    if (missing < 1) return undefined;
    groups = [...h, ...Array<string>(missing).fill('0'), ...t];
  }
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
    value = (value << 16n) | BigInt(`0x${group}`);
  }
  return value;
}

export function parseIP(text: string): { family: 'IPv4' | 'IPv6'; value: bigint } | undefined {
  const v4 = parseIPv4(text);
  if (v4 !== undefined) return { family: 'IPv4', value: v4 };
  const v6 = text.includes(':') ? parseIPv6(text) : undefined;
  return v6 === undefined ? undefined : { family: 'IPv6', value: v6 };
}

export interface ParsedCIDR extends CIDR {
  /** The address was the network address (no host bits set), as Gardener requires for network ranges. */
  canonical: boolean;
}

export function parseCIDR(text: string): ParsedCIDR | undefined {
  const [ip, prefixText, ...rest] = text.split('/');
  if (rest.length > 0 || prefixText === undefined || !/^(0|[1-9][0-9]{0,2})$/.test(prefixText)) return undefined;
  const parsed = parseIP(ip);
  if (!parsed) return undefined;
  const bits = parsed.family === 'IPv4' ? 32 : 128;
  const prefix = Number(prefixText);
  if (prefix > bits) return undefined;
  const hostMask = (1n << BigInt(bits - prefix)) - 1n;
  const address = parsed.value & ~hostMask;
  return { family: parsed.family, address, prefix, bits, canonical: address === parsed.value };
}

export function formatCIDR(cidr: CIDR): string {
  if (cidr.family === 'IPv4') {
    const octets = [24n, 16n, 8n, 0n].map((shift) => ((cidr.address >> shift) & 0xffn).toString());
    return `${octets.join('.')}/${cidr.prefix}`;
  }
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(((cidr.address >> shift) & 0xffffn).toString(16));
  return `${groups.join(':')}/${cidr.prefix}`;
}

/** Two networks overlap when one contains the other's network address. */
export function cidrsOverlap(a: CIDR, b: CIDR): boolean {
  if (a.family !== b.family) return false;
  const prefix = Math.min(a.prefix, b.prefix);
  const shift = BigInt(a.bits - prefix);
  return a.address >> shift === b.address >> shift;
}
