// The TLS bootstrap's decisions that need no API server: a usable kubeconfig is kept, a missing one without a
// bootstrap kubeconfig is an error naming both, and a kept client certificate of this node is reused for a new
// kubeconfig. Requesting a certificate is covered end to end in tools/gardener-local/test/kubelet.test.ts.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCA, issueCertificate, kubeconfig } from '@gardener-ts/local-apiserver';
import { createLogger } from '@gardener-ts/logging';
import { bootstrapClientCertificate } from './client-bootstrap.js';

const log = createLogger({ name: 'test', level: 'silent' });
let dir: string;
let caPem: string;
const server = 'https://127.0.0.1:6443';

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'client-bootstrap-'));
  caPem = (await createCA('test-ca')).certPem;
  await mkdir(join(dir, 'pki'));
  await writeFile(
    join(dir, 'kubeconfig-bootstrap'),
    kubeconfig('kubelet-bootstrap', server, caPem, { name: 'kubelet-bootstrap', token: 'a1b2c3.0123456789abcdef' }),
  );
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const options = (extra: Partial<Parameters<typeof bootstrapClientCertificate>[0]> = {}) => ({
  kubeconfig: join(dir, 'kubeconfig-real'),
  bootstrapKubeconfig: join(dir, 'kubeconfig-bootstrap'),
  certDir: join(dir, 'pki'),
  nodeName: 'machine-0',
  log,
  ...extra,
});

describe('bootstrapClientCertificate', () => {
  it('keeps a kubeconfig whose credentials are usable', async () => {
    await writeFile(join(dir, 'kubeconfig-real'), kubeconfig('c', server, caPem, { name: 'u', token: 't' }));
    expect(await bootstrapClientCertificate(options())).toBe('valid');
  });

  it('needs a bootstrap kubeconfig when the kubeconfig is missing', async () => {
    await expect(bootstrapClientCertificate(options({ bootstrapKubeconfig: undefined }))).rejects.toThrow(
      `kubeconfig ${join(dir, 'kubeconfig-real')}: it does not exist, and no bootstrap kubeconfig is given`,
    );
  });

  it("reuses a kept certificate of this node, writing a kubeconfig with the bootstrap kubeconfig's server and CA", async () => {
    const ca = await createCA('cluster-ca');
    const issued = await issueCertificate(ca, {
      commonName: 'system:node:machine-0',
      organizations: ['system:nodes'],
      usage: 'client',
    });
    await writeFile(join(dir, 'pki/kubelet-client-current.pem'), `${issued.certPem}${issued.keyPem}`);
    expect(await bootstrapClientCertificate(options())).toBe('reused');
    const written = await readFile(join(dir, 'kubeconfig-real'), 'utf8');
    expect(written).toContain('client-certificate: pki/kubelet-client-current.pem');
    const config = new k8s.KubeConfig();
    config.loadFromFile(join(dir, 'kubeconfig-real'));
    expect(config.getCurrentCluster()).toMatchObject({ server, caData: Buffer.from(caPem).toString('base64') });
    expect(config.getCurrentUser()?.certFile).toBe(join(dir, 'pki/kubelet-client-current.pem'));
    // The kubeconfig it wrote is usable from then on.
    expect(await bootstrapClientCertificate(options())).toBe('valid');
  });
});
