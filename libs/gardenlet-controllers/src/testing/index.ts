// Test fixtures for a gardenlet's TLS bootstrap on a cluster that is garden and seed at once (as the local
// landscape): what an operator prepares (namespaces, a bootstrap token allowed to create CSRs, the seeds' permissions,
// the bootstrap kubeconfig Secret) and Gardener's example configuration with only the kubeconfigs and the seed set.
import { parse, stringify } from 'yaml';

/** The bootstrap token used by the fixtures (`<id>.<secret>`). */
export const BOOTSTRAP_TOKEN = { id: 'abcdef', secret: '0123456789abcdef' } as const;
/** The Secrets of Gardener's example (`gardenClientConnection.bootstrapKubeconfig` and `.kubeconfigSecret`). */
export const BOOTSTRAP_SECRET = { name: 'gardenlet-kubeconfig-bootstrap', namespace: 'garden' } as const;
export const KUBECONFIG_SECRET = { name: 'gardenlet-kubeconfig', namespace: 'garden' } as const;

/** A bootstrap kubeconfig for the cluster of `adminKubeconfig`, authenticating with the fixture's bootstrap token. */
export function bootstrapKubeconfig(adminKubeconfig: string): string {
  const admin = parse(adminKubeconfig) as { clusters: { cluster: Record<string, unknown> }[] };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'gardenlet-bootstrap',
    clusters: [{ name: 'garden', cluster: admin.clusters[0]!.cluster }],
    contexts: [{ name: 'gardenlet-bootstrap', context: { cluster: 'garden', user: 'gardenlet-bootstrap' } }],
    users: [{ name: 'gardenlet-bootstrap', user: { token: `${BOOTSTRAP_TOKEN.id}.${BOOTSTRAP_TOKEN.secret}` } }],
  });
}

/**
 * Manifests (for `kubectl apply -f -`) an operator prepares: the garden and seed lease namespaces, the bootstrap token
 * (stringData, as people write it), a ClusterRole letting bootstrappers create CSRs, the seeds group bound to
 * cluster-admin (a stand-in for Gardener's SeedAuthorizer) and the bootstrap kubeconfig Secret.
 */
export function bootstrapManifests(adminKubeconfig: string): string {
  const kubeconfig = Buffer.from(bootstrapKubeconfig(adminKubeconfig)).toString('base64');
  return `
apiVersion: v1
kind: Namespace
metadata: {name: garden}
---
apiVersion: v1
kind: Namespace
metadata: {name: gardener-system-seed-lease}
---
apiVersion: v1
kind: Secret
metadata: {name: bootstrap-token-${BOOTSTRAP_TOKEN.id}, namespace: kube-system}
type: bootstrap.kubernetes.io/token
stringData:
  token-id: ${BOOTSTRAP_TOKEN.id}
  token-secret: ${BOOTSTRAP_TOKEN.secret}
  usage-bootstrap-authentication: "true"
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: "gardener.cloud:system:seed-bootstrapper"}
rules:
- apiGroups: [certificates.k8s.io]
  resources: [certificatesigningrequests]
  verbs: [create, get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: "gardener.cloud:system:seed-bootstrapper"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "gardener.cloud:system:seed-bootstrapper"}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: "system:bootstrappers"}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: "gardener.cloud:system:seeds"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: "gardener.cloud:system:seeds"}]
---
apiVersion: v1
kind: Secret
metadata: {name: ${BOOTSTRAP_SECRET.name}, namespace: ${BOOTSTRAP_SECRET.namespace}}
data:
  kubeconfig: ${kubeconfig}
`;
}

/**
 * Gardener's example GardenletConfiguration (text) with only the kubeconfigs and the seed changed: the bootstrap and
 * kubeconfig Secrets, the seed kubeconfig, and `seedConfig` from Gardener's example Seed (`<provider-name>` → `local`).
 */
export function exampleGardenletConfig(
  exampleConfig: string,
  exampleSeed: string,
  options: { seedKubeconfig: string; seedName: string },
): string {
  const config = parse(exampleConfig) as Record<string, Record<string, unknown>>;
  config.gardenClientConnection = {
    ...config.gardenClientConnection,
    bootstrapKubeconfig: { ...BOOTSTRAP_SECRET },
    kubeconfigSecret: { ...KUBECONFIG_SECRET },
  };
  config.seedClientConnection = { ...config.seedClientConnection, kubeconfig: options.seedKubeconfig };
  const seed = parse(exampleSeed) as { spec: unknown };
  const spec = JSON.parse(JSON.stringify(seed.spec).replaceAll('<provider-name>', 'local')) as unknown;
  config.seedConfig = { metadata: { name: options.seedName }, spec };
  return stringify(config);
}
