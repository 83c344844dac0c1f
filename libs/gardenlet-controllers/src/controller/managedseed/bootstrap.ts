// The bootstrap kubeconfig a ManagedSeed's gardenlet starts with (Gardener's `createBootstrapKubeconfig`), issued in
// the garden: `BootstrapToken` — the token Secret `kube-system/bootstrap-token-<id>` (the id from the ManagedSeed's
// namespace and name, described as `... for managed seed <namespace>/<name>.`, valid 24 h, reused while valid);
// `ServiceAccount` — ServiceAccount `gardenlet-bootstrap-<name>` in the ManagedSeed's namespace bound to
// `gardener.cloud:system:seed-bootstrapper`, with a token requested for it.
import { gvkOf, ignoreNotFound, Kinds, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';
import {
  bootstrapKubeconfig,
  bootstrapTokenDescription,
  bootstrapTokenID,
  bootstrapTokenSecret,
  bootstrapTokenSecretName,
  bootstrapTokenString,
  BootstrapTokenNamespace,
  newBootstrapToken,
  validBootstrapToken,
  type KubeconfigCluster,
} from '../../charts/gardenlet-chart.js';
import type { Bootstrap } from './values.js';

/** How long a ManagedSeed's bootstrap token is valid (Gardener's 24 h). */
export const BootstrapTokenValidityMs = 24 * 3_600_000;
/** The field manager of the garden objects the controller applies. */
export const FieldManager = 'gardenlet';
/** Gardener's ClusterRole for bootstrapping gardenlets. */
export const SeedBootstrapperClusterRole = 'gardener.cloud:system:seed-bootstrapper';

/** The ServiceAccount of `ServiceAccount` bootstrapping (Gardener's `gardenlet-bootstrap-<name>`). */
export const bootstrapServiceAccountName = (name: string): string => `gardenlet-bootstrap-${name}`;
/** Its ClusterRoleBinding (Gardener's `gardener.cloud:system:seed-bootstrapper:<namespace>:<name>`). */
export const bootstrapClusterRoleBindingName = (namespace: string, name: string): string =>
  `${SeedBootstrapperClusterRole}:${namespace}:${name}`;

/** What issuing a bootstrap kubeconfig needs from the garden. */
export interface BootstrapDeps {
  garden: Pick<Client, 'get' | 'patch'>;
  /** A token of a garden ServiceAccount (TokenRequest). */
  requestServiceAccountToken: (namespace: string, name: string) => Promise<string>;
  now: () => Date;
}

/** Server-side applies a whole object with the controller's field manager, taking over conflicting fields. */
export function applyObject(client: Pick<Client, 'patch'>, obj: KubernetesObject): Promise<KubernetesObject> {
  return client.patch(
    gvkOf(obj),
    { namespace: obj.metadata?.namespace, name: obj.metadata?.name ?? '' },
    { type: 'apply', patch: obj as Record<string, unknown>, fieldManager: FieldManager, force: true },
  );
}

/** The bootstrap kubeconfig for the ManagedSeed `owner` in `mode`, reaching the garden at `cluster`. */
export async function issueBootstrapKubeconfig(
  deps: BootstrapDeps,
  owner: { namespace: string; name: string },
  mode: Exclude<Bootstrap, 'None'>,
  cluster: KubeconfigCluster,
): Promise<string> {
  if (mode === 'ServiceAccount') {
    const name = bootstrapServiceAccountName(owner.name);
    await applyObject(deps.garden, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name, namespace: owner.namespace },
    });
    await applyObject(deps.garden, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: bootstrapClusterRoleBindingName(owner.namespace, name) },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: SeedBootstrapperClusterRole },
      subjects: [{ kind: 'ServiceAccount', name, namespace: owner.namespace }],
    } as KubernetesObject);
    return bootstrapKubeconfig(cluster, await deps.requestServiceAccountToken(owner.namespace, name));
  }
  const now = deps.now();
  const id = bootstrapTokenID(owner);
  const existing = await deps.garden
    .get(Kinds.Secret, { namespace: BootstrapTokenNamespace, name: bootstrapTokenSecretName(id) })
    .catch(ignoreNotFound);
  const data = existing?.data as Record<string, string> | undefined;
  let token = validBootstrapToken(data, now);
  if (!token) {
    // An expired token is issued again; a well-formed secret is kept, as Gardener does.
    const secret = validBootstrapToken(data, new Date(0))?.secret;
    token = secret ? { id, secret } : newBootstrapToken(id);
    await applyObject(
      deps.garden,
      bootstrapTokenSecret(token, {
        description: bootstrapTokenDescription('managed seed', owner.namespace, owner.name),
        expiration: new Date(now.getTime() + BootstrapTokenValidityMs),
      }),
    );
  }
  return bootstrapKubeconfig(cluster, bootstrapTokenString(token));
}
