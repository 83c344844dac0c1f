// A gardenlet for one seed, deployed the way Gardener's local setup does it (`make gardener-up`, and
// `make gardenlet-kind2-up` for a second seed): what an operator prepares in the garden for the TLS bootstrap (a
// bootstrap token, the seed-bootstrapper role), then the chart deploy/charts/gardenlet rendered with the real helm
// and applied to the seed cluster, which registers its Seed and reports it ready. The token Secret, the bootstrap
// kubeconfig and the chart values are the gardenlet library's (the ManagedSeed controller deploys gardenlets the same way).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  bootstrapKubeconfig,
  bootstrapTokenDescription,
  bootstrapTokenSecret,
  bootstrapTokenString,
  gardenletChartValues,
  newBootstrapToken,
  type BootstrapToken,
  type KubeconfigCluster,
} from '@gardener-ts/gardenlet-controllers';
import { namespaceManifest, waitForPodsStartedAndReady, waitForSeedConditions, type Kubectl } from './kube.js';

export interface GardenletOptions {
  /** The gardener-ts workspace (deploy/charts/gardenlet). */
  workspace: string;
  /** kubectl with the garden's admin kubeconfig. */
  garden: Kubectl;
  /** The garden's admin kubeconfig file: its server and CA go into the bootstrap kubeconfig. */
  gardenKubeconfig: string;
  /** kubectl with the seed cluster's admin kubeconfig (the same cluster as the garden for seed local). */
  seed: Kubectl;
  /** helm with the landscape's caches. */
  helm: (args: string[]) => Promise<string>;
  /** The Seed's name (`seedConfig.metadata.name`). */
  seedName: string;
  /** Where the bootstrap kubeconfig is written (the seed cluster's own directory). */
  stateDir: string;
  /** The NATS servers the gardenlet publishes the shoot flows' progress to, as its Pod reaches them. */
  natsServers: string;
  /** Only Pods started after this count as up (a resumed landscape's Pods still say Ready from the last run). */
  since: number;
  /** More `--set` values for the chart (KEY=VALUE). */
  values?: string[];
}

/** Deploys the gardenlet of `seedName` into its seed cluster; resolves once the Seed is GardenletReady and Bootstrapped. */
export async function deployGardenlet(options: GardenletOptions): Promise<string> {
  const { garden, seed, helm } = options;
  // What an operator prepares for a gardenlet's TLS bootstrap, as Gardener's control plane chart does: a bootstrap
  // token, the seed-bootstrapper role for system:bootstrappers, and the seeds' permissions (cluster-admin stands in
  // for Gardener's SeedAuthorizer, which the landscape's API server does not call yet).
  const token = newBootstrapToken();
  await garden(['apply', '-f', '-'], gardenletBootstrapManifests(token, options.seedName));
  const admin = parse(await readFile(options.gardenKubeconfig, 'utf8')) as {
    clusters: { cluster: KubeconfigCluster }[];
  };
  const kubeconfig = bootstrapKubeconfig(admin.clusters[0]!.cluster, bootstrapTokenString(token));
  const kubeconfigFile = join(options.stateDir, 'gardenlet-bootstrap-kubeconfig');
  await writeFile(kubeconfigFile, kubeconfig, { mode: 0o600 });
  const chart = join(options.workspace, 'deploy/charts/gardenlet');
  await helm(['dependency', 'build', chart]);
  await seed(['apply', '-f', '-'], namespaceManifest('garden'));
  // Once bootstrapped, the gardenlet keeps its own kubeconfig Secret; the bootstrap Secret is only for the first time.
  const bootstrapped = await seed([
    '-n',
    'garden',
    'get',
    'secret',
    'gardenlet-kubeconfig',
    '--ignore-not-found',
    '-o',
    'name',
  ]);
  const values = gardenletChartValues({
    config: { nats: { servers: options.natsServers }, seedConfig: { metadata: { name: options.seedName } } },
    ...(bootstrapped.trim() ? {} : { bootstrapKubeconfig: kubeconfig }),
  });
  const valuesFile = join(options.stateDir, 'gardenlet-values.json');
  // JSON is YAML: helm reads the values file as is; `--set` values still override it.
  await writeFile(valuesFile, JSON.stringify(values), { mode: 0o600 });
  const manifests = await helm([
    'template',
    'gardenlet',
    chart,
    '--namespace',
    'garden',
    '--values',
    valuesFile,
    ...(options.values ?? []).flatMap((v) => ['--set', v]),
  ]);
  await seed(['apply', '--server-side', '--force-conflicts', '-n', 'garden', '-f', '-'], manifests);
  await waitForPodsStartedAndReady(seed, 'garden', 'app.kubernetes.io/instance=gardenlet', options.since);
  await waitForSeedConditions(garden, options.seedName, ['GardenletReady', 'Bootstrapped']);
  return `Seed ${options.seedName}: GardenletReady, Bootstrapped`;
}

/** The bootstrap token Secret (valid 24 h) and the roles a gardenlet's TLS bootstrap needs (kubectl apply input). */
export function gardenletBootstrapManifests(token: BootstrapToken, seedName: string): string {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'gardener-system-seed-lease' } },
    bootstrapTokenSecret(token, {
      description: bootstrapTokenDescription('seed', undefined, seedName),
      expiration: new Date(Date.now() + 24 * 3_600_000),
    }),
    // The backup credentials the seed's `spec.backup` names, as Gardener's local setup creates them (provider-local's
    // buckets are directories of the landscape: no credentials are needed).
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'backup-local', namespace: 'garden' }, type: 'Opaque' },
    // The DNS credentials the seed's `spec.dns.provider` names, as Gardener's local setup creates them.
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'internal-domain-internal-local-gardener-cloud',
        namespace: 'garden',
        labels: { 'gardener.cloud/role': 'internal-domain' },
        annotations: {
          'dns.gardener.cloud/provider': 'local',
          'dns.gardener.cloud/domain': 'internal.local.gardener.cloud',
        },
      },
      type: 'Opaque',
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'gardener.cloud:system:seed-bootstrapper' },
      rules: [
        { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['create', 'get'] },
        { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/seedclient'], verbs: ['create'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'gardener.cloud:system:seed-bootstrapper' },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'gardener.cloud:system:seed-bootstrapper',
      },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:bootstrappers' }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'gardener.cloud:system:seeds' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'gardener.cloud:system:seeds' }],
    },
  ]
    .map((o) => JSON.stringify(o))
    .join('\n---\n');
}
