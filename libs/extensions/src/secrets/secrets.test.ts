import { describe, expect, it } from 'vitest';
import type { SecretConfigWithOptions } from '@gardener-ts/secrets-manager';
import { FakeSecretsClient } from '@gardener-ts/secrets-manager/testing';
import { decodeCluster } from '../cluster/cluster.js';
import { clusterObject } from '../testing.js';
import { generateSecretsForCluster, secretsManagerForCluster } from './secrets.js';

const NS = 'shoot--dev--demo';
const ecdsa = { algorithm: 'ECDSA', curve: 'P-256' } as const;
const configs: SecretConfigWithOptions[] = [
  {
    config: {
      kind: 'certificate',
      name: 'ca-provider-local-controlplane',
      commonName: 'ca-provider-local-controlplane',
      certType: 'ca',
      key: ecdsa,
    },
  },
  {
    config: {
      kind: 'certificate',
      name: 'cloud-controller-manager-server',
      commonName: 'cloud-controller-manager',
      dnsNames: ['cloud-controller-manager'],
      certType: 'server',
      key: ecdsa,
    },
    options: { signedByCA: 'ca-provider-local-controlplane' },
  },
];

/** The Cluster with the shoot's CA rotation as gardenlet reports it in `status.credentials.rotation`. */
const cluster = (rotation?: { phase: string; lastInitiationTime: string }) =>
  decodeCluster(
    clusterObject(NS, {
      shoot: {
        metadata: { name: 'demo', namespace: 'garden-dev' },
        spec: {},
        status: rotation ? { credentials: { rotation: { certificateAuthorities: rotation } } } : {},
      },
    }),
  );

describe('secrets for a Cluster', () => {
  it("follows the shoot's CA rotation: a second CA while Preparing, only the new one once Completing", async () => {
    const client = new FakeSecretsClient();
    let now = new Date('2026-01-01T00:00:00Z');
    client.now = () => now;
    const run = async (c: ReturnType<typeof cluster>) => {
      const sm = await secretsManagerForCluster(client, c, {
        identity: 'provider-local-controlplane',
        configs,
        now: () => now,
      });
      const secrets = await generateSecretsForCluster(sm, c, configs);
      await sm.cleanup();
      now = new Date(now.getTime() + 60_000);
      return secrets;
    };
    const cas = () =>
      [...client.secrets.values()]
        .filter((s) => s.metadata?.labels?.name === 'ca-provider-local-controlplane')
        .map((s) => s.metadata?.name)
        .sort();

    const initial = await run(cluster());
    expect(initial['ca-provider-local-controlplane'].metadata?.namespace).toBe(NS);
    expect(initial['ca-provider-local-controlplane'].metadata?.labels).toMatchObject({
      'managed-by': 'secrets-manager',
      'manager-identity': 'provider-local-controlplane',
    });
    const oldCA = initial['ca-provider-local-controlplane'].metadata!.name!;
    expect(cas()).toEqual([oldCA]);

    const initiated = '2026-01-01T00:01:00Z';
    const preparing = await run(cluster({ phase: 'Preparing', lastInitiationTime: initiated }));
    const newCA = preparing['ca-provider-local-controlplane'].metadata!.name!;
    expect(newCA).not.toBe(oldCA);
    expect(cas()).toEqual([oldCA, newCA].sort());

    await run(cluster({ phase: 'Completing', lastInitiationTime: initiated }));
    expect(cas()).toEqual([newCA]);
  });
});
