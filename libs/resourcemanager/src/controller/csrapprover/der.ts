// Reads what the approver needs from a PKCS#10 certificate request (PEM or DER): the subject's common name and
// organizations, and the DNS names and IP addresses of the subjectAltName extension.

interface Node {
  tag: number;
  /** The content octets. */
  body: Uint8Array;
}

export interface CertificateRequestInfo {
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  /** In canonical text form (IPv4 dotted, IPv6 RFC 5952). */
  ipAddresses: string[];
}

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  extensionRequest: '1.2.840.113549.1.9.14',
  subjectAltName: '2.5.29.17',
} as const;

function readNode(buf: Uint8Array, offset: number): { node: Node; next: number } {
  if (offset + 2 > buf.length) throw new Error('truncated DER');
  const tag = buf[offset]!;
  let len = buf[offset + 1]!;
  let pos = offset + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || pos + n > buf.length) throw new Error('unsupported DER length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[pos + i]!;
    pos += n;
  }
  if (pos + len > buf.length) throw new Error('truncated DER');
  return { node: { tag, body: buf.subarray(pos, pos + len) }, next: pos + len };
}

function children(node: Node): Node[] {
  const out: Node[] = [];
  for (let pos = 0; pos < node.body.length; ) {
    const { node: child, next } = readNode(node.body, pos);
    out.push(child);
    pos = next;
  }
  return out;
}

function oid(body: Uint8Array): string {
  const parts: number[] = [];
  let value = 0;
  for (const byte of body) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      if (parts.length === 0) parts.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
      else parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

function text(node: Node): string {
  if (node.tag === 0x1e) {
    let s = '';
    for (let i = 0; i + 1 < node.body.length; i += 2) s += String.fromCharCode(node.body[i]! * 256 + node.body[i + 1]!);
    return s;
  }
  return Buffer.from(node.body).toString(node.tag === 0x0c ? 'utf8' : 'latin1');
}

/** Canonical text of a 4- or 16-byte address; IPv4-mapped IPv6 addresses read as IPv4 (as Go prints them). */
export function formatIP(bytes: Uint8Array): string {
  if (bytes.length === 16 && bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) bytes = bytes.subarray(12);
  if (bytes.length === 4) return [...bytes].join('.');
  if (bytes.length !== 16) return `?${Buffer.from(bytes).toString('hex')}`;
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes[i]! * 256 + bytes[i + 1]!);
  // The longest run (at least two) of zero groups becomes '::'.
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

/** Bytes of an IP address in text form, or undefined if it is none. */
export function parseIP(s: string): Uint8Array | undefined {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(s)) {
    const parts = s.split('.').map(Number);
    return parts.every((p) => p <= 255) ? Uint8Array.from(parts) : undefined;
  }
  if (!/^[0-9a-fA-F:.]+$/.test(s) || !s.includes(':')) return undefined;
  let tail = s;
  const out: number[] = [];
  const v4 = /(\d{1,3}(\.\d{1,3}){3})$/.exec(s);
  let v4bytes: number[] = [];
  if (v4) {
    const b = parseIP(v4[1]!);
    if (!b) return undefined;
    v4bytes = [...b];
    tail = s.slice(0, -v4[1]!.length) + '0:0';
  }
  const halves = tail.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const fill = 8 - head.length - rest.length;
  if ((halves.length === 1 && fill !== 0) || fill < 0 || (halves.length === 2 && fill < 1)) return undefined;
  for (const g of [...head, ...Array(halves.length === 2 ? fill : 0).fill('0'), ...rest]) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
    const v = parseInt(g, 16);
    out.push(v >> 8, v & 0xff);
  }
  if (v4) out.splice(12, 4, ...v4bytes);
  return Uint8Array.from(out);
}

/** The DER bytes of a PEM `CERTIFICATE REQUEST` block, or the input itself if it is DER already. */
function derOf(request: Uint8Array): Uint8Array {
  const asText = Buffer.from(request).toString('latin1');
  const pem = /-----BEGIN (?:NEW )?CERTIFICATE REQUEST-----([\s\S]*?)-----END (?:NEW )?CERTIFICATE REQUEST-----/.exec(asText);
  if (pem) return Buffer.from(pem[1]!.replace(/\s+/g, ''), 'base64');
  if (asText.includes('-----BEGIN')) throw new Error('PEM block type must be CERTIFICATE REQUEST');
  return request;
}

/** Parses a certificate request (PEM or DER bytes); throws if it is not one. */
export function parseCertificateRequest(request: Uint8Array): CertificateRequestInfo {
  const root = readNode(derOf(request), 0).node;
  if (root.tag !== 0x30) throw new Error('not a certificate request');
  const info = children(root)[0];
  if (!info || info.tag !== 0x30) throw new Error('not a certificate request');
  const [, subject, , attributes] = children(info);
  if (!subject || subject.tag !== 0x30) throw new Error('certificate request has no subject');
  const out: CertificateRequestInfo = { commonName: '', organizations: [], dnsNames: [], ipAddresses: [] };
  for (const rdn of children(subject)) {
    for (const atv of children(rdn)) {
      const [type, value] = children(atv);
      if (!type || !value) continue;
      const id = oid(type.body);
      if (id === OID.commonName) out.commonName = text(value);
      if (id === OID.organization) out.organizations.push(text(value));
    }
  }
  if (attributes && attributes.tag === 0xa0) {
    for (const attribute of children(attributes)) {
      const [type, values] = children(attribute);
      if (!type || !values || oid(type.body) !== OID.extensionRequest) continue;
      for (const extensions of children(values)) {
        for (const extension of children(extensions)) {
          const parts = children(extension);
          if (oid(parts[0]!.body) !== OID.subjectAltName) continue;
          const value = parts[parts.length - 1]!;
          for (const name of children(readNode(value.body, 0).node)) {
            if (name.tag === 0x82) out.dnsNames.push(Buffer.from(name.body).toString('latin1'));
            if (name.tag === 0x87) out.ipAddresses.push(formatIP(name.body));
          }
        }
      }
    }
  }
  return out;
}
