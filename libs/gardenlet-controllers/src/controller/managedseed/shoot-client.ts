// How the ManagedSeed controller reaches the shoot it turns into a seed, as Gardener's shoot client map does: with the
// shoot access kubeconfig the seed holds in the shoot's control plane namespace (`status.technicalID`) —
// `gardener-internal` (the API server's Service in the seed) when this gardenlet runs in the seed and that name
// resolves, else `gardener` (its advertised address) — whose token the token requestor keeps filled, bound to
// `cluster-admin` in the shoot. The choice of Secret and the reading of its kubeconfig are pure.
import { lookup } from 'node:dns/promises';
import { ApiClient, isNotFound, Kinds, type Client, type Secret } from '@gardener-ts/controller-runtime';
import { KubeConfig } from '@kubernetes/client-node';
import { GardenerAccessName, GardenerInternalAccessName } from '../../component/gardener-access.js';
import { KubeAPIServerName } from '../../component/kube-apiserver.js';
import { kubeconfigToken } from '../../component/shoot-access.js';
import type { Shoot } from './kinds.js';

/** The shoot's client the controller writes with, and how to let it go. */
export interface ShootConnection {
  client: Pick<Client, 'get' | 'create' | 'patch' | 'delete'>;
  close(): void;
}

/** Opens a connection to a shoot. */
export type ShootConnector = (shoot: Shoot) => Promise<ShootConnection>;

/** The shoot access Secret to use (pure): `gardener-internal` from inside the seed, `gardener` from outside. */
export function shootAccessSecretName(inSeed: boolean): string {
  return inSeed ? GardenerInternalAccessName : GardenerAccessName;
}

/** The kubeconfig of a shoot access Secret once its token is filled (pure); the reason otherwise. */
export function shootAccessKubeconfig(
  secret: Secret | undefined,
  name: string,
): { kubeconfig: string } | { missing: string } {
  const encoded = secret?.data?.['kubeconfig'];
  if (!encoded) return { missing: `shoot access secret ${name} has no kubeconfig yet` };
  const kubeconfig = Buffer.from(encoded, 'base64').toString('utf8');
  if (!kubeconfigToken(kubeconfig)) return { missing: `the token of shoot access secret ${name} is not filled yet` };
  return { kubeconfig };
}

/** Whether a host name resolves (within 2 s): Gardener's test whether the gardenlet runs in the seed cluster. */
async function resolves(host: string): Promise<boolean> {
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000).unref());
  return Promise.race([
    lookup(host).then(
      () => true,
      () => false,
    ),
    timeout,
  ]);
}

/** A `ShootConnector` reading the shoot access Secrets from the seed. */
export function seedShootConnector(
  seed: Pick<Client, 'get'>,
  options: { inSeedCluster?: (host: string) => Promise<boolean> } = {},
): ShootConnector {
  return async (shoot) => {
    const namespace = shoot.status?.technicalID;
    if (!namespace)
      throw new Error(`shoot ${shoot.metadata?.namespace}/${shoot.metadata?.name} has no technical ID yet`);
    const inSeed = await (options.inSeedCluster ?? resolves)(`${KubeAPIServerName}.${namespace}.svc`);
    const name = shootAccessSecretName(inSeed);
    const secret = await seed.get(Kinds.Secret, { namespace, name }).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    const found = shootAccessKubeconfig(secret, name);
    if ('missing' in found) throw new Error(`cannot reach shoot ${namespace}: ${found.missing}`);
    const kc = new KubeConfig();
    kc.loadFromString(found.kubeconfig);
    const api = await ApiClient.create(kc, { requestTimeoutMs: 30_000 });
    return { client: api, close: () => api.close() };
  };
}
