// What the approver reads from a PKCS#10 certificate request (PEM or DER), parsed with @peculiar/x509: the subject's
// common name and organizations, and the DNS names and IP addresses of its subjectAltName extension request.
import 'reflect-metadata';
import { isIPv4, isIPv6, SocketAddress } from 'node:net';
import { Pkcs10CertificateRequest, SubjectAlternativeNameExtension } from '@peculiar/x509';

/** The parts of a certificate request the kubelet-serving rules look at. */
export interface CertificateRequestInfo {
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  /** In canonical text form (IPv4 dotted, IPv6 RFC 5952, IPv4-mapped IPv6 as IPv4). */
  ipAddresses: string[];
}

const SUBJECT_ALT_NAME = '2.5.29.17';
const PEM_REQUEST = /-----BEGIN (?:NEW )?CERTIFICATE REQUEST-----([\s\S]*?)-----END (?:NEW )?CERTIFICATE REQUEST-----/;

/** Parses a certificate request (PEM or DER bytes); throws if it is not one. */
export function parseCertificateRequest(request: Uint8Array): CertificateRequestInfo {
  const text = Buffer.from(request).toString('latin1');
  const pem = PEM_REQUEST.exec(text);
  if (!pem && text.includes('-----BEGIN')) throw new Error('PEM block type must be CERTIFICATE REQUEST');
  const der = pem ? Buffer.from(pem[1]!.replace(/\s+/g, ''), 'base64') : Buffer.from(request);
  const csr = new Pkcs10CertificateRequest(der);
  const out: CertificateRequestInfo = {
    commonName: csr.subjectName.getField('CN')[0] ?? '',
    organizations: csr.subjectName.getField('O'),
    dnsNames: [],
    ipAddresses: [],
  };
  for (const extension of csr.getExtensions(SUBJECT_ALT_NAME)) {
    for (const name of new SubjectAlternativeNameExtension(extension.rawData).names.items) {
      if (name.type === 'dns') out.dnsNames.push(name.value);
      else if (name.type === 'ip') out.ipAddresses.push(canonicalIP(name.value));
    }
  }
  return out;
}

/**
 * An IP address in canonical text form (IPv6 compressed and lower case, IPv4-mapped IPv6 as IPv4, as Go prints
 * them), so `2001:db8:0:0:0:0:0:1` equals `2001:db8::1`; anything that is no IP address is returned unchanged.
 */
export function canonicalIP(address: string): string {
  if (isIPv4(address)) return new SocketAddress({ address, family: 'ipv4' }).address;
  if (!isIPv6(address)) return address;
  const text = new SocketAddress({ address, family: 'ipv6' }).address;
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(text);
  if (mapped) {
    const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
  }
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  return dotted ? dotted[1]! : text;
}
