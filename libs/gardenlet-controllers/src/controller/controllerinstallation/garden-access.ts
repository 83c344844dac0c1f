// How an extension installed by a ControllerInstallation reaches the garden, as Gardener's gardenlet arranges it
// (pkg/gardenlet/controller/controllerinstallation/controllerinstallation, docs/extensions/garden-api-access.md): the
// garden access Secret `garden-access-extension` (class `garden`: the gardenlet's TokenRequestor writes into it a
// token of ServiceAccount `extension-<installation>` in the garden's `seed-<seed>` namespace, labelled with the
// ControllerRegistration), the immutable `generic-garden-kubeconfig-<hash>` Secret (the garden's server and CA, the
// token read from a file), and, for a ControllerDeployment with `injectGardenKubeconfig`, both mounted into the
// extension's workloads with `GARDEN_KUBECONFIG` pointing at the kubeconfig. Every workload also gets `SEED_NAME`.
// Pure builders and mutators.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import {
  injectAnnotations,
  Label as ResourcesLabel,
  TokenRequestorAnnotation,
  TokenRequestorLabel,
} from '@gardener-ts/resourcemanager';
import { TokenRequestorPurpose } from '../../component/shoot-access.js';

/** The garden access Secret of every installation, in its `extension-<name>` namespace. */
export const GARDEN_ACCESS_SECRET_NAME = 'garden-access-extension';
/** The name prefix of the generic garden kubeconfig Secret (a checksum of its data follows). */
export const GENERIC_GARDEN_KUBECONFIG_PREFIX = 'generic-garden-kubeconfig';
/** Where the kubeconfig and the token are mounted in the extension's containers. */
export const GENERIC_GARDEN_KUBECONFIG_DIR = '/var/run/secrets/gardener.cloud/garden/generic-kubeconfig';
/** The token file the generic garden kubeconfig's user reads. */
export const GARDEN_TOKEN_PATH = `${GENERIC_GARDEN_KUBECONFIG_DIR}/token`;
/** The environment variable naming the kubeconfig file. */
export const ENV_GARDEN_KUBECONFIG = 'GARDEN_KUBECONFIG';
/** The environment variable naming the seed. */
export const ENV_SEED_NAME = 'SEED_NAME';
/** The volume holding the kubeconfig and the token. */
export const GARDEN_KUBECONFIG_VOLUME = 'garden-kubeconfig';
/** A workload labelled `false` does not get the garden kubeconfig. */
export const INJECT_GARDEN_KUBECONFIG_LABEL = 'extensions.gardener.cloud/inject-garden-kubeconfig';
/** The label on the garden ServiceAccount naming the ControllerRegistration. */
export const CONTROLLER_REGISTRATION_NAME_LABEL = 'controllerregistration.core.gardener.cloud/name';

/** The ServiceAccount of an installation's extension in the garden (in `seed-<seed>`). */
export const extensionGardenServiceAccountName = (installation: string) => `extension-${installation}`;

/**
 * The garden access Secret for the TokenRequestor of class `garden`: the token of ServiceAccount
 * `extension-<installation>` (created labelled with the registration) lands in its `token` key. Only labels,
 * annotations and type: applied with server-side apply, it leaves the token the TokenRequestor wrote.
 */
export function gardenAccessSecret(namespace: string, installation: string, registration: string): KubernetesObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: GARDEN_ACCESS_SECRET_NAME,
      namespace,
      labels: { [TokenRequestorLabel.Purpose]: TokenRequestorPurpose, [TokenRequestorLabel.Class]: 'garden' },
      annotations: {
        [TokenRequestorAnnotation.ServiceAccountName]: extensionGardenServiceAccountName(installation),
        [TokenRequestorAnnotation.ServiceAccountLabels]: JSON.stringify({
          [CONTROLLER_REGISTRATION_NAME_LABEL]: registration,
        }),
      },
    },
    type: 'Opaque',
  } as KubernetesObject;
}

/** The garden as the extensions reach it: server, CA (base64 PEM) or no TLS verification. */
export interface GenericGardenCluster {
  server: string;
  /** The CA bundle, base64-encoded PEM (kubeconfig `certificate-authority-data`). */
  caData?: string;
  insecureSkipTLSVerify?: boolean;
}

/**
 * The garden for the generic kubeconfig from the gardenlet's own garden connection, with
 * `gardenClientConnection.gardenClusterAddress` and `gardenClusterCACert` (base64 PEM) overriding its server and CA
 * (Gardener's `PrepareGardenClientRestConfig`).
 */
export function genericGardenClusterOf(
  kubeConfig: KubeConfig,
  overrides: { gardenClusterAddress?: string | undefined; gardenClusterCACert?: string | undefined } = {},
): GenericGardenCluster {
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster && !overrides.gardenClusterAddress) {
    throw new Error('the garden kubeconfig has no current cluster and gardenClusterAddress is not set');
  }
  const server = overrides.gardenClusterAddress || cluster!.server;
  if (overrides.gardenClusterCACert) return { server, caData: overrides.gardenClusterCACert };
  const caData = cluster?.caData || (cluster?.caFile ? readFileSync(cluster.caFile).toString('base64') : undefined);
  return {
    server,
    ...(caData ? { caData } : {}),
    ...(cluster?.skipTLSVerify ? { insecureSkipTLSVerify: true } : {}),
  };
}

/** The generic garden kubeconfig (YAML): cluster and context `garden`, user `extension` reading the token file. */
export function genericGardenKubeconfig(garden: GenericGardenCluster): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'garden',
        cluster: {
          server: garden.server,
          ...(garden.caData ? { 'certificate-authority-data': garden.caData } : {}),
          ...(garden.insecureSkipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
        },
      },
    ],
    contexts: [{ name: 'garden', context: { cluster: 'garden', user: 'extension' } }],
    'current-context': 'garden',
    users: [{ name: 'extension', user: { tokenFile: GARDEN_TOKEN_PATH } }],
  });
}

/**
 * The immutable generic garden kubeconfig Secret of `namespace`, named `generic-garden-kubeconfig-<8 hex chars>` after
 * the SHA-256 of its data (Gardener's `MakeUnique`: a new kubeconfig is a new Secret, the old one is garbage
 * collected once no workload refers to it) and labelled `garbage-collectable-reference`.
 */
export function genericGardenKubeconfigSecret(namespace: string, kubeconfig: string): KubernetesObject {
  const data = { kubeconfig: Buffer.from(kubeconfig).toString('base64') };
  const checksum = createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, 8);
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: `${GENERIC_GARDEN_KUBECONFIG_PREFIX}-${checksum}`,
      namespace,
      labels: { [ResourcesLabel.GarbageCollectable]: 'true' },
    },
    type: 'Opaque',
    immutable: true,
    data,
  } as KubernetesObject;
}

type Obj = Record<string, any>;
interface Container {
  name?: string;
  env?: { name: string; value?: string }[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}

/** The kinds Gardener looks at when deciding whether the garden access is needed. */
const WORKLOAD_KINDS: Record<string, string[]> = {
  v1: ['Pod'],
  'apps/v1': ['Deployment', 'StatefulSet', 'DaemonSet'],
  'apps/v1beta2': ['Deployment', 'StatefulSet', 'DaemonSet'],
  'apps/v1beta1': ['Deployment', 'StatefulSet'],
  'batch/v1': ['Job', 'CronJob'],
  'batch/v1beta1': ['CronJob'],
};

/** Whether a workload wants the garden kubeconfig: not labelled `extensions.gardener.cloud/inject-garden-kubeconfig` other than `true`. */
export function enablesGardenKubeconfig(object: KubernetesObject): boolean {
  const value = object.metadata?.labels?.[INJECT_GARDEN_KUBECONFIG_LABEL];
  return value === undefined || value === 'true';
}

/**
 * Whether the garden access is needed: `injectGardenKubeconfig` is set and a rendered workload (Pod, Deployment,
 * StatefulSet, DaemonSet, Job, CronJob) wants it (Gardener's `needsGardenKubeconfig`).
 */
export function needsGardenKubeconfig(inject: boolean, objects: readonly KubernetesObject[]): boolean {
  if (!inject) return false;
  return objects.some(
    (o) => (WORKLOAD_KINDS[o.apiVersion ?? '']?.includes(o.kind ?? '') ?? false) && enablesGardenKubeconfig(o),
  );
}

/** Whether an object is a workload of the `apps` or `batch` group (the objects Gardener mutates). */
function isAppsOrBatchWorkload(o: KubernetesObject): boolean {
  const group = String(o.apiVersion ?? '').split('/');
  if (group.length !== 2 || (group[0] !== 'apps' && group[0] !== 'batch')) return false;
  return ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob'].includes(o.kind ?? '');
}

/** The pod spec of a workload of the `apps` and `batch` groups (created if absent), or undefined for anything else. */
function podSpecOf(o: Obj): Obj | undefined {
  if (!isAppsOrBatchWorkload(o)) return undefined;
  switch (o.kind) {
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
    case 'Job':
      return (((o.spec ??= {}).template ??= {}).spec ??= {});
    case 'CronJob':
      return (((((o.spec ??= {}).jobTemplate ??= {}).spec ??= {}).template ??= {}).spec ??= {});
    default:
      return undefined;
  }
}

const containersOf = (podSpec: Obj): Container[] => [...(podSpec.initContainers ?? []), ...(podSpec.containers ?? [])];

/** Replaces the entry named like `item`, else appends it. */
function upsert<T extends { name: string }>(list: T[] | undefined, item: T): T[] {
  const out = [...(list ?? [])];
  const i = out.findIndex((x) => x.name === item.name);
  if (i >= 0) out[i] = item;
  else out.push(item);
  return out;
}

/**
 * Mounts the generic garden kubeconfig and the garden access token into every (init) container of a workload as one
 * projected volume `garden-kubeconfig` at {@link GENERIC_GARDEN_KUBECONFIG_DIR}, sets `GARDEN_KUBECONFIG` and the
 * reference annotations of the Secrets it uses (Gardener's `InjectGenericGardenKubeconfig`). A workload whose
 * containers already set `GARDEN_KUBECONFIG` is left alone. Changes `object` in place.
 */
export function injectGenericGardenKubeconfig(
  object: KubernetesObject,
  kubeconfigSecretName: string,
  accessSecretName: string = GARDEN_ACCESS_SECRET_NAME,
): void {
  const podSpec = podSpecOf(object as Obj);
  if (!podSpec) return;
  const containers = containersOf(podSpec);
  if (containers.some((c) => c.env?.some((e) => e.name === ENV_GARDEN_KUBECONFIG))) return;
  podSpec.volumes = upsert(podSpec.volumes, {
    name: GARDEN_KUBECONFIG_VOLUME,
    projected: {
      defaultMode: 420,
      sources: [
        {
          secret: {
            name: kubeconfigSecretName,
            items: [{ key: 'kubeconfig', path: 'kubeconfig' }],
            optional: false,
          },
        },
        { secret: { name: accessSecretName, items: [{ key: 'token', path: 'token' }], optional: false } },
      ],
    },
  });
  for (const c of containers) {
    c.volumeMounts = upsert(c.volumeMounts, {
      name: GARDEN_KUBECONFIG_VOLUME,
      mountPath: GENERIC_GARDEN_KUBECONFIG_DIR,
      readOnly: true,
    });
  }
  injectAnnotations(object as Obj);
  for (const c of containers) {
    c.env = upsert(c.env, { name: ENV_GARDEN_KUBECONFIG, value: `${GENERIC_GARDEN_KUBECONFIG_DIR}/kubeconfig` });
  }
}

/** Sets `SEED_NAME` in every (init) container of a workload of the `apps` and `batch` groups. */
export function injectSeedName(object: KubernetesObject, seedName: string): void {
  const podSpec = podSpecOf(object as Obj);
  if (!podSpec) return;
  for (const c of containersOf(podSpec)) c.env = upsert(c.env, { name: ENV_SEED_NAME, value: seedName });
}

/**
 * The rendered objects with Gardener's mutations: the objects of the `apps` and `batch` groups in the extension's
 * `namespace` get `SEED_NAME` and, when `garden` is given, the generic garden kubeconfig (those that do not opt
 * out with the inject label). Returns copies; the input stays as it is.
 */
export function mutateRenderedObjects(
  objects: readonly KubernetesObject[],
  namespace: string,
  seedName: string,
  garden?: { kubeconfigSecretName: string },
): KubernetesObject[] {
  return objects.map((original) => {
    if (original.metadata?.namespace !== namespace || !isAppsOrBatchWorkload(original)) return original;
    const object = structuredClone(original);
    if (garden && enablesGardenKubeconfig(object)) injectGenericGardenKubeconfig(object, garden.kubeconfigSecretName);
    injectSeedName(object, seedName);
    return object;
  });
}
