// How the ManagedSeed controller picks and reads the shoot access kubeconfig, and the connector over a fake seed.
import { describe, expect, it } from 'vitest';
import { FakeCluster } from '../../../test/support/fake-cluster.js';
import { seedShootConnector, shootAccessKubeconfig, shootAccessSecretName } from './shoot-client.js';
import type { Shoot } from './kinds.js';

const kubeconfig = (token: string) => `apiVersion: v1
kind: Config
current-context: shoot
clusters: [{name: shoot, cluster: {server: 'https://api.infra.local:443'}}]
contexts: [{name: shoot, context: {cluster: shoot, user: gardener}}]
users: [{name: gardener, user: {token: '${token}'}}]
`;
const secret = (token: string) => ({ data: { kubeconfig: Buffer.from(kubeconfig(token)).toString('base64') } });
const shoot = {
  metadata: { name: 'infra', namespace: 'garden' },
  status: { technicalID: 'shoot--garden--infra' },
} as Shoot;

describe('shoot access', () => {
  it('uses gardener-internal inside the seed, gardener outside', () => {
    expect(shootAccessSecretName(true)).toBe('gardener-internal');
    expect(shootAccessSecretName(false)).toBe('gardener');
  });

  it('reads the kubeconfig once its token is filled', () => {
    expect(shootAccessKubeconfig(secret('t0k3n') as never, 'gardener')).toEqual({ kubeconfig: kubeconfig('t0k3n') });
    expect(shootAccessKubeconfig(secret('') as never, 'gardener')).toEqual({
      missing: 'the token of shoot access secret gardener is not filled yet',
    });
    expect(shootAccessKubeconfig(undefined, 'gardener')).toEqual({
      missing: 'shoot access secret gardener has no kubeconfig yet',
    });
  });

  it('opens a client from the Secret in the control plane namespace, or names what is missing', async () => {
    const seed = new FakeCluster();
    const connect = seedShootConnector(seed as never, { inSeedCluster: async () => false });
    await expect(connect(shoot)).rejects.toThrow(
      'cannot reach shoot shoot--garden--infra: shoot access secret gardener has no kubeconfig yet',
    );
    await expect(connect({ ...shoot, status: {} } as Shoot)).rejects.toThrow('has no technical ID yet');
    seed.put({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'gardener', namespace: 'shoot--garden--infra' },
      ...secret('t0k3n'),
    });
    const connection = await connect(shoot);
    expect(connection.client).toBeDefined();
    connection.close();
  });
});
