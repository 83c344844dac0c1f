// Which CertificateSigningRequests are gardenlet client certificates for a seed (Gardener's IsSeedClientCert): the
// subject's organization is exactly `gardener.cloud:system:seeds`, the common name starts with
// `gardener.cloud:system:seed:`, no DNS names, e-mail addresses or IP addresses, and exactly the usages
// `key encipherment`, `digital signature` and `client auth`.
import 'reflect-metadata';
import { Pkcs10CertificateRequest, SubjectAlternativeNameExtension } from '@peculiar/x509';

/** The group every gardenlet's client certificate carries as its organization. */
export const SeedsGroup = 'gardener.cloud:system:seeds';
/** The prefix of a gardenlet's user name: `gardener.cloud:system:seed:<seed name>`. */
export const SeedUserNamePrefix = 'gardener.cloud:system:seed:';
/** The key usages a seed client CSR must request, no more and no fewer. */
export const SeedClientUsages = ['key encipherment', 'digital signature', 'client auth'] as const;

/** What the seed client rules look at in a PKCS#10 certificate request. */
export interface CertificateRequestSubject {
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  emailAddresses: string[];
  ipAddresses: string[];
}

const SUBJECT_ALT_NAME = '2.5.29.17';
const PEM_REQUEST = /-----BEGIN (?:NEW )?CERTIFICATE REQUEST-----([\s\S]*?)-----END (?:NEW )?CERTIFICATE REQUEST-----/;

/** Parses `spec.request` (PEM bytes, as a CSR carries them); throws when it is no PEM certificate request. */
export function parseSeedCertificateRequest(request: Uint8Array): CertificateRequestSubject {
  const pem = PEM_REQUEST.exec(Buffer.from(request).toString('latin1'));
  if (!pem) throw new Error('PEM block type must be CERTIFICATE REQUEST');
  const csr = new Pkcs10CertificateRequest(Buffer.from(pem[1]!.replace(/\s+/g, ''), 'base64'));
  const out: CertificateRequestSubject = {
    commonName: csr.subjectName.getField('CN')[0] ?? '',
    organizations: csr.subjectName.getField('O'),
    dnsNames: [],
    emailAddresses: [],
    ipAddresses: [],
  };
  for (const extension of csr.getExtensions(SUBJECT_ALT_NAME)) {
    for (const name of new SubjectAlternativeNameExtension(extension.rawData).names.items) {
      if (name.type === 'dns') out.dnsNames.push(name.value);
      else if (name.type === 'email') out.emailAddresses.push(name.value);
      else if (name.type === 'ip') out.ipAddresses.push(name.value);
    }
  }
  return out;
}

/** The verdict on a request: a seed client certificate, or why not (Gardener's reasons). */
export type SeedClientVerdict = { ok: true } | { ok: false; reason: string };

/** Whether the request and its usages match a gardenlet client certificate for a seed. Pure. */
export function isSeedClientCert(subject: CertificateRequestSubject, usages: readonly string[]): SeedClientVerdict {
  if (subject.organizations.length !== 1 || subject.organizations[0] !== SeedsGroup) {
    return { ok: false, reason: `subject's organization is not set to [${SeedsGroup}]` };
  }
  if (subject.dnsNames.length > 0 || subject.emailAddresses.length > 0 || subject.ipAddresses.length > 0) {
    return { ok: false, reason: 'DNSNames, EmailAddresses and IPAddresses fields must be empty' };
  }
  if (!hasExactUsages(usages, SeedClientUsages)) {
    return { ok: false, reason: `key usages are not set to [${SeedClientUsages.join(' ')}]` };
  }
  if (!subject.commonName.startsWith(SeedUserNamePrefix)) {
    return { ok: false, reason: `CommonName does not start with "${SeedUserNamePrefix}"` };
  }
  return { ok: true };
}

/** The same set of usages, each once (order does not matter). */
function hasExactUsages(usages: readonly string[], required: readonly string[]): boolean {
  if (usages.length !== required.length) return false;
  const have = new Set(usages);
  return required.every((u) => have.has(u));
}
