// An authorization webhook after RBAC (the seam for Gardener's SeedAuthorizer): it can allow what RBAC does not,
// its explicit denials and its failures end in kube's 403.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKubectl } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { createCA, issueCertificate } from '../../src/pki/certs.js';
import { kubeconfig } from '../../src/pki/kubeconfig.js';

let cluster: TestCluster;
let webhook: Server;
let up = true;
const asked: string[] = [];

beforeAll(async () => {
  const ca = await createCA('authz-ca');
  const serving = await issueCertificate(ca, { commonName: 'authz', usage: 'server', ipAddresses: ['127.0.0.1'] });
  webhook = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (!up) return res.destroy();
      const spec = JSON.parse(body).spec;
      const r = spec.resourceAttributes ?? {};
      asked.push(`${spec.user} ${r.verb} ${r.resource} ${r.namespace}`);
      const allowed = spec.user === 'gardenlet' && r.resource === 'secrets' && r.namespace === 'garden';
      const denied = spec.user === 'mallory';
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          status: { allowed, denied, reason: allowed ? 'seed owns it' : denied ? 'not you' : '' },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
  const dir = await mkdtemp(join(tmpdir(), 'authz-webhook-'));
  await writeFile(join(dir, 'tokens'), 'g-token,gardenlet,u1\nm-token,mallory,u2\n');
  cluster = await startTestCluster({
    tokenFile: join(dir, 'tokens'),
    authorizationWebhook: {
      url: `https://127.0.0.1:${(webhook.address() as AddressInfo).port}/authorize`,
      caPem: ca.certPem,
      timeoutMs: 2000,
    },
  });
});
afterAll(async () => {
  await cluster?.stop();
  webhook?.close();
});

async function as(user: string, token: string, args: string[]) {
  const path = join(cluster.dir, `${user}.kubeconfig`);
  await writeFile(
    path,
    kubeconfig('local', cluster.server.url, cluster.server.credentials.ca.certPem, { name: user, token }),
  );
  return runKubectl(path, args);
}

describe('authorization webhook', () => {
  it('allows what it allows, after RBAC had no opinion', async () => {
    await runKubectl(cluster.kubeconfigPath, ['create', 'namespace', 'garden']);
    expect((await as('gardenlet', 'g-token', ['get', 'secrets', '-n', 'garden'])).code).toBe(0);
    expect(asked).toContain('gardenlet list secrets garden');
    expect((await as('gardenlet', 'g-token', ['get', 'secrets', '-n', 'default'])).stderr).toContain(
      'User "gardenlet" cannot list resource "secrets"',
    );
  });

  it('denies with its reason, and a failing webhook denies too', async () => {
    expect((await as('mallory', 'm-token', ['get', 'pods'])).stderr).toContain(
      'User "mallory" cannot list resource "pods" in API group "" in the namespace "default": not you',
    );
    up = false;
    const res = await as('gardenlet', 'g-token', ['get', 'secrets', '-n', 'garden']);
    up = true;
    expect(res.stderr).toContain('User "gardenlet" cannot list resource "secrets"');
  });
});
