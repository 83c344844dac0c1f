// CertificateSigningRequests with the real kubectl: a CSR created by a bootstrap token (which may do nothing else),
// approved with `kubectl certificate approve`, yields a client certificate that authenticates as its subject.
import { webcrypto } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl, waitFor } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { kubeconfig } from '../../src/pki/kubeconfig.js';

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
let cluster: TestCluster;
let admin: (args: string[], input?: string) => Promise<string>;

beforeAll(async () => {
  cluster = await startTestCluster();
  admin = (args, input) => kubectl(cluster.kubeconfigPath, args, { input });
});
afterAll(async () => cluster?.stop());

async function config(
  name: string,
  user: { token?: string; clientCertificatePem?: string; clientKeyPem?: string },
): Promise<string> {
  const path = join(cluster.dir, `${name}.kubeconfig`);
  await writeFile(
    path,
    kubeconfig('local', cluster.server.url, cluster.server.credentials.ca.certPem, { name, ...user }),
  );
  return path;
}

async function certificateRequest(subject: string): Promise<{ csrPem: string; keyPem: string }> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: subject,
    keys: keys as unknown as Parameters<typeof x509.Pkcs10CertificateRequestGenerator.create>[0]['keys'],
    signingAlgorithm: ALG,
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey as webcrypto.CryptoKey);
  return { csrPem: csr.toString('pem'), keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') };
}

describe('CertificateSigningRequests', () => {
  it('a bootstrap token creates a CSR; once approved it yields a working client certificate', async () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    await admin(
      ['apply', '-f', '-'],
      `
apiVersion: v1
kind: Secret
metadata: {name: bootstrap-token-abcdef, namespace: kube-system}
type: bootstrap.kubernetes.io/token
data:
  token-id: ${b64('abcdef')}
  token-secret: ${b64('0123456789abcdef')}
  usage-bootstrap-authentication: ${b64('true')}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: csr-creator}
rules: [{apiGroups: [certificates.k8s.io], resources: [certificatesigningrequests], verbs: [create, get, list, watch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: bootstrappers-create-csrs}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: csr-creator}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: system:bootstrappers}]
`,
    );
    const bootstrap = await config('bootstrap', { token: 'abcdef.0123456789abcdef' });
    expect((await runKubectl(bootstrap, ['get', 'secrets', '-A'])).stderr).toContain(
      'User "system:bootstrap:abcdef" cannot list resource "secrets"',
    );

    const { csrPem, keyPem } = await certificateRequest('CN=carol, O=team-b');
    const created = await runKubectl(bootstrap, ['create', '-o', 'json', '-f', '-'], {
      input: `apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata: {name: carol}\nspec:\n  request: ${b64(csrPem)}\n  signerName: kubernetes.io/kube-apiserver-client\n  expirationSeconds: 3600\n  usages: [client auth]\n  username: someone-else\n`,
    });
    expect(created.code, created.stderr).toBe(0);
    // The requester is recorded by the server, not taken from the body.
    expect(JSON.parse(created.stdout).spec).toMatchObject({
      username: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers', 'system:authenticated'],
    });

    await admin(['certificate', 'approve', 'carol']);
    const issued = await waitFor(
      'the certificate',
      async () =>
        JSON.parse(await admin(['get', 'csr', 'carol', '-o', 'json'])).status?.certificate as string | undefined,
    );
    const csr = JSON.parse(await admin(['get', 'csr', 'carol', '-o', 'json']));
    expect(csr.status.conditions).toEqual([
      expect.objectContaining({ type: 'Approved', status: 'True', reason: 'KubectlApprove' }),
    ]);
    const cert = new x509.X509Certificate(Buffer.from(issued, 'base64').toString('utf8'));
    expect(cert.subject).toBe('CN=carol, O=team-b');
    expect((cert.notAfter.getTime() - Date.now()) / 1000).toBeLessThanOrEqual(3600);

    const carol = await config('carol', {
      clientCertificatePem: Buffer.from(issued, 'base64').toString('utf8'),
      clientKeyPem: keyPem,
    });
    expect((await runKubectl(carol, ['get', 'pods'])).stderr).toContain('User "carol" cannot list resource "pods"');
  });

  it('does not sign denied requests', async () => {
    const { csrPem } = await certificateRequest('CN=mallory');
    await admin(
      ['create', '-f', '-'],
      `apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata: {name: mallory}\nspec:\n  request: ${Buffer.from(csrPem).toString('base64')}\n  signerName: kubernetes.io/kube-apiserver-client\n  usages: [client auth]\n`,
    );
    await admin(['certificate', 'deny', 'mallory']);
    await new Promise((r) => setTimeout(r, 300));
    expect(JSON.parse(await admin(['get', 'csr', 'mallory', '-o', 'json'])).status.certificate).toBeUndefined();
  });
});
