// Seed client CertificateSigningRequests (Gardener's `IsSeedClientCert` and `seedidentity.FromCertificateSigningRequest`):
// the PKCS#10 request of a gardenlet's client certificate names its seed in the common name
// `gardener.cloud:system:seed:<seed>`, has exactly the organization `gardener.cloud:system:seeds`, no DNS names, e-mail
// or IP addresses, and asks for exactly the usages `key encipherment`, `digital signature` and `client auth`. The
// SeedAuthorizer's graph connects such a CSR to the seed it names; SeedRestriction admits creating one only for the
// gardenlet's own seed.
import 'reflect-metadata';
import { Pkcs10CertificateRequest, SubjectAlternativeNameExtension } from '@peculiar/x509';
import type { KubeObject } from '../attributes.js';

const SEEDS_ORGANIZATION = 'gardener.cloud:system:seeds';
const SEED_COMMON_NAME_PREFIX = 'gardener.cloud:system:seed:';
const SEED_CLIENT_USAGES = ['key encipherment', 'digital signature', 'client auth'];
const SUBJECT_ALT_NAME = '2.5.29.17';
const PEM_REQUEST = /-----BEGIN (?:NEW )?CERTIFICATE REQUEST-----([\s\S]*?)-----END (?:NEW )?CERTIFICATE REQUEST-----/;

/** What the seed client rules read from a certificate request. */
export interface CertificateRequestSubject {
  commonName: string;
  organizations: string[];
  /** DNS names, e-mail and IP addresses of its subject alternative names. */
  alternativeNames: string[];
}

/** Parses a PEM certificate request (a CSR's `spec.request`, decoded from base64); undefined when it is none. */
export function parseCertificateRequest(pemText: string): CertificateRequestSubject | undefined {
  const pem = PEM_REQUEST.exec(pemText);
  if (!pem) return undefined;
  try {
    const csr = new Pkcs10CertificateRequest(Buffer.from(pem[1]!.replace(/\s+/g, ''), 'base64'));
    const alternativeNames: string[] = [];
    for (const extension of csr.getExtensions(SUBJECT_ALT_NAME)) {
      for (const n of new SubjectAlternativeNameExtension(extension.rawData).names.items) {
        if (n.type === 'dns' || n.type === 'email' || n.type === 'ip') alternativeNames.push(n.value);
      }
    }
    return {
      commonName: csr.subjectName.getField('CN')[0] ?? '',
      organizations: csr.subjectName.getField('O'),
      alternativeNames,
    };
  } catch {
    return undefined;
  }
}

/** The verdict on a request: the seed a seed client certificate is for, or why it is none (Gardener's reasons). */
export type SeedClientVerdict = { ok: true; seed: string } | { ok: false; reason: string };

/** Whether `subject` with `usages` is a seed client certificate request, and for which seed. Pure. */
export function seedClientVerdict(subject: CertificateRequestSubject, usages: readonly string[]): SeedClientVerdict {
  if (subject.organizations.length !== 1 || subject.organizations[0] !== SEEDS_ORGANIZATION)
    return { ok: false, reason: `subject's organization is not set to [${SEEDS_ORGANIZATION}]` };
  if (subject.alternativeNames.length > 0)
    return { ok: false, reason: 'DNSNames, EmailAddresses and IPAddresses fields must be empty' };
  const have = new Set(usages);
  if (usages.length !== SEED_CLIENT_USAGES.length || !SEED_CLIENT_USAGES.every((u) => have.has(u)))
    return { ok: false, reason: `key usages are not set to [${SEED_CLIENT_USAGES.join(' ')}]` };
  if (!subject.commonName.startsWith(SEED_COMMON_NAME_PREFIX))
    return { ok: false, reason: `CommonName does not start with "${SEED_COMMON_NAME_PREFIX}"` };
  return { ok: true, seed: subject.commonName.slice(SEED_COMMON_NAME_PREFIX.length) };
}

/** The verdict on a CertificateSigningRequest object (`spec.request` base64 PEM, `spec.usages`). */
export function seedClientVerdictOfCSR(csr: KubeObject): SeedClientVerdict {
  const request =
    typeof csr.spec?.request === 'string' ? Buffer.from(csr.spec.request, 'base64').toString('latin1') : '';
  const subject = parseCertificateRequest(request);
  if (!subject) return { ok: false, reason: 'PEM block type must be CERTIFICATE REQUEST' };
  const usages: unknown = csr.spec?.usages;
  return seedClientVerdict(subject, Array.isArray(usages) ? usages.filter((u) => typeof u === 'string') : []);
}
