import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  generateKeyPair,
  issueCertificate,
  privateKeyPem,
  verifyCertificate,
  type CertificateAuthority,
  type KeySpec,
} from '@gardener-ts/secrets-manager';
import type { CertificateSigningRequest } from '../csrapproving/rules.js';
import {
  loadSigningCAs,
  needsSigning,
  notAfterOf,
  signingFilesFromFlags,
  signRequest,
  SIGNER_NAMES,
} from './signer.js';

const NOW = new Date('2026-11-25T04:00:00Z');

async function makeCA(spec: KeySpec): Promise<CertificateAuthority> {
  const keys = await generateKeyPair(spec);
  const certificate = await issueCertificate({
    commonName: 'ca-client',
    certType: 'ca',
    notBefore: new Date(NOW.getTime() - 3600_000),
    notAfter: new Date(NOW.getTime() + 10 * 365 * 86400_000),
    keys,
  });
  return { certificate, certificatePem: certificate.toString('pem'), keys };
}

// A PKCS#10 request as client-go's certificate.MakeCSR writes it (ECDSA P-256 key, subject, SANs).
async function makeRequest(subject: string, sans: x509.JsonGeneralName[] = []) {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const request = await x509.Pkcs10CertificateRequestGenerator.create({
    name: subject,
    keys: keys as unknown as Parameters<typeof x509.Pkcs10CertificateRequestGenerator.create>[0]['keys'],
    signingAlgorithm: algorithm,
    extensions: sans.length ? [new x509.SubjectAlternativeNameExtension(sans)] : [],
  });
  return { request, pem: request.toString('pem') };
}

function csrOf(pem: string, signerName: string, usages: string[], extra: object = {}): CertificateSigningRequest {
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'csr-1' },
    spec: { request: Buffer.from(pem).toString('base64'), signerName, usages, ...extra },
    status: { conditions: [{ type: 'Approved', status: 'True', reason: 'AutoApproved' }] },
  } as CertificateSigningRequest;
}

const CLIENT_USAGES = ['digital signature', 'key encipherment', 'client auth'];

describe('signRequest', () => {
  for (const spec of [{ algorithm: 'RSA', bits: 2048 }, { algorithm: 'ECDSA' }] as KeySpec[])
    it(`issues a client certificate for gardener-node-agent's request, signed by a ${spec.algorithm} CA`, async () => {
      const ca = await makeCA(spec);
      const { request, pem } = await makeRequest(
        'CN=gardener.cloud:node-agent:machine-0, O=gardener.cloud:node-agents',
      );
      const result = await signRequest(
        csrOf(pem, 'kubernetes.io/kube-apiserver-client', CLIENT_USAGES, { expirationSeconds: 3600 }),
        'kubernetes.io/kube-apiserver-client',
        ca,
        { now: NOW, maxSeconds: 365 * 86400 },
      );
      if (!('certificate' in result)) throw new Error(JSON.stringify(result));
      const cert = new x509.X509Certificate(result.certificate);
      expect(await verifyCertificate(result.certificate, ca.certificatePem, NOW)).toBe(true);
      expect(cert.issuer).toBe(ca.certificate.subject);
      expect(cert.subjectName.getField('CN')).toEqual(['gardener.cloud:node-agent:machine-0']);
      expect(cert.subjectName.getField('O')).toEqual(['gardener.cloud:node-agents']);
      expect(Buffer.from(cert.publicKey.rawData)).toEqual(Buffer.from(request.publicKey.rawData));
      expect(cert.getExtension(x509.ExtendedKeyUsageExtension)?.usages).toEqual([x509.ExtendedKeyUsage.clientAuth]);
      expect(cert.getExtension(x509.BasicConstraintsExtension)?.ca).toBe(false);
      expect(cert.notAfter.getTime()).toBe(NOW.getTime() + 3600_000);
    });

  it('issues a kubelet serving certificate with the request’s DNS names and IPs, for server auth', async () => {
    const ca = await makeCA({ algorithm: 'ECDSA' });
    const { pem } = await makeRequest('CN=system:node:machine-0, O=system:nodes', [
      { type: 'dns', value: 'machine-0' },
      { type: 'ip', value: '10.0.0.5' },
    ]);
    const result = await signRequest(
      csrOf(pem, 'kubernetes.io/kubelet-serving', ['digital signature', 'server auth']),
      'kubernetes.io/kubelet-serving',
      ca,
      { now: NOW, maxSeconds: 30 * 86400 },
    );
    if (!('certificate' in result)) throw new Error(JSON.stringify(result));
    const cert = new x509.X509Certificate(result.certificate);
    expect(cert.getExtension(x509.ExtendedKeyUsageExtension)?.usages).toEqual([x509.ExtendedKeyUsage.serverAuth]);
    expect(cert.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON()).toEqual([
      { type: 'dns', value: 'machine-0' },
      { type: 'ip', value: '10.0.0.5' },
    ]);
    expect(cert.notAfter.getTime()).toBe(NOW.getTime() + 30 * 86400_000);
  });

  it('fails requests a signer does not issue, saying why', async () => {
    const ca = await makeCA({ algorithm: 'ECDSA' });
    const { pem } = await makeRequest('CN=alice');
    const serverUsage = await signRequest(
      csrOf(pem, 'kubernetes.io/kube-apiserver-client', ['digital signature', 'server auth']),
      'kubernetes.io/kube-apiserver-client',
      ca,
      { now: NOW, maxSeconds: 86400 },
    );
    expect(serverUsage).toEqual({
      failed: { reason: 'SignerValidationFailure', message: 'invalid usage for client certificate: server auth' },
    });
    const notANode = await signRequest(
      csrOf(pem, 'kubernetes.io/kube-apiserver-client-kubelet', CLIENT_USAGES),
      'kubernetes.io/kube-apiserver-client-kubelet',
      ca,
      { now: NOW, maxSeconds: 86400 },
    );
    expect(notANode).toMatchObject({ failed: { reason: 'SignerValidationFailure' } });
    const garbage = await signRequest(
      csrOf('not a request', 'kubernetes.io/kube-apiserver-client', CLIENT_USAGES),
      'kubernetes.io/kube-apiserver-client',
      ca,
      { now: NOW, maxSeconds: 86400 },
    );
    expect(garbage).toMatchObject({ failed: { reason: 'SigningError' } });
  });
});

describe('needsSigning', () => {
  const signers = ['kubernetes.io/kube-apiserver-client'];
  const base = csrOf('x', 'kubernetes.io/kube-apiserver-client', CLIENT_USAGES);
  it('takes approved, unsigned requests of our signers only', () => {
    expect(needsSigning(base, signers)).toBe(true);
    expect(needsSigning({ ...base, status: {} }, signers)).toBe(false);
    expect(needsSigning({ ...base, status: { ...base.status, certificate: 'Y2VydA==' } }, signers)).toBe(false);
    expect(needsSigning({ ...base, spec: { ...base.spec!, signerName: 'example.com/other' } }, signers)).toBe(false);
    for (const type of ['Denied', 'Failed'])
      expect(
        needsSigning(
          { ...base, status: { conditions: [...base.status!.conditions!, { type, status: 'True' } as never] } },
          signers,
        ),
      ).toBe(false);
  });
});

describe('notAfterOf', () => {
  it('never exceeds the signing duration nor the CA, and honours a shorter expirationSeconds', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 600, max: 10 * 365 * 86400 }), { nil: undefined }),
        fc.integer({ min: 600, max: 10 * 365 * 86400 }),
        fc.integer({ min: 1, max: 20 * 365 * 86400 }),
        (expiration, max, caSeconds) => {
          const caNotAfter = new Date(NOW.getTime() + caSeconds * 1000);
          const notAfter = notAfterOf(NOW, expiration, max, caNotAfter).getTime();
          expect(notAfter).toBe(
            Math.min(NOW.getTime() + Math.min(expiration ?? max, max) * 1000, caNotAfter.getTime()),
          );
          expect(notAfter).toBeLessThanOrEqual(caNotAfter.getTime());
        },
      ),
    );
  });
});

describe('signingFilesFromFlags', () => {
  it('reads the one CA for all signers, or per-signer CAs as Gardener passes them, but not both', () => {
    const all = signingFilesFromFlags({
      'cluster-signing-cert-file': '/ca.crt',
      'cluster-signing-key-file': '/ca.key',
    });
    expect(Object.keys(all)).toEqual([...SIGNER_NAMES]);
    expect(
      signingFilesFromFlags({
        'cluster-signing-kube-apiserver-client-cert-file': '/srv/kubernetes/ca-client/ca.crt',
        'cluster-signing-kube-apiserver-client-key-file': '/srv/kubernetes/ca-client/ca.key',
        'cluster-signing-kubelet-serving-cert-file': '/srv/kubernetes/ca-kubelet/ca.crt',
        'cluster-signing-kubelet-serving-key-file': '/srv/kubernetes/ca-kubelet/ca.key',
      }),
    ).toEqual({
      'kubernetes.io/kube-apiserver-client': {
        certFile: '/srv/kubernetes/ca-client/ca.crt',
        keyFile: '/srv/kubernetes/ca-client/ca.key',
      },
      'kubernetes.io/kubelet-serving': {
        certFile: '/srv/kubernetes/ca-kubelet/ca.crt',
        keyFile: '/srv/kubernetes/ca-kubelet/ca.key',
      },
    });
    expect(signingFilesFromFlags({})).toEqual({});
    expect(() => signingFilesFromFlags({ 'cluster-signing-cert-file': '/ca.crt' })).toThrow(/go together/);
    expect(() =>
      signingFilesFromFlags({
        'cluster-signing-cert-file': '/ca.crt',
        'cluster-signing-key-file': '/ca.key',
        'cluster-signing-kubelet-client-cert-file': '/c.crt',
        'cluster-signing-kubelet-client-key-file': '/c.key',
      }),
    ).toThrow(/together/);
  });

  it('loads the CAs from their files (RSA PKCS#1 keys, as Gardener writes ca.key)', async () => {
    const ca = await makeCA({ algorithm: 'RSA', bits: 2048 });
    const files: Record<string, string> = { '/ca.crt': ca.certificatePem, '/ca.key': privateKeyPem(ca.keys.keyObject) };
    const cas = await loadSigningCAs(
      { 'kubernetes.io/kube-apiserver-client': { certFile: '/ca.crt', keyFile: '/ca.key' } },
      async (path) => files[path],
    );
    expect(cas['kubernetes.io/kube-apiserver-client']?.certificate.subject).toBe('CN=ca-client');
    await expect(
      loadSigningCAs({ 'kubernetes.io/kubelet-serving': { certFile: '/ca.crt', keyFile: '/nope' } }, async (path) => {
        if (!files[path]) throw new Error(`ENOENT ${path}`);
        return files[path];
      }),
    ).rejects.toThrow(/signer kubernetes.io\/kubelet-serving/);
  });
});
