// A client of a shoot for an extension in the seed (Gardener's `extensions/pkg/util` NewClientForShoot): the kubeconfig
// of the shoot access Secret `gardener` in the shoot's control plane namespace, whose token the shoot's
// gardener-resource-manager keeps fresh. Gardener prefers `gardener-internal` (the in-cluster address); in local mode
// an extension runs as a process on the machine, which reaches the API server by its advertised address, so `gardener`.
import { KubeConfig } from '@kubernetes/client-node';
import { ApiClient, Kinds, type Client } from '@gardener-ts/controller-runtime';

/** The shoot access Secret of Gardener (and of extensions) in a control plane namespace. */
export const ShootAccessSecretName = 'gardener';

/** Builds a client of the shoot of `namespace`; close it when done. Rejects with a message naming the Secret. */
export async function shootClientFor(
  seed: Pick<Client, 'get'>,
  namespace: string,
  options: { requestTimeoutMs?: number } = {},
): Promise<ApiClient> {
  const secret = await seed.get(Kinds.Secret, { namespace, name: ShootAccessSecretName });
  const data = secret.data?.kubeconfig;
  if (!data) throw new Error(`Secret ${namespace}/${ShootAccessSecretName} has no kubeconfig`);
  const kc = new KubeConfig();
  kc.loadFromString(Buffer.from(data, 'base64').toString('utf8'));
  if (!kc.getCurrentUser()?.token) {
    throw new Error(`the kubeconfig of Secret ${namespace}/${ShootAccessSecretName} has no token yet`);
  }
  return ApiClient.create(kc, options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {});
}
