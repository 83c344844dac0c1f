// The gardenlet's CertificateSigningRequest (Gardener's TLS bootstrapping, modelled on the kubelet's): a fresh ECDSA
// P-256 key, a PKCS#10 request for `CN=gardener.cloud:system:seed:<seed>, O=gardener.cloud:system:seeds`, and the CSR
// object for signer `kubernetes.io/kube-apiserver-client` with the client usages. Keys come from WebCrypto.
import { createHash, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { CLIENT_SIGNER, CSR_NAME_PREFIX, SEED_USER_PREFIX, SEEDS_GROUP } from '../constants.js';

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** The user a gardenlet of `seedName` authenticates as. */
export const seedUserName = (seedName: string) => `${SEED_USER_PREFIX}${seedName}`;

/** The certificate subject of a gardenlet (as an X.500 name string). */
export const seedSubject = (seedName: string) => `CN=${seedUserName(seedName)}, O=${SEEDS_GROUP}`;

export interface CertificateRequest {
  csrPem: string;
  keyPem: string;
}

/** A new key and a certificate request for the seed's identity. */
export async function generateCertificateRequest(seedName: string): Promise<CertificateRequest> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: seedSubject(seedName),
    keys: keys as unknown as Parameters<typeof x509.Pkcs10CertificateRequestGenerator.create>[0]['keys'],
    signingAlgorithm: ALG,
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { csrPem: csr.toString('pem'), keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') };
}

/** The CertificateSigningRequest object; its name is derived from the request, so a retry of the same request is idempotent. */
export function certificateSigningRequest(csrPem: string, validitySeconds?: number): Record<string, unknown> {
  const digest = createHash('sha256').update(csrPem).digest('hex').slice(0, 16);
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: `${CSR_NAME_PREFIX}${digest}` },
    spec: {
      request: Buffer.from(csrPem, 'utf8').toString('base64'),
      signerName: CLIENT_SIGNER,
      usages: ['digital signature', 'key encipherment', 'client auth'],
      ...(validitySeconds !== undefined ? { expirationSeconds: Math.floor(validitySeconds) } : {}),
    },
  };
}

/** `notBefore`/`notAfter` and subject of a PEM certificate. */
export function certificateInfo(certPem: string): { notBefore: Date; notAfter: Date; subject: string } {
  const cert = new x509.X509Certificate(certPem);
  return { notBefore: cert.notBefore, notAfter: cert.notAfter, subject: cert.subject };
}
