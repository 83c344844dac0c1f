// `gardener-local shoot kubeconfig`: a short-lived admin kubeconfig for a shoot — what Gardener's
// `shoots/adminkubeconfig` subresource issues (a client certificate of the shoot's client CA in group
// `system:masters`, the cluster CA, the API server's advertised address). Our garden serves Shoots as CRDs, which
// cannot have that subresource, so the nearest equivalent is this command: it reads the shoot's client CA from the
// control plane namespace in the seed (an operator's access, as gardener-apiserver has it) and the cluster CA from the
// `<shoot>.ca-cluster` ConfigMap in the project namespace.
import { KubeConfig, KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import {
  decode,
  generateData,
  loadCertificateAuthority,
  LabelKeyManagedBy,
  LabelKeyManagerIdentity,
  LabelValueSecretsManager,
} from '@gardener-ts/secrets-manager';
import { stringify } from 'yaml';

/** What a shoot's admin kubeconfig is made of. */
export interface AdminKubeconfigInput {
  readonly shootName: string;
  readonly projectNamespace: string;
  /** The API server URL (an advertised address of the Shoot). */
  readonly server: string;
  readonly clusterCAPem: string;
  readonly clientCertPem: string;
  readonly clientKeyPem: string;
}

/** The kubeconfig YAML (pure). The context is named `<project namespace>--<shoot>`, as Gardener names it. */
export function adminKubeconfigYAML(input: AdminKubeconfigInput): string {
  const name = `${input.projectNamespace}--${input.shootName}`;
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': name,
    clusters: [{ name, cluster: { server: input.server, 'certificate-authority-data': b64(input.clusterCAPem) } }],
    users: [
      {
        name: `${name}-token`,
        user: { 'client-certificate-data': b64(input.clientCertPem), 'client-key-data': b64(input.clientKeyPem) },
      },
    ],
    contexts: [{ name, context: { cluster: name, user: `${name}-token` } }],
  });
}

type Secret = KubernetesObject & { data?: Record<string, string> };
type Shoot = KubernetesObject & {
  status?: { technicalID?: string; advertisedAddresses?: { name: string; url: string }[] };
};

/** Prefers the advertised address a user on this machine can reach. */
export function serverOf(shoot: Shoot): string | undefined {
  const addresses = shoot.status?.advertisedAddresses ?? [];
  const byName = (n: string) => addresses.find((a) => a.name === n)?.url;
  return byName('external') ?? byName('unmanaged') ?? byName('internal') ?? addresses[0]?.url;
}

/** Issues an admin kubeconfig for the Shoot `namespace/name`, valid `validitySeconds`. */
export async function issueAdminKubeconfig(
  garden: KubeConfig,
  seed: KubeConfig,
  target: { namespace: string; name: string },
  options: { validitySeconds: number; user: string; now?: Date },
): Promise<string> {
  const gardenApi = KubernetesObjectApi.makeApiClient(garden);
  const seedApi = KubernetesObjectApi.makeApiClient(seed);
  const shoot = (await gardenApi.read({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: target,
  })) as Shoot;
  const server = serverOf(shoot);
  const technicalID = shoot.status?.technicalID;
  if (!server || !technicalID) {
    throw new Error(`shoot ${target.namespace}/${target.name} has no API server address yet (it is not reconciled)`);
  }
  const caConfigMap = (await gardenApi.read({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { namespace: target.namespace, name: `${target.name}.ca-cluster` },
  })) as KubernetesObject & { data?: Record<string, string> };
  const clusterCAPem = caConfigMap.data?.['ca.crt'];
  if (!clusterCAPem) throw new Error(`ConfigMap ${target.namespace}/${target.name}.ca-cluster has no ca.crt`);

  // The newest `ca-client` of the gardenlet's secrets manager in the control plane namespace.
  const secrets = (
    await seedApi.list<Secret>(
      'v1',
      'Secret',
      technicalID,
      undefined,
      undefined,
      undefined,
      undefined, // fieldSelector
      `name=ca-client,${LabelKeyManagedBy}=${LabelValueSecretsManager},${LabelKeyManagerIdentity}=gardenlet`,
    )
  ).items;
  const newest = secrets.sort(
    (a, b) => Number(b.metadata?.labels?.['issued-at-time'] ?? 0) - Number(a.metadata?.labels?.['issued-at-time'] ?? 0),
  )[0];
  if (!newest) throw new Error(`no client CA (ca-client) in namespace ${technicalID} of the seed`);
  const ca = await loadCertificateAuthority(
    decode(newest as never, 'ca.crt').toString(),
    decode(newest as never, 'ca.key').toString(),
  );
  const data = await generateData(
    {
      kind: 'certificate',
      name: 'admin-kubeconfig',
      commonName: options.user,
      organization: ['system:masters'],
      certType: 'client',
      validity: options.validitySeconds * 1000,
      key: { algorithm: 'ECDSA', curve: 'P-256' },
    },
    { now: options.now ?? new Date(), signingCA: ca },
  );
  return adminKubeconfigYAML({
    shootName: target.name,
    projectNamespace: target.namespace,
    server,
    clusterCAPem,
    clientCertPem: data['tls.crt']!.toString(),
    clientKeyPem: data['tls.key']!.toString(),
  });
}
