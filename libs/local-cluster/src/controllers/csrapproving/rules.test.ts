import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newKeyPair, kubeletClientRequest } from '../../kubelet/server/serving-cert.js';
import { parseCertificateRequest } from '../csrapproving-kubelet-serving/certificate-request.js';
import { needsApproval, notNodeClientCert, recognize, type CertificateSigningRequest } from './rules.js';

const dir = mkdtempSync(join(tmpdir(), 'csrapproving-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A PKCS#10 request made by openssl, for subjects the kubelet would never ask for. */
function opensslRequest(subject: string, san?: string): string {
  const args = ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  args.push('-keyout', join(dir, 'key.pem'), '-subj', subject);
  if (san) args.push('-addext', `subjectAltName=${san}`);
  return execFileSync('openssl', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

/** The request the kubelet's TLS bootstrap sends. */
const kubeletRequest = async (node: string) => kubeletClientRequest((await newKeyPair()).keys, node);

function csr(
  request: string,
  spec: Partial<NonNullable<CertificateSigningRequest['spec']>> = {},
): CertificateSigningRequest {
  return {
    metadata: { name: 'node-csr-1' },
    spec: {
      request: Buffer.from(request).toString('base64'),
      signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
      usages: ['digital signature', 'client auth'],
      username: 'system:bootstrap:a1b2c3',
      groups: ['system:bootstrappers', 'system:authenticated'],
      ...spec,
    },
  };
}
const info = (c: CertificateSigningRequest) => parseCertificateRequest(Buffer.from(c.spec!.request, 'base64'));

describe('kubelet client CSR recognition', () => {
  it('recognizes the TLS bootstrap request of a bootstrap token as nodeclient', async () => {
    const c = csr(await kubeletRequest('machine-0'));
    expect(notNodeClientCert(c, info(c))).toBeUndefined();
    expect(recognize(c, info(c)).map((r) => r.subresource)).toEqual(['nodeclient']);
  });

  it('recognizes a node renewing its own certificate as selfnodeclient first', async () => {
    const c = csr(await kubeletRequest('machine-0'), { username: 'system:node:machine-0', groups: ['system:nodes'] });
    expect(recognize(c, info(c)).map((r) => r.subresource)).toEqual(['selfnodeclient', 'nodeclient']);
    // Another node asking for machine-0 is not "self".
    const other = csr(await kubeletRequest('machine-0'), { username: 'system:node:machine-1' });
    expect(recognize(other, info(other)).map((r) => r.subresource)).toEqual(['nodeclient']);
  });

  it('accepts key encipherment (RSA keys) but nothing beyond the client usages', async () => {
    const request = await kubeletRequest('n');
    const rsa = csr(request, { usages: ['key encipherment', 'digital signature', 'client auth'] });
    expect(notNodeClientCert(rsa, info(rsa))).toBeUndefined();
    for (const usages of [['client auth'], ['digital signature', 'client auth', 'server auth']]) {
      const c = csr(request, { usages });
      expect(notNodeClientCert(c, info(c))).toMatch(/usages/);
    }
  });

  it('leaves other requests alone', async () => {
    const cases: [CertificateSigningRequest, RegExp][] = [
      [csr(await kubeletRequest('n'), { signerName: 'kubernetes.io/kube-apiserver-client' }), /signer/],
      [csr(opensslRequest('/O=system:masters/CN=system:node:n')), /organization/],
      [csr(opensslRequest('/O=system:nodes/O=extra/CN=system:node:n')), /organization/],
      [csr(opensslRequest('/O=system:nodes/CN=admin')), /common name/],
      [csr(opensslRequest('/O=system:nodes/CN=system:node:')), /common name/],
      [csr(opensslRequest('/O=system:nodes/CN=system:node:n', 'DNS:n')), /subject alternative names/],
    ];
    for (const [c, why] of cases) {
      expect(notNodeClientCert(c, info(c))).toMatch(why);
      expect(recognize(c, info(c))).toEqual([]);
    }
  });

  it('decides only once: approved, denied, failed or issued requests need nothing', async () => {
    const c = csr(await kubeletRequest('n'));
    expect(needsApproval(c)).toBe(true);
    for (const type of ['Approved', 'Denied', 'Failed'])
      expect(needsApproval({ ...c, status: { conditions: [{ type, status: 'True' }] } })).toBe(false);
    expect(needsApproval({ ...c, status: { conditions: [{ type: 'Approved', status: 'False' }] } })).toBe(true);
    expect(needsApproval({ ...c, status: { certificate: 'Y2VydA==' } })).toBe(false);
  });
});
