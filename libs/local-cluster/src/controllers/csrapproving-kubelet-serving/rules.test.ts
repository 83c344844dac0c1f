import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Node } from '../shared/kinds.js';
import { parseCertificateRequest } from './certificate-request.js';
import { needsReview, reviewKubeletServingCSR, type CertificateSigningRequest } from './rules.js';

const dir = mkdtempSync(join(tmpdir(), 'csr-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A PKCS#10 request made by openssl, as a kubelet (or an impostor) would send it. */
function request(subject: string, san?: string): string {
  const args = [
    'req',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    join(dir, 'key.pem'),
    '-subj',
    subject,
  ];
  if (san) args.push('-addext', `subjectAltName=${san}`);
  return execFileSync('openssl', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

const GOOD = request('/O=system:nodes/CN=system:node:n1', 'DNS:n1,IP:127.0.0.1');

function csr(
  overrides: { username?: string; groups?: string[]; usages?: string[]; request?: string } = {},
): CertificateSigningRequest {
  return {
    metadata: { name: 'csr-1' },
    spec: {
      signerName: 'kubernetes.io/kubelet-serving',
      username: overrides.username ?? 'system:node:n1',
      groups: overrides.groups ?? ['system:nodes', 'system:authenticated'],
      usages: overrides.usages ?? ['digital signature', 'server auth'],
      request: Buffer.from(overrides.request ?? GOOD).toString('base64'),
    },
  };
}

const node: Node = {
  metadata: { name: 'n1' },
  status: {
    addresses: [
      { type: 'InternalIP', address: '127.0.0.1' },
      { type: 'Hostname', address: 'n1' },
    ],
  },
};

describe('parseCertificateRequest', () => {
  it('reads subject and subject alternative names', () => {
    const info = parseCertificateRequest(
      request('/O=system:nodes/CN=system:node:n1', 'DNS:n1,DNS:n1.local,IP:127.0.0.1,IP:0:0:0:0:0:0:0:1,email:a@b.c'),
    );
    expect(info).toEqual({
      commonName: 'system:node:n1',
      organizations: ['system:nodes'],
      dnsNames: ['n1', 'n1.local'],
      ipAddresses: ['127.0.0.1', '::1'],
      otherNames: 1,
    });
  });

  it('refuses what is not a request', () => {
    expect(() => parseCertificateRequest('not a request')).toThrow();
  });
});

describe('reviewKubeletServingCSR', () => {
  it('approves a node asking for its own names with the signer’s usages', () => {
    expect(reviewKubeletServingCSR(csr(), node)).toMatchObject({ approve: true, reason: 'RequestApproved' });
    expect(
      reviewKubeletServingCSR(csr({ usages: ['key encipherment', 'digital signature', 'server auth'] }), node).approve,
    ).toBe(true);
  });

  it('denies a requester that is not the node named in the request', () => {
    const other = reviewKubeletServingCSR(csr({ username: 'system:node:n2' }), node);
    expect(other).toMatchObject({ approve: false, reason: 'RequestDenied' });
    expect(other.message).toContain('common name "system:node:n1" is not the requesting node\'s "system:node:n2"');
    expect(
      reviewKubeletServingCSR(csr({ username: 'kubernetes-admin', groups: ['system:masters'] }), node).message,
    ).toContain('requester "kubernetes-admin" is not a node');
    expect(reviewKubeletServingCSR(csr({ groups: ['system:authenticated'] }), node).message).toContain('is not a node');
  });

  it('denies when the node does not exist', () => {
    expect(reviewKubeletServingCSR(csr(), undefined)).toMatchObject({
      approve: false,
      message: expect.stringContaining('node "n1" does not exist'),
    });
  });

  it('denies names that are not the node’s addresses', () => {
    const foreignIP = reviewKubeletServingCSR(
      csr({ request: request('/O=system:nodes/CN=system:node:n1', 'DNS:n1,IP:10.0.0.1') }),
      node,
    );
    expect(foreignIP).toMatchObject({
      approve: false,
      message: expect.stringContaining('["10.0.0.1"] are not addresses of node "n1"'),
    });
    const foreignName = reviewKubeletServingCSR(
      csr({ request: request('/O=system:nodes/CN=system:node:n1', 'DNS:kubernetes.default.svc,IP:127.0.0.1') }),
      node,
    );
    expect(foreignName).toMatchObject({
      approve: false,
      message: expect.stringContaining('["kubernetes.default.svc"]'),
    });
    expect(
      reviewKubeletServingCSR(csr({ request: request('/O=system:nodes/CN=system:node:n1') }), node).message,
    ).toContain('no DNS names or IP addresses');
    expect(
      reviewKubeletServingCSR(
        csr({ request: request('/O=system:nodes/CN=system:node:n1', 'DNS:n1,URI:https://x') }),
        node,
      ).message,
    ).toContain('only DNS names and IP addresses');
  });

  it('denies other usages and subjects', () => {
    expect(
      reviewKubeletServingCSR(csr({ usages: ['digital signature', 'server auth', 'client auth'] }), node),
    ).toMatchObject({ approve: false, message: expect.stringContaining('usages must be') });
    expect(reviewKubeletServingCSR(csr({ usages: ['digital signature'] }), node).approve).toBe(false);
    expect(
      reviewKubeletServingCSR(csr({ request: request('/O=system:masters/CN=system:node:n1', 'DNS:n1') }), node).message,
    ).toContain('organization');
  });

  it('looks only at undecided kubelet-serving requests', () => {
    expect(needsReview(csr())).toBe(true);
    expect(needsReview({ ...csr(), spec: { ...csr().spec, signerName: 'kubernetes.io/kube-apiserver-client' } })).toBe(
      false,
    );
    expect(needsReview({ ...csr(), status: { conditions: [{ type: 'Denied', status: 'True' }] } })).toBe(false);
    expect(needsReview({ ...csr(), status: { conditions: [{ type: 'Approved', status: 'True' }] } })).toBe(false);
  });
});
