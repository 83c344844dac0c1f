// `gardener-local apiserver`'s kube-apiserver flags become server options: every file a flag names is read, an
// unreadable one names the flag and the path, flags that go together are checked, and the authorization modes are
// those the local API server has.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiServerOptions, nodeAuthorizationOf, parseApiServerFlags } from '../src/apiserver-command.js';

let dir: string;

function options(...args: string[]) {
  return apiServerOptions(parseApiServerFlags(['--data-dir', dir, ...args]));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'apiserver-flags-'));
  for (const name of ['tls.crt', 'tls.key', 'ca.crt', 'a.key', 'b.key', 'encryption.yaml'])
    await writeFile(join(dir, name), `content of ${name}`);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('gardener-local apiserver flags', () => {
  it('reads the files of the serving certificate, client CA, etcd TLS, service account keys and encryption config', async () => {
    const f = (name: string) => join(dir, name);
    const o = await options(
      `--tls-cert-file=${f('tls.crt')}`,
      `--tls-private-key-file=${f('tls.key')}`,
      `--client-ca-file=${f('ca.crt')}`,
      `--etcd-cafile=${f('ca.crt')}`,
      `--etcd-certfile=${f('tls.crt')}`,
      `--etcd-keyfile=${f('tls.key')}`,
      `--encryption-provider-config=${f('encryption.yaml')}`,
      `--service-account-signing-key-file=${f('a.key')}`,
      `--service-account-key-file=${f('a.key')}`,
      `--service-account-key-file=${f('b.key')}`,
      '--service-account-issuer=https://issuer',
      '--bind-address=0.0.0.0',
      '--advertise-address=10.0.0.1',
    );
    expect(o).toMatchObject({
      host: '0.0.0.0',
      advertiseAddress: '10.0.0.1',
      servingCertificate: { certPem: 'content of tls.crt', keyPem: 'content of tls.key' },
      clientCA: 'content of ca.crt',
      etcdTLS: { caPem: 'content of ca.crt', certPem: 'content of tls.crt', keyPem: 'content of tls.key' },
      encryptionConfig: 'content of encryption.yaml',
      serviceAccount: {
        signingKeyPem: 'content of a.key',
        verificationKeysPem: 'content of a.key\ncontent of b.key',
        issuer: 'https://issuer',
      },
      nodeAuthorization: true,
    });
  });

  it('names the flag and the path of a file it cannot read', async () => {
    await expect(options(`--client-ca-file=${join(dir, 'missing.crt')}`)).rejects.toThrow(
      `--client-ca-file ${join(dir, 'missing.crt')}: ENOENT`,
    );
    await expect(options(`--service-account-key-file=${dir}`)).rejects.toThrow(
      `--service-account-key-file ${dir}: EISDIR`,
    );
  });

  it('wants the certificate and key flags in pairs', async () => {
    await expect(options(`--tls-cert-file=${join(dir, 'tls.crt')}`)).rejects.toThrow(
      '--tls-cert-file and --tls-private-key-file go together',
    );
    await expect(options(`--etcd-keyfile=${join(dir, 'tls.key')}`)).rejects.toThrow(
      '--etcd-certfile and --etcd-keyfile go together',
    );
  });

  it('has the Node and RBAC authorization modes, RBAC always on', () => {
    expect(nodeAuthorizationOf(undefined)).toBe(true);
    expect(nodeAuthorizationOf('Node,RBAC')).toBe(true);
    expect(nodeAuthorizationOf('RBAC')).toBe(false);
    expect(() => nodeAuthorizationOf('Node')).toThrow('must include RBAC');
    expect(() => nodeAuthorizationOf('RBAC,Webhook')).toThrow('Webhook not supported');
  });
});
