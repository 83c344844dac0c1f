// The secrets manager against the local API server, read back with the real kubectl: a CA with server and client
// certificates, reuse in the next run, and CA rotation through Preparing and Completing with cleanup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type Secret } from '@gardener-ts/controller-runtime';
import { kubectl, startTestCluster, type TestCluster } from '@gardener-ts/testing';
import {
  generateAllSecrets,
  secretNamesToTimesForCARotation,
  type SecretConfigWithOptions,
} from '../src/ca-rotation.js';
import { SecretsManager, decode } from '../src/manager.js';
import { parseCertificates, verifyCertificate } from '../src/pki.js';

const NS = 'shoot--local--demo';
let cluster: TestCluster;
let client: ApiClient;

const configs: SecretConfigWithOptions[] = [
  {
    config: { kind: 'certificate', name: 'ca', commonName: 'kubernetes', certType: 'ca', key: { algorithm: 'ECDSA' } },
  },
  {
    config: {
      kind: 'certificate',
      name: 'kube-apiserver',
      commonName: 'kube-apiserver',
      dnsNames: ['kube-apiserver', `kube-apiserver.${NS}.svc`, 'localhost'],
      ipAddresses: ['127.0.0.1'],
      certType: 'server',
      key: { algorithm: 'ECDSA' },
    },
    options: { signedByCA: 'ca' },
  },
  {
    config: {
      kind: 'certificate',
      name: 'system-admin',
      commonName: 'system:admin',
      organization: ['system:masters'],
      certType: 'client',
      key: { algorithm: 'ECDSA' },
    },
    options: { signedByCA: 'ca' },
  },
  { config: { kind: 'rsa', name: 'ssh-keypair', bits: 2048, usedForSSH: true }, options: { persist: true } },
];

async function listManaged(): Promise<Secret[]> {
  const out = await kubectl(cluster.kubeconfigPath, [
    'get',
    'secrets',
    '-n',
    NS,
    '-l',
    'managed-by=secrets-manager,manager-identity=gardenlet',
    '-o',
    'json',
  ]);
  return (JSON.parse(out) as { items: Secret[] }).items;
}

async function run(phase?: 'Preparing' | 'Completing', initiated?: Date) {
  const sm = await SecretsManager.create(client, {
    namespace: NS,
    identity: 'gardenlet',
    secretNamesToTimes: secretNamesToTimesForCARotation(configs, initiated),
  });
  const secrets = await generateAllSecrets(sm, configs, phase);
  await sm.cleanup();
  return { sm, secrets };
}

const pem = (s: Secret | undefined, key: string) => decode(s!, key).toString();

beforeAll(async () => {
  cluster = await startTestCluster();
  client = await ApiClient.create(cluster.kubeconfigPath);
  await kubectl(cluster.kubeconfigPath, ['create', 'namespace', NS]);
});

afterAll(async () => {
  client?.close();
  await cluster?.stop();
});

describe('SecretsManager on the local API server', () => {
  let initial: Awaited<ReturnType<typeof run>>;

  it('persists a CA, its bundle and signed certificates as labelled, immutable Secrets kubectl lists', async () => {
    initial = await run();
    const listed = await listManaged();
    expect(listed.map((s) => s.metadata!.labels!.name).sort()).toEqual([
      'ca',
      'ca-bundle',
      'kube-apiserver',
      'ssh-keypair',
      'system-admin',
    ]);
    for (const s of listed) expect(s.immutable).toBe(true);
    const server = listed.find((s) => s.metadata!.labels!.name === 'kube-apiserver')!;
    expect(server.type).toBe('kubernetes.io/tls');
    const bundle = listed.find((s) => s.metadata!.labels!.name === 'ca-bundle')!;
    expect(bundle.metadata!.labels!['bundle-for']).toBe('ca');
    expect(await verifyCertificate(pem(server, 'tls.crt'), pem(bundle, 'bundle.crt'))).toBe(true);
    expect(listed.find((s) => s.metadata!.labels!.name === 'ssh-keypair')!.metadata!.labels!.persist).toBe('true');
  });

  it('reuses all of them in the next run', async () => {
    const before = (await listManaged()).map((s) => `${s.metadata!.name}@${s.metadata!.resourceVersion}`).sort();
    await run();
    const after = (await listManaged()).map((s) => `${s.metadata!.name}@${s.metadata!.resourceVersion}`).sort();
    expect(after).toEqual(before);
  });

  it('rotates the CA: both CAs in the bundle while preparing, only the new one and no stale secret after completing', async () => {
    const initiated = new Date(Date.now() + 2000); // a later second than the initial secrets
    const preparing = await run('Preparing', initiated);
    const oldCA = initial.secrets.ca.metadata!.name!;
    const newCA = preparing.secrets.ca.metadata!.name!;
    expect(newCA).not.toBe(oldCA);
    const bundle = pem(preparing.sm.get('ca'), 'bundle.crt');
    expect(parseCertificates(bundle)).toHaveLength(2);
    expect(await verifyCertificate(pem(initial.secrets['kube-apiserver'], 'tls.crt'), bundle)).toBe(true);
    expect(
      await verifyCertificate(pem(preparing.secrets['system-admin'], 'tls.crt'), pem(preparing.secrets.ca, 'ca.crt')),
    ).toBe(true);
    expect((await listManaged()).map((s) => s.metadata!.name)).toContain(oldCA);

    const completing = await run('Completing', initiated);
    const finalBundle = pem(completing.sm.get('ca'), 'bundle.crt');
    expect(parseCertificates(finalBundle)).toHaveLength(1);
    expect(await verifyCertificate(pem(completing.secrets['kube-apiserver'], 'tls.crt'), finalBundle)).toBe(true);
    const names = (await listManaged()).map((s) => s.metadata!.name);
    expect(names).not.toContain(oldCA);
    expect(names).not.toContain(initial.secrets['kube-apiserver'].metadata!.name);
    expect(names.sort()).toEqual(
      [
        completing.secrets.ca,
        completing.sm.get('ca')!,
        completing.secrets['kube-apiserver'],
        completing.secrets['system-admin'],
        completing.secrets['ssh-keypair'],
      ]
        .map((s) => s.metadata!.name)
        .sort(),
    );
  });
});
