// What the approver reviews in a PKCS#10 (RFC 2986) request, parsed with @peculiar/x509: the subject's CN and O values
// and the DNS names and IP addresses of its subjectAltName extension request. No signature check (the signer checks
// that the request is signed by its own key).
import 'reflect-metadata';
import { isIPv4, isIPv6, SocketAddress } from 'node:net';
import { Pkcs10CertificateRequest, SubjectAlternativeNameExtension } from '@peculiar/x509';

/** The parts of a certificate request the kubelet-serving rules look at. */
export interface CertificateRequestInfo {
  commonName?: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
  /** SAN entries other than DNS names and IPs (emails, URIs, other names): kubelet-serving allows none. */
  otherNames: number;
}

const SUBJECT_ALT_NAME = '2.5.29.17';
const PEM_REQUEST = /-----BEGIN (?:NEW )?CERTIFICATE REQUEST-----([\s\S]*?)-----END (?:NEW )?CERTIFICATE REQUEST-----/;

/** Reads a PEM (or DER) CERTIFICATE REQUEST. Throws when it is not one. */
export function parseCertificateRequest(pemOrDer: string | Buffer): CertificateRequestInfo {
  const text = typeof pemOrDer === 'string' ? pemOrDer : pemOrDer.toString('latin1');
  const pem = PEM_REQUEST.exec(text);
  const der = pem
    ? Buffer.from(pem[1].replace(/\s+/g, ''), 'base64')
    : typeof pemOrDer === 'string'
      ? Buffer.from(pemOrDer, 'latin1')
      : pemOrDer;
  const csr = new Pkcs10CertificateRequest(der);
  const result: CertificateRequestInfo = {
    commonName: csr.subjectName.getField('CN')[0],
    organizations: csr.subjectName.getField('O'),
    dnsNames: [],
    ipAddresses: [],
    otherNames: 0,
  };
  for (const extension of csr.getExtensions(SUBJECT_ALT_NAME)) {
    let names;
    try {
      names = new SubjectAlternativeNameExtension(extension.rawData).names.items;
    } catch {
      // Names the library cannot represent (otherName, X.400, EDI party): none of them is a DNS name or an IP.
      result.otherNames++;
      continue;
    }
    for (const name of names) {
      if (name.type === 'dns') result.dnsNames.push(name.value);
      else if (name.type === 'ip') result.ipAddresses.push(canonicalIP(name.value));
      else result.otherNames++;
    }
  }
  return result;
}

/** An address in its canonical text form (IPv6 compressed, lower case), so `0:0:0:0:0:0:0:1` equals `::1`. */
export function canonicalIP(address: string): string {
  const family = isIPv6(address) ? 'ipv6' : isIPv4(address) ? 'ipv4' : undefined;
  return family ? new SocketAddress({ address, family }).address : address;
}
