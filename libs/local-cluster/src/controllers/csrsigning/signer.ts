// The signing core of kube-controller-manager's csrsigning controller: which CertificateSigningRequests are due
// (approved, neither denied nor failed, no certificate yet, a signer we have a CA for), whether a request is valid for
// its signer (kube's per-signer usage and subject rules), and the certificate a CA issues for it: the request's public
// key, CN and O, client auth for the two client signers, server auth with the request's DNS names and IPs for
// kubelet-serving, backdated 5 minutes, valid for expirationSeconds capped by --cluster-signing-duration and by the
// CA's own expiry. Issuing is secrets-manager's pki; nothing here talks to the API server.
import 'reflect-metadata';
import { createPublicKey, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import {
  issueCertificate,
  loadCertificateAuthority,
  type CertificateAuthority,
  type CertType,
} from '@gardener-ts/secrets-manager';
import type { CertificateSigningRequest } from '../csrapproving/rules.js';
import {
  parseCertificateRequest,
  type CertificateRequestInfo,
} from '../csrapproving-kubelet-serving/certificate-request.js';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** The signers kube-controller-manager signs for (its legacy-unknown signer is not served here). */
export const SIGNER_NAMES = [
  'kubernetes.io/kube-apiserver-client',
  'kubernetes.io/kube-apiserver-client-kubelet',
  'kubernetes.io/kubelet-serving',
] as const;
export type SignerName = (typeof SIGNER_NAMES)[number];

/** kube's default --cluster-signing-duration: one year. */
export const DEFAULT_SIGNING_DURATION_SECONDS = 365 * 24 * 3600;
/** kube backdates issued certificates by 5 minutes against clock skew. */
const BACKDATE_MS = 5 * 60 * 1000;

/** The CAs by signer; a signer without one is left to someone else. */
export type SigningCAs = Partial<Record<SignerName, CertificateAuthority>>;

/** The outcome of signing: the certificate PEM, or why the request fails (a `Failed` condition). */
export type SigningResult = { certificate: string } | { failed: { reason: string; message: string } };

const isTrue = (csr: CertificateSigningRequest, type: string) =>
  (csr.status?.conditions ?? []).some((c) => c.type === type && c.status !== 'False');

/** Whether the CSR awaits a certificate from one of `signers`. */
export function needsSigning(csr: CertificateSigningRequest, signers: readonly string[]): boolean {
  return (
    signers.includes(csr.spec?.signerName ?? '') &&
    !csr.status?.certificate &&
    isTrue(csr, 'Approved') &&
    !isTrue(csr, 'Denied') &&
    !isTrue(csr, 'Failed')
  );
}

const CLIENT_USAGES = ['digital signature', 'key encipherment', 'client auth'];
const SERVING_USAGES = ['digital signature', 'key encipherment', 'server auth'];

function checkUsages(usages: readonly string[], allowed: string[], required: string): string | undefined {
  const invalid = usages.find((u) => !allowed.includes(u));
  if (invalid) return `invalid usage for ${required === 'client auth' ? 'client' : 'serving'} certificate: ${invalid}`;
  if (!usages.includes(required)) return `missing required usage: ${required}`;
  return undefined;
}

function checkNodeSubject(request: CertificateRequestInfo): string | undefined {
  if (request.organizations.length !== 1 || request.organizations[0] !== 'system:nodes')
    return 'organization must be exactly [system:nodes]';
  if (!request.commonName?.startsWith('system:node:')) return 'common name must start with "system:node:"';
  return undefined;
}

/** Why the request is not one `signer` issues (kube's per-signer validation), or undefined when it is. */
export function validateForSigner(
  signer: SignerName,
  usages: readonly string[],
  request: CertificateRequestInfo,
): string | undefined {
  switch (signer) {
    case 'kubernetes.io/kube-apiserver-client':
      return checkUsages(usages, CLIENT_USAGES, 'client auth');
    case 'kubernetes.io/kube-apiserver-client-kubelet':
      return (
        checkNodeSubject(request) ??
        (request.dnsNames.length + request.ipAddresses.length + request.otherNames > 0
          ? 'a kubelet client certificate has no subject alternative names'
          : undefined) ??
        checkUsages(usages, CLIENT_USAGES, 'client auth')
      );
    case 'kubernetes.io/kubelet-serving':
      return (
        checkNodeSubject(request) ??
        (request.dnsNames.length + request.ipAddresses.length === 0
          ? 'a kubelet serving certificate needs at least one DNS name or IP address'
          : undefined) ??
        (request.otherNames > 0 ? 'a kubelet serving certificate has only DNS names and IP addresses' : undefined) ??
        checkUsages(usages, SERVING_USAGES, 'server auth')
      );
  }
}

/** When a certificate issued at `now` expires: expirationSeconds capped by the signing duration and the CA's expiry. */
export function notAfterOf(
  now: Date,
  expirationSeconds: number | undefined,
  maxSeconds: number,
  caNotAfter: Date,
): Date {
  const seconds = Math.min(expirationSeconds ?? maxSeconds, maxSeconds);
  return new Date(Math.min(now.getTime() + seconds * 1000, caNotAfter.getTime()));
}

const CURVES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

// The request's public key as WebCrypto and Node see it.
async function publicKeyOf(request: x509.Pkcs10CertificateRequest) {
  const spki = Buffer.from(request.publicKey.rawData);
  const keyObject = createPublicKey({ key: spki, format: 'der', type: 'spki' });
  const type = keyObject.asymmetricKeyType;
  const curve = CURVES[keyObject.asymmetricKeyDetails?.namedCurve ?? ''];
  const algorithm =
    type === 'rsa'
      ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }
      : type === 'ec' && curve
        ? { name: 'ECDSA', namedCurve: curve }
        : undefined;
  if (!algorithm) throw new Error(`unsupported public key type ${type}`);
  const publicKey = await webcrypto.subtle.importKey('spki', spki, algorithm, true, ['verify']);
  return { publicKey, keyObject };
}

/**
 * Issues the certificate for an approved CSR of `signer` with `ca`, or says why it fails (reason
 * `SignerValidationFailure`: not a valid request for that signer; `SigningError`: an unreadable request).
 */
export async function signRequest(
  csr: CertificateSigningRequest,
  signer: SignerName,
  ca: CertificateAuthority,
  options: { now: Date; maxSeconds: number },
): Promise<SigningResult> {
  const fail = (reason: string, message: string): SigningResult => ({ failed: { reason, message } });
  const pem = Buffer.from(csr.spec?.request ?? '', 'base64').toString('latin1');
  let request: x509.Pkcs10CertificateRequest;
  let info: CertificateRequestInfo;
  try {
    info = parseCertificateRequest(pem);
    request = new x509.Pkcs10CertificateRequest(pem);
  } catch (err) {
    return fail('SigningError', `unable to parse csr: ${(err as Error).message}`);
  }
  const invalid = validateForSigner(signer, (csr.spec?.usages ?? []) as string[], info);
  if (invalid) return fail('SignerValidationFailure', invalid);
  if (!info.commonName) return fail('SignerValidationFailure', 'the request has no common name');
  let keys;
  try {
    if (!(await request.verify())) return fail('SigningError', 'the request is not signed by its own key');
    keys = await publicKeyOf(request);
  } catch (err) {
    return fail('SigningError', (err as Error).message);
  }
  const certType: CertType = signer === 'kubernetes.io/kubelet-serving' ? 'server' : 'client';
  const certificate = await issueCertificate({
    commonName: info.commonName,
    organization: info.organizations,
    dnsNames: certType === 'server' ? info.dnsNames : [],
    ipAddresses: certType === 'server' ? info.ipAddresses : [],
    certType,
    notBefore: new Date(options.now.getTime() - BACKDATE_MS),
    notAfter: notAfterOf(options.now, csr.spec?.expirationSeconds, options.maxSeconds, ca.certificate.notAfter),
    keys,
    signingCA: ca,
  });
  return { certificate: certificate.toString('pem') + '\n' };
}

/** The certificate and key files of one signer's CA (kube's --cluster-signing-*-{cert,key}-file). */
export interface SigningFiles {
  certFile: string;
  keyFile: string;
}

/** Loads each signer's CA from its files. */
export async function loadSigningCAs(
  files: Partial<Record<SignerName, SigningFiles>>,
  read: (path: string) => Promise<string>,
): Promise<SigningCAs> {
  const cas: SigningCAs = {};
  for (const signer of SIGNER_NAMES) {
    const f = files[signer];
    if (!f) continue;
    try {
      cas[signer] = await loadCertificateAuthority(await read(f.certFile), await read(f.keyFile));
    } catch (err) {
      throw new Error(`cannot load the CA of signer ${signer} from ${f.certFile} and ${f.keyFile}`, { cause: err });
    }
  }
  return cas;
}

// kube-controller-manager's flag prefix of each signer's files.
const FLAG_PREFIXES: Record<SignerName, string> = {
  'kubernetes.io/kube-apiserver-client': 'cluster-signing-kube-apiserver-client',
  'kubernetes.io/kube-apiserver-client-kubelet': 'cluster-signing-kubelet-client',
  'kubernetes.io/kubelet-serving': 'cluster-signing-kubelet-serving',
};

/** The signing flags (names without `--`) `gardener-local controller-manager` takes, as kube-controller-manager. */
export const SIGNING_FILE_FLAGS: readonly string[] = [
  'cluster-signing-cert-file',
  'cluster-signing-key-file',
  ...Object.values(FLAG_PREFIXES).flatMap((p) => [`${p}-cert-file`, `${p}-key-file`]),
];

/**
 * Which files sign for which signer, from kube-controller-manager's flags (`values` by flag name without `--`):
 * `--cluster-signing-{cert,key}-file` for every signer, or the per-signer pairs — not both, and a cert file always with
 * its key file (kube's rules). Throws a message for the user on a wrong combination.
 */
export function signingFilesFromFlags(
  values: Record<string, string | undefined>,
): Partial<Record<SignerName, SigningFiles>> {
  const pair = (prefix: string): SigningFiles | undefined => {
    const certFile = values[`${prefix}-cert-file`] || undefined;
    const keyFile = values[`${prefix}-key-file`] || undefined;
    if (!certFile !== !keyFile) throw new Error(`--${prefix}-cert-file and --${prefix}-key-file go together`);
    return certFile && keyFile ? { certFile, keyFile } : undefined;
  };
  const all = pair('cluster-signing');
  const perSigner = Object.fromEntries(
    SIGNER_NAMES.flatMap((s) => {
      const files = pair(FLAG_PREFIXES[s]);
      return files ? [[s, files]] : [];
    }),
  ) as Partial<Record<SignerName, SigningFiles>>;
  if (all && Object.keys(perSigner).length > 0)
    throw new Error(
      'cannot specify --cluster-signing-{cert,key}-file and the per-signer --cluster-signing-*-{cert,key}-file flags together',
    );
  return all ? Object.fromEntries(SIGNER_NAMES.map((s) => [s, all])) : perSigner;
}
