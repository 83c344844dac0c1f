import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { GardenletConfiguration } from '@gardener-ts/component-config';
import { ApiError, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { gardenConnection, requestClientCertificate, writeKubeconfigSecret } from './bootstrap.js';
import { certificateKubeconfig } from './kubeconfig.js';

type Obj = KubernetesObject & Record<string, any>;
const notFound = () => new ApiError(404, 'NotFound', 'not found');

/** A tiny in-memory client: objects by kind/namespace/name; `onGet` may change what a get sees. */
function fakeClient(objects: Obj[] = [], onGet?: (obj: Obj) => Obj) {
  const store = new Map<string, Obj>();
  const key = (kind: string, ns: string | undefined, name: string) => `${kind}/${ns ?? ''}/${name}`;
  for (const o of objects) store.set(key(o.kind!, o.metadata?.namespace, o.metadata!.name!), o);
  const calls: string[] = [];
  return {
    store,
    calls,
    async get(kind: { kind: string }, k: { namespace?: string; name: string }) {
      const o = store.get(key(kind.kind, k.namespace, k.name));
      if (!o) throw notFound();
      return structuredClone(onGet ? onGet(o) : o);
    },
    async create(o: Obj) {
      calls.push(`create ${o.kind} ${o.metadata!.name}`);
      store.set(key(o.kind!, o.metadata?.namespace, o.metadata!.name!), structuredClone(o));
      return o;
    },
    async update(o: Obj) {
      calls.push(`update ${o.kind} ${o.metadata!.name}`);
      store.set(key(o.kind!, o.metadata?.namespace, o.metadata!.name!), structuredClone(o));
      return o;
    },
    async delete(kind: { kind: string }, k: { namespace?: string; name: string }) {
      calls.push(`delete ${kind.kind} ${k.name}`);
      store.delete(key(kind.kind, k.namespace, k.name));
    },
  };
}

const approved = (csr: Obj): Obj => ({
  ...csr,
  status: { conditions: [{ type: 'Approved', status: 'True' }], certificate: Buffer.from('CERT').toString('base64') },
});

describe('requestClientCertificate', () => {
  it('creates the CSR and returns the certificate once it is issued', async () => {
    let reads = 0;
    const client = fakeClient([], (csr) => (++reads >= 3 ? approved(csr) : csr));
    const result = await requestClientCertificate(client as never, { seedName: 'local', pollMs: 1 });
    expect(result.certPem).toBe('CERT');
    expect(result.keyPem).toMatch(/PRIVATE KEY/);
    expect(client.calls).toEqual([`create CertificateSigningRequest ${result.csrName}`]);
    expect(reads).toBe(3);
  });

  it('fails on a denied CSR, naming it', async () => {
    const client = fakeClient([], (csr) => ({
      ...csr,
      status: { conditions: [{ type: 'Denied', status: 'True', reason: 'NotAllowed', message: 'no' }] },
    }));
    await expect(requestClientCertificate(client as never, { seedName: 'local', pollMs: 1 })).rejects.toThrow(
      /seed-csr-[0-9a-f]+ was denied: NotAllowed no/,
    );
  });

  it('creates a new CSR when one stays unanswered past the timeout', async () => {
    let created = 0;
    const client = fakeClient([], (csr) => (created >= 2 ? approved(csr) : csr));
    const create = client.create.bind(client);
    client.create = async (o: Obj) => (created++, create(o));
    await requestClientCertificate(client as never, { seedName: 'local', pollMs: 5, approvalTimeoutMs: 20 });
    expect(created).toBe(2);
  });
});

const connection = (overrides: Partial<GardenletConfiguration['gardenClientConnection']> = {}) =>
  ({
    kubeconfig: '',
    qps: 100,
    burst: 130,
    kubeconfigValidity: { autoRotationJitterPercentageMin: 70, autoRotationJitterPercentageMax: 90 },
    bootstrapKubeconfig: { name: 'gardenlet-kubeconfig-bootstrap', namespace: 'garden' },
    kubeconfigSecret: { name: 'gardenlet-kubeconfig', namespace: 'garden' },
    ...overrides,
  }) as GardenletConfiguration['gardenClientConnection'];

const secret = (name: string, kubeconfig: string, annotations?: Record<string, string>): Obj => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'garden', ...(annotations ? { annotations } : {}) },
  data: { kubeconfig: Buffer.from(kubeconfig).toString('base64') },
});
const bootstrapKubeconfig = stringify({
  apiVersion: 'v1',
  kind: 'Config',
  'current-context': 'b',
  clusters: [{ name: 'g', cluster: { server: 'https://garden.example.com' } }],
  contexts: [{ name: 'b', context: { cluster: 'g', user: 'b' } }],
  users: [{ name: 'b', user: { token: 'abcdef.0123456789abcdef' } }],
});
const storedKubeconfig = certificateKubeconfig({ server: 'https://garden.example.com', caPem: '' }, 'OLD', 'OLDKEY');

describe('gardenConnection', () => {
  it('bootstraps with the bootstrap kubeconfig, stores the result and deletes the bootstrap Secret', async () => {
    const seed = fakeClient([secret('gardenlet-kubeconfig-bootstrap', bootstrapKubeconfig)]);
    const got = await gardenConnection({
      connection: connection(),
      seed: seed as never,
      seedName: 'local',
      requestCertificate: async () => ({ certPem: 'NEW', keyPem: 'NEWKEY', csrName: 'seed-csr-x' }),
    });
    expect(got.source).toBe('bootstrap');
    expect(got.kubeConfig.getCurrentCluster()?.server).toBe('https://garden.example.com');
    expect(got.kubeConfig.getCurrentUser()?.certData).toBe(Buffer.from('NEW').toString('base64'));
    expect(seed.calls).toEqual(['create Secret gardenlet-kubeconfig', 'delete Secret gardenlet-kubeconfig-bootstrap']);
  });

  it('keeps the bootstrap Secret when there is no kubeconfig Secret to store the result in', async () => {
    const seed = fakeClient([secret('gardenlet-kubeconfig-bootstrap', bootstrapKubeconfig)]);
    const got = await gardenConnection({
      connection: connection({ kubeconfigSecret: undefined }),
      seed: seed as never,
      seedName: 'local',
      requestCertificate: async () => ({ certPem: 'NEW', keyPem: 'NEWKEY', csrName: 'seed-csr-x' }),
    });
    expect(got.source).toBe('bootstrap');
    expect(seed.calls).toEqual([]);
  });

  it('uses a stored kubeconfig without bootstrapping', async () => {
    const seed = fakeClient([
      secret('gardenlet-kubeconfig', storedKubeconfig),
      secret('gardenlet-kubeconfig-bootstrap', bootstrapKubeconfig),
    ]);
    const got = await gardenConnection({
      connection: connection(),
      seed: seed as never,
      seedName: 'local',
      requestCertificate: async () => {
        throw new Error('must not request');
      },
    });
    expect(got.source).toBe('kubeconfig-secret');
    expect(got.kubeconfig).toBe(storedKubeconfig);
    expect(seed.calls).toEqual([]);
  });

  it('renews a stored kubeconfig annotated gardener.cloud/operation=renew and clears the annotation', async () => {
    const seed = fakeClient([
      secret('gardenlet-kubeconfig', storedKubeconfig, { 'gardener.cloud/operation': 'renew', keep: 'me' }),
    ]);
    const got = await gardenConnection({
      connection: connection(),
      seed: seed as never,
      seedName: 'local',
      requestCertificate: async () => ({ certPem: 'NEW', keyPem: 'NEWKEY', csrName: 'seed-csr-y' }),
    });
    expect(got.kubeConfig.getCurrentUser()?.certData).toBe(Buffer.from('NEW').toString('base64'));
    const stored = seed.store.get('Secret/garden/gardenlet-kubeconfig')!;
    expect(stored.metadata?.annotations).toEqual({ keep: 'me' });
  });

  it('names the missing bootstrap Secret', async () => {
    const seed = fakeClient([]);
    await expect(
      gardenConnection({ connection: connection(), seed: seed as never, seedName: 'local' }),
    ).rejects.toThrow(
      'gardenClientConnection.bootstrapKubeconfig: Secret garden/gardenlet-kubeconfig-bootstrap has no key kubeconfig and the kubeconfig Secret garden/gardenlet-kubeconfig holds no kubeconfig either',
    );
  });

  it('reads gardenClientConnection.kubeconfig when set, naming a missing file', async () => {
    await expect(
      gardenConnection({
        connection: connection({ kubeconfig: '/nonexistent/kubeconfig' }),
        seed: fakeClient() as never,
        seedName: 'local',
      }),
    ).rejects.toThrow(/reading gardenClientConnection.kubeconfig \/nonexistent\/kubeconfig/);
  });
});

describe('writeKubeconfigSecret', () => {
  it('updates an existing Secret in place, keeping its other metadata', async () => {
    const seed = fakeClient([
      { ...secret('s', 'old'), metadata: { name: 's', namespace: 'garden', labels: { a: 'b' } } },
    ]);
    await writeKubeconfigSecret(seed as never, { name: 's', namespace: 'garden' }, 'new');
    const stored = seed.store.get('Secret/garden/s')!;
    expect(stored.metadata?.labels).toEqual({ a: 'b' });
    expect(Buffer.from(stored.data.kubeconfig, 'base64').toString()).toBe('new');
  });
});
