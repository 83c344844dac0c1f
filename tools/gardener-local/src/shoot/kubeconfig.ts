// `gardener-local shoot kubeconfig`: a short-lived admin kubeconfig for a shoot — what Gardener's
// `shoots/adminkubeconfig` subresource issues (a client certificate of the shoot's client CA in group
// `system:masters`, the cluster CA, the API server's advertised address: the external one where this machine resolves
// it, else the load balancer's). Our garden serves Shoots as CRDs, which
// cannot have that subresource, so the nearest equivalent is this command. Like gardener-apiserver it needs only the
// garden: the client CA from the InternalSecret `<shoot>.ca-client` the gardenlet syncs to the project namespace, the
// cluster CA from the ConfigMap `<shoot>.ca-cluster` beside it. A shoot last reconciled by a gardenlet that did not
// sync its client CA yet has no InternalSecret; for it the client CA is read from the control plane namespace in the
// seed instead (an operator's access, given by `--seed-kubeconfig`).
import { lookup } from 'node:dns/promises';
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

/** Whether this machine resolves a host name (within 2 s). */
export async function hostResolves(host: string): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 2_000)));
  try {
    return await Promise.race([
      lookup(host).then(
        (a) => Boolean(a.address),
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The advertised address a user on this machine can reach: the `external` one (Gardener's admin kubeconfig address)
 * when its host name resolves here, else the load balancer's (`unmanaged`), else `internal` when it resolves, else the
 * first. On the local landscape only the substrate's Pods resolve `*.local.gardener.cloud`: a host without entries
 * for them (e.g. in /etc/hosts) gets the load balancer address.
 */
export async function serverOf(
  shoot: Shoot,
  resolves: (host: string) => Promise<boolean> = hostResolves,
): Promise<string | undefined> {
  const addresses = shoot.status?.advertisedAddresses ?? [];
  const byName = (n: string) => addresses.find((a) => a.name === n)?.url;
  const resolvable = async (url: string | undefined) =>
    url && (await resolves(new URL(url).hostname)) ? url : undefined;
  return (
    (await resolvable(byName('external'))) ??
    byName('unmanaged') ??
    (await resolvable(byName('internal'))) ??
    addresses[0]?.url
  );
}

/** What the command reads of a cluster: `read` and `list` of `KubernetesObjectApi`. */
export type ObjectReader = Pick<KubernetesObjectApi, 'read' | 'list'>;

/** A shoot's client CA (PEM), and where it was read. */
export interface ClientCA {
  readonly certificatePem: string;
  readonly privateKeyPem: string;
  readonly source: string;
}

const isNotFound = (err: unknown) => (err as { code?: number }).code === 404;

/** The client CA of an InternalSecret `<shoot>.ca-client` (keys `ca.crt`, `ca.key`), as gardener-apiserver loads it. */
export function clientCAOfInternalSecret(secret: Secret): ClientCA {
  const { namespace, name } = secret.metadata ?? {};
  const certificatePem = b64decode(secret.data?.['ca.crt']);
  const privateKeyPem = b64decode(secret.data?.['ca.key']);
  if (!certificatePem || !privateKeyPem) {
    throw new Error(
      `could not load client CA certificate from InternalSecret ${namespace}/${name}: no ca.crt or ca.key`,
    );
  }
  return { certificatePem, privateKeyPem, source: `InternalSecret ${namespace}/${name}` };
}

/** The newest `ca-client` of the gardenlet's secrets manager among a control plane namespace's secrets. */
export function newestClientCASecret(secrets: readonly Secret[]): Secret | undefined {
  const issuedAt = (s: Secret) => Number(s.metadata?.labels?.['issued-at-time'] ?? 0);
  return [...secrets].sort((a, b) => issuedAt(b) - issuedAt(a))[0];
}

function b64decode(value: string | undefined): string | undefined {
  return value ? Buffer.from(value, 'base64').toString() : undefined;
}

/**
 * The shoot's current client CA: the InternalSecret `<shoot>.ca-client` in the garden; without it (a shoot not
 * reconciled since the gardenlet syncs it), the newest `ca-client` Secret of the control plane namespace in `seed`.
 */
export async function readClientCA(
  garden: ObjectReader,
  seed: ObjectReader | undefined,
  target: { namespace: string; name: string },
  technicalID: string | undefined,
): Promise<ClientCA> {
  const name = `${target.name}.ca-client`;
  try {
    const secret = (await garden.read({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'InternalSecret',
      metadata: { namespace: target.namespace, name },
    })) as Secret;
    return clientCAOfInternalSecret(secret);
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  const missing = `InternalSecret ${target.namespace}/${name} not found (the shoot was not reconciled since its gardenlet syncs the client CA to the garden)`;
  if (!seed) throw new Error(`${missing}; reconcile the shoot, or pass --seed-kubeconfig of the seed it runs on`);
  if (!technicalID) throw new Error(`${missing}, and the shoot has no technicalID to find it in the seed`);
  const secrets = (
    await seed.list<Secret>(
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
  const newest = newestClientCASecret(secrets);
  if (!newest) {
    throw new Error(
      `${missing}, and there is no client CA (ca-client) in namespace ${technicalID} of the seed; reconcile the shoot, or pass --seed-kubeconfig of the seed it runs on`,
    );
  }
  return {
    certificatePem: decode(newest as never, 'ca.crt').toString(),
    privateKeyPem: decode(newest as never, 'ca.key').toString(),
    source: `Secret ${technicalID}/${newest.metadata?.name} of the seed`,
  };
}

/**
 * Issues an admin kubeconfig for the Shoot `namespace/name`, valid `validitySeconds`, from the garden alone; the seed
 * is read only for a shoot whose client CA is not in the garden yet (see {@link readClientCA}).
 */
export async function issueAdminKubeconfig(
  garden: KubeConfig | ObjectReader,
  seed: KubeConfig | ObjectReader | undefined,
  target: { namespace: string; name: string },
  options: {
    validitySeconds: number;
    user: string;
    now?: Date;
    /** Whether this machine resolves a host name (default: a DNS lookup), for choosing the server address. */
    resolves?: (host: string) => Promise<boolean>;
  },
): Promise<string> {
  const reader = (c: KubeConfig | ObjectReader) => (c instanceof KubeConfig ? KubernetesObjectApi.makeApiClient(c) : c);
  const gardenApi = reader(garden);
  const shoot = (await gardenApi.read({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: target,
  })) as Shoot;
  const server = await serverOf(shoot, options.resolves);
  if (!server) {
    throw new Error(`shoot ${target.namespace}/${target.name} has no API server address yet (it is not reconciled)`);
  }
  const caConfigMap = (await gardenApi.read({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { namespace: target.namespace, name: `${target.name}.ca-cluster` },
  })) as KubernetesObject & { data?: Record<string, string> };
  const clusterCAPem = caConfigMap.data?.['ca.crt'];
  if (!clusterCAPem) throw new Error(`ConfigMap ${target.namespace}/${target.name}.ca-cluster has no ca.crt`);

  const clientCA = await readClientCA(
    gardenApi,
    seed === undefined ? undefined : reader(seed),
    target,
    shoot.status?.technicalID,
  );
  const ca = await loadCertificateAuthority(clientCA.certificatePem, clientCA.privateKeyPem);
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
