// The admin kubeconfig as kubectl reads it: the shoot's advertised address, its cluster CA, the client certificate.
import { X509Certificate } from 'node:crypto';
import { KubeConfig } from '@kubernetes/client-node';
import { generateData } from '@gardener-ts/secrets-manager';
import { describe, expect, it } from 'vitest';
import { adminKubeconfigYAML, issueAdminKubeconfig, readClientCA, serverOf } from './kubeconfig.js';

describe('the admin kubeconfig', () => {
  it('is a kubeconfig kubectl loads, with context <project namespace>--<shoot>', () => {
    const kc = new KubeConfig();
    kc.loadFromString(
      adminKubeconfigYAML({
        shootName: 'local',
        projectNamespace: 'garden-local',
        server: 'https://127.0.0.1:31443',
        clusterCAPem: 'CA',
        clientCertPem: 'CERT',
        clientKeyPem: 'KEY',
      }),
    );
    expect(kc.getCurrentContext()).toBe('garden-local--local');
    expect(kc.getCurrentCluster()).toMatchObject({
      server: 'https://127.0.0.1:31443',
      caData: Buffer.from('CA').toString('base64'),
    });
    expect(kc.getCurrentUser()).toMatchObject({
      certData: Buffer.from('CERT').toString('base64'),
      keyData: Buffer.from('KEY').toString('base64'),
    });
  });

  it('uses the external address where this machine resolves it, else the load balancer address', async () => {
    const shoot = (addresses: { name: string; url: string }[]) => ({ status: { advertisedAddresses: addresses } });
    const all = shoot([
      { name: 'external', url: 'https://api.local.local.external.local.gardener.cloud' },
      { name: 'internal', url: 'https://api.local.local.internal.local.gardener.cloud' },
      { name: 'unmanaged', url: 'https://127.0.0.1:1' },
    ]);
    const asked: string[] = [];
    const resolvesNothing = async (host: string) => (asked.push(host), false);
    expect(await serverOf(all, resolvesNothing)).toBe('https://127.0.0.1:1');
    expect(asked).toEqual(['api.local.local.external.local.gardener.cloud']);
    expect(await serverOf(all, async () => true)).toBe('https://api.local.local.external.local.gardener.cloud');
    const internalOnly = shoot([{ name: 'internal', url: 'https://api.i' }]);
    expect(await serverOf(internalOnly, async (host) => host === 'api.i')).toBe('https://api.i');
    expect(await serverOf(shoot([{ name: 'unmanaged', url: 'https://127.0.0.1:1' }]), resolvesNothing)).toBe(
      'https://127.0.0.1:1',
    );
    expect(await serverOf({}, resolvesNothing)).toBeUndefined();
  });
});

// The client CA and the kubeconfig issued from it, over fake garden and seed readers (what KubernetesObjectApi
// answers: the object, or an error with code 404).
const notFound = () => Object.assign(new Error('not found'), { code: 404 });
const b64 = (text: string) => Buffer.from(text).toString('base64');
type Obj = { apiVersion?: string; kind?: string; metadata?: { namespace?: string; name?: string } };

function fakeCluster(objects: Record<string, unknown>, secrets: unknown[] = []) {
  const reads: string[] = [];
  const lists: { namespace?: string; labelSelector?: string }[] = [];
  return {
    reads,
    lists,
    read: async (o: Obj) => {
      const key = `${o.kind}/${o.metadata?.namespace}/${o.metadata?.name}`;
      reads.push(key);
      if (!(key in objects)) throw notFound();
      return structuredClone(objects[key]);
    },
    list: async (
      _apiVersion: string,
      _kind: string,
      namespace?: string,
      _p?: unknown,
      _e?: unknown,
      _f?: unknown,
      _fs?: unknown,
      labelSelector?: string,
    ) => {
      lists.push({ namespace, labelSelector });
      return { items: secrets };
    },
  };
}

async function clientCA(commonName = 'kubernetes-client') {
  const data = await generateData(
    { kind: 'certificate', name: 'ca-client', commonName, certType: 'ca', key: { algorithm: 'ECDSA', curve: 'P-256' } },
    { now: new Date() },
  );
  return { crt: data['ca.crt']!.toString(), key: data['ca.key']!.toString() };
}

const target = { namespace: 'garden-local', name: 'local' };
const shoot = {
  status: { technicalID: 'shoot--local--local', advertisedAddresses: [{ name: 'external', url: 'https://api.x' }] },
};

describe('the client CA of a shoot', () => {
  it('comes from the InternalSecret <shoot>.ca-client in the garden, without the seed', async () => {
    const garden = fakeCluster({
      'InternalSecret/garden-local/local.ca-client': {
        metadata: { namespace: 'garden-local', name: 'local.ca-client' },
        data: { 'ca.crt': b64('CERT'), 'ca.key': b64('KEY') },
      },
    });
    const ca = await readClientCA(garden as never, undefined, target, 'shoot--local--local');
    expect(ca).toEqual({
      certificatePem: 'CERT',
      privateKeyPem: 'KEY',
      source: 'InternalSecret garden-local/local.ca-client',
    });
  });

  it('does not fall back to the seed when the InternalSecret is there, even with a seed given', async () => {
    const garden = fakeCluster({
      'InternalSecret/garden-local/local.ca-client': { data: { 'ca.crt': b64('GARDEN'), 'ca.key': b64('K') } },
    });
    const seed = fakeCluster({}, [
      { metadata: { name: 'ca-client-1' }, data: { 'ca.crt': b64('SEED'), 'ca.key': b64('K') } },
    ]);
    expect((await readClientCA(garden as never, seed as never, target, 'shoot--local--local')).certificatePem).toBe(
      'GARDEN',
    );
    expect(seed.lists).toHaveLength(0);
  });

  it("falls back to the newest ca-client of the seed's control plane namespace for a shoot not synced yet", async () => {
    const seed = fakeCluster({}, [
      {
        metadata: { name: 'ca-client-old', labels: { 'issued-at-time': '100' } },
        data: { 'ca.crt': b64('OLD'), 'ca.key': b64('K1') },
      },
      {
        metadata: { name: 'ca-client-new', labels: { 'issued-at-time': '200' } },
        data: { 'ca.crt': b64('NEW'), 'ca.key': b64('K2') },
      },
    ]);
    const ca = await readClientCA(fakeCluster({}) as never, seed as never, target, 'shoot--local--local');
    expect(ca).toMatchObject({ certificatePem: 'NEW', privateKeyPem: 'K2' });
    expect(seed.lists[0]).toEqual({
      namespace: 'shoot--local--local',
      labelSelector: 'name=ca-client,managed-by=secrets-manager,manager-identity=gardenlet',
    });
  });

  it('says what is missing and how to go on', async () => {
    await expect(readClientCA(fakeCluster({}) as never, undefined, target, 'shoot--local--local')).rejects.toThrow(
      /InternalSecret garden-local\/local.ca-client not found.*pass --seed-kubeconfig/,
    );
    await expect(
      readClientCA(fakeCluster({}) as never, fakeCluster({}) as never, target, 'shoot--local--local'),
    ).rejects.toThrow(/no client CA \(ca-client\) in namespace shoot--local--local of the seed.*--seed-kubeconfig/);
    await expect(
      readClientCA(
        fakeCluster({
          'InternalSecret/garden-local/local.ca-client': { metadata: target, data: { 'ca.crt': b64('C') } },
        }) as never,
        undefined,
        target,
        undefined,
      ),
    ).rejects.toThrow(
      'could not load client CA certificate from InternalSecret garden-local/local: no ca.crt or ca.key',
    );
  });

  it('issues a kubeconfig whose client certificate the synced client CA signed, in group system:masters', async () => {
    const ca = await clientCA();
    const other = await clientCA('other');
    const garden = fakeCluster({
      'Shoot/garden-local/local': shoot,
      'ConfigMap/garden-local/local.ca-cluster': { data: { 'ca.crt': 'CLUSTER-CA' } },
      'InternalSecret/garden-local/local.ca-client': { data: { 'ca.crt': b64(ca.crt), 'ca.key': b64(ca.key) } },
    });
    const kc = new KubeConfig();
    kc.loadFromString(
      await issueAdminKubeconfig(garden as never, undefined, target, {
        validitySeconds: 600,
        user: 'admin',
        resolves: async () => true,
      }),
    );
    expect(kc.getCurrentCluster()).toMatchObject({ server: 'https://api.x', caData: b64('CLUSTER-CA') });
    const cert = new X509Certificate(Buffer.from(kc.getCurrentUser()!.certData!, 'base64'));
    expect(cert.verify(new X509Certificate(ca.crt).publicKey)).toBe(true);
    expect(cert.verify(new X509Certificate(other.crt).publicKey)).toBe(false);
    expect(cert.subject).toContain('O=system:masters');
    expect(cert.subject).toContain('CN=admin');
    const lifetime = Date.parse(cert.validTo) - Date.now();
    expect(lifetime).toBeGreaterThan(500_000);
    expect(lifetime).toBeLessThanOrEqual(600_000);
  });
});
