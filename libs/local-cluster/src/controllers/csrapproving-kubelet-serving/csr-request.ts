// Just enough of PKCS#10 (RFC 2986) to review a kubelet-serving request: the subject's CN and O values and the
// DNS names and IP addresses of its subjectAltName extension request. A DER reader, no signature check (the signer
// checks that the request is signed by its own key).
import { isIPv4, isIPv6, SocketAddress } from 'node:net';

export interface CertificateRequestInfo {
  commonName?: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
  /** SAN entries other than DNS names and IPs (emails, URIs): kubelet-serving allows none. */
  otherNames: number;
}

interface Element {
  tag: number;
  /** Content bytes. */
  body: Buffer;
  /** Bytes after this element. */
  rest: Buffer;
}

const OID_CN = '2.5.4.3';
const OID_O = '2.5.4.10';
const OID_EXTENSION_REQUEST = '1.2.840.113549.1.9.14';
const OID_SAN = '2.5.29.17';

function read(buf: Buffer): Element {
  if (buf.length < 2) throw new Error('truncated DER');
  const tag = buf[0];
  let length = buf[1];
  let offset = 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4 || buf.length < 2 + bytes) throw new Error('unsupported DER length');
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + buf[2 + i];
    offset += bytes;
  }
  if (buf.length < offset + length) throw new Error('truncated DER');
  return { tag, body: buf.subarray(offset, offset + length), rest: buf.subarray(offset + length) };
}

function children(buf: Buffer): Element[] {
  const out: Element[] = [];
  while (buf.length > 0) {
    const element = read(buf);
    out.push(element);
    buf = element.rest;
  }
  return out;
}

function oid(body: Buffer): string {
  const parts = [Math.floor(body[0] / 40), body[0] % 40];
  let value = 0;
  for (const byte of body.subarray(1)) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

function ip(bytes: Buffer): string {
  if (bytes.length === 4) return [...bytes].join('.');
  const groups: string[] = [];
  for (let i = 0; i + 1 < bytes.length; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return canonicalIP(groups.join(':'));
}

/** An address in its canonical text form (IPv6 compressed, lower case), so `0:0:0:0:0:0:0:1` equals `::1`. */
export function canonicalIP(address: string): string {
  const family = isIPv6(address) ? 'ipv6' : isIPv4(address) ? 'ipv4' : undefined;
  return family ? new SocketAddress({ address, family }).address : address;
}

/** Reads a PEM (or DER) CERTIFICATE REQUEST. Throws when it is not one. */
export function parseCertificateRequest(pemOrDer: string | Buffer): CertificateRequestInfo {
  const text = typeof pemOrDer === 'string' ? pemOrDer : pemOrDer.toString('latin1');
  const pem = /-----BEGIN (?:NEW )?CERTIFICATE REQUEST-----([\s\S]*?)-----END (?:NEW )?CERTIFICATE REQUEST-----/.exec(text);
  const der = pem ? Buffer.from(pem[1].replace(/\s+/g, ''), 'base64') : typeof pemOrDer === 'string' ? Buffer.from(pemOrDer, 'latin1') : pemOrDer;
  const [info] = children(read(der).body);
  const [, subject, , attributes] = children(info.body);
  const result: CertificateRequestInfo = { organizations: [], dnsNames: [], ipAddresses: [], otherNames: 0 };
  for (const rdn of children(subject.body)) {
    for (const attribute of children(rdn.body)) {
      const [type, value] = children(attribute.body);
      const name = oid(type.body);
      if (name === OID_CN) result.commonName = value.body.toString('utf8');
      else if (name === OID_O) result.organizations.push(value.body.toString('utf8'));
    }
  }
  for (const attribute of attributes && attributes.tag === 0xa0 ? children(attributes.body) : []) {
    const [type, values] = children(attribute.body);
    if (oid(type.body) !== OID_EXTENSION_REQUEST) continue;
    for (const extensions of children(values.body)) {
      for (const extension of children(extensions.body)) {
        const parts = children(extension.body);
        if (oid(parts[0].body) !== OID_SAN) continue;
        const names = children(read(parts[parts.length - 1].body).body);
        for (const name of names) {
          if (name.tag === 0x82) result.dnsNames.push(name.body.toString('ascii'));
          else if (name.tag === 0x87) result.ipAddresses.push(ip(name.body));
          else result.otherNames++;
        }
      }
    }
  }
  return result;
}

