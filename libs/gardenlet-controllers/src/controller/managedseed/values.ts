// The gardenlet a ManagedSeed deploys into its shoot, as Gardener's gardenletdeployer and ValuesHelper derive it
// (pure): the ManagedSeed's `spec.gardenlet.config` merged over the parent gardenlet's own configuration when
// `mergeWithParent` (the parent's bootstrap kubeconfig, seed kubeconfig and seed left out), the garden client
// connection prepared for the bootstrap mode, the seed named like the ManagedSeed, leader election in the gardenlet's
// namespace, and `spec.gardenlet.deployment` translated into the values of deploy/charts/gardenlet.
import { GardenNamespace } from '@gardener-ts/api';
import {
  GardenletBootstrapKubeconfigSecretName,
  GardenletKubeconfigSecretName,
  gardenletChartValues,
} from '../../charts/gardenlet-chart.js';
import type { ManagedSeed } from './kinds.js';

/** A JSON object. */
export type Values = Record<string, unknown>;

/** The bootstrap modes of `spec.gardenlet.bootstrap` (Gardener's default: BootstrapToken). */
export type Bootstrap = 'BootstrapToken' | 'ServiceAccount' | 'None';

const isObject = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v);
const clone = <T>(v: T): T => structuredClone(v);

/**
 * Gardener's `utils.MergeMaps` (pure): `override` over `base`, objects merged key by key, anything else (lists too)
 * taken from `override`.
 */
export function mergeValues(base: Values, override: Values): Values {
  const out: Values = { ...base };
  for (const [k, v] of Object.entries(override)) {
    const b = Object.hasOwn(out, k) ? out[k] : undefined;
    // Defined, not assigned: a key `__proto__` (valid JSON) stays a key and never becomes the prototype.
    Object.defineProperty(out, k, {
      value: isObject(b) && isObject(v) ? mergeValues(b, v) : clone(v),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** `values` without the key at `path` (pure; objects on the way copied). */
function without(values: Values, path: readonly string[]): Values {
  const [head, ...rest] = path;
  if (head === undefined || !(head in values)) return values;
  const out = { ...values };
  if (rest.length === 0) delete out[head];
  else if (isObject(out[head])) out[head] = without(out[head], rest);
  return out;
}

/**
 * What of the parent's configuration a child inherits (Gardener's `MergeGardenletConfiguration`): everything but
 * `gardenClientConnection.bootstrapKubeconfig`, `seedClientConnection.kubeconfig` and `seedConfig`. gardener-ts also
 * leaves out `nats`: the NATS servers (and credentials files) are those the parent's Pod reaches.
 */
export function parentConfigValues(parent: Values): Values {
  return [
    ['gardenClientConnection', 'bootstrapKubeconfig'],
    ['seedClientConnection', 'kubeconfig'],
    ['seedConfig'],
    ['nats'],
  ].reduce((v, path) => without(v, path), clone(parent));
}

/** The child's configuration: `config` over the parent's when `mergeWithParent` (pure). */
export function mergeGardenletConfiguration(parent: Values, config: Values, mergeWithParent: boolean): Values {
  return mergeWithParent ? mergeValues(parentConfigValues(parent), config) : clone(config);
}

/** The Seed template of a gardenlet configuration (`seedConfig`); a ManagedSeed's gardenlet must register one. */
export function seedTemplateOf(config: Values | undefined, managedSeedName: string): { spec: Values } {
  if (!config) throw new Error(`no gardenlet config provided in object: "${managedSeedName}"`);
  const apiVersion = config['apiVersion'];
  const kind = config['kind'];
  if (apiVersion !== 'gardenlet.config.gardener.cloud/v1alpha1' || kind !== 'GardenletConfiguration') {
    throw new Error(
      `spec.gardenlet.config of ManagedSeed "${managedSeedName}" is ${String(apiVersion)}/${String(kind)}, not a gardenlet.config.gardener.cloud/v1alpha1 GardenletConfiguration`,
    );
  }
  const seedConfig = config['seedConfig'];
  if (!isObject(seedConfig))
    throw new Error(`spec.gardenlet.config of ManagedSeed "${managedSeedName}" has no seedConfig`);
  return { spec: isObject(seedConfig['spec']) ? seedConfig['spec'] : {} };
}

/** What the garden client connection needs for the bootstrap (Gardener's `prepareGardenClientConnectionWithBootstrap`). */
export type BootstrapPlan =
  /** `None`: no bootstrap; the configuration names its own kubeconfig. */
  | { kind: 'none' }
  /** The gardenlet's kubeconfig Secret exists in the shoot: it has its client certificate already. */
  | { kind: 'bootstrapped' }
  /** A bootstrap kubeconfig is needed; `deleteKubeconfigSecret` when the existing one must go first. */
  | { kind: 'bootstrap'; deleteKubeconfigSecret: boolean; reason?: string };

/**
 * The bootstrap plan (pure): with a bootstrap mode, a new bootstrap when the Seed's client certificate expired or the
 * ManagedSeed asks for `renew-kubeconfig` (the old kubeconfig Secret deleted first), none when the kubeconfig Secret
 * exists, else a first bootstrap.
 */
export function bootstrapPlan(input: {
  bootstrap: Bootstrap;
  clientCertificateExpiration?: string | undefined;
  renewKubeconfig: boolean;
  kubeconfigSecretExists: boolean;
  now: Date;
}): BootstrapPlan {
  if (input.bootstrap === 'None') return { kind: 'none' };
  const expires = Date.parse(input.clientCertificateExpiration ?? '');
  if (!Number.isNaN(expires) && expires < input.now.getTime()) {
    return { kind: 'bootstrap', deleteKubeconfigSecret: true, reason: 'client certificate expired' };
  }
  if (input.renewKubeconfig) return { kind: 'bootstrap', deleteKubeconfigSecret: true, reason: 'renew-kubeconfig' };
  if (input.kubeconfigSecretExists) return { kind: 'bootstrapped' };
  return { kind: 'bootstrap', deleteKubeconfigSecret: false };
}

/** The gardenlet's kubeconfig Secret in the target cluster the configuration names (Gardener's default otherwise). */
export function kubeconfigSecretRef(config: Values, namespace = GardenNamespace): { name: string; namespace: string } {
  const gcc = isObject(config['gardenClientConnection']) ? config['gardenClientConnection'] : {};
  const ref = isObject(gcc['kubeconfigSecret']) ? gcc['kubeconfigSecret'] : {};
  return {
    name: typeof ref['name'] === 'string' ? ref['name'] : GardenletKubeconfigSecretName,
    namespace: typeof ref['namespace'] === 'string' ? ref['namespace'] : namespace,
  };
}

/**
 * The final configuration of the child (pure, Gardener's `PrepareGardenletChartValues`): the garden client connection
 * for the plan (`none`: neither kubeconfig Secret; otherwise the kubeconfig Secret defaulted, and for a bootstrap the
 * bootstrap kubeconfig Secret defaulted and no kubeconfig), `seedConfig.metadata.name` the ManagedSeed's name, leader
 * election in `namespace`.
 */
export function childGardenletConfig(
  config: Values,
  plan: BootstrapPlan,
  name: string,
  namespace = GardenNamespace,
): Values {
  const out = clone(config);
  const gcc: Values = isObject(out['gardenClientConnection']) ? { ...out['gardenClientConnection'] } : {};
  if (plan.kind === 'none') {
    delete gcc['kubeconfigSecret'];
    delete gcc['bootstrapKubeconfig'];
  } else {
    gcc['kubeconfigSecret'] ??= { name: GardenletKubeconfigSecretName, namespace };
    if (plan.kind === 'bootstrap') {
      delete gcc['kubeconfig'];
      gcc['bootstrapKubeconfig'] ??= { name: GardenletBootstrapKubeconfigSecretName, namespace };
    }
  }
  out['gardenClientConnection'] = gcc;
  const seedConfig: Values = isObject(out['seedConfig']) ? { ...out['seedConfig'] } : {};
  seedConfig['metadata'] = { ...(isObject(seedConfig['metadata']) ? seedConfig['metadata'] : {}), name };
  out['seedConfig'] = seedConfig;
  out['leaderElection'] = {
    ...(isObject(out['leaderElection']) ? out['leaderElection'] : {}),
    resourceNamespace: namespace,
  };
  return out;
}

/** `spec.gardenlet.deployment` of a ManagedSeed. */
export type GardenletDeployment = NonNullable<ManagedSeed['spec']['gardenlet']['deployment']>;

/** The chart's default container environment: TMPDIR for the helm child process (deploy/charts/gardenlet). */
const ChartEnv = [{ name: 'TMPDIR', value: '/tmp' }];

/**
 * `spec.gardenlet.deployment` as values of deploy/charts/gardenlet (pure): replicaCount → replicas, image, resources,
 * podAnnotations, env (the chart's TMPDIR kept unless set), additionalVolumes/-Mounts → extraVolumes/-Mounts,
 * serviceAccountName → serviceAccount.name. podLabels and revisionHistoryLimit have no chart value yet; the
 * `checksum/seed-backup-secret` annotation is added by the caller.
 */
export function deploymentValues(deployment: GardenletDeployment | undefined): Values {
  if (!deployment) return {};
  const values: Values = {};
  if (deployment.replicaCount !== undefined) values['replicas'] = deployment.replicaCount;
  if (deployment.image) {
    const image = Object.fromEntries(Object.entries(deployment.image).filter(([, v]) => v !== undefined && v !== ''));
    if (Object.keys(image).length) values['image'] = image;
  }
  if (deployment.resources) values['resources'] = clone(deployment.resources);
  if (deployment.podAnnotations) values['podAnnotations'] = { ...deployment.podAnnotations };
  if (deployment.env?.length) {
    const env = clone(deployment.env) as { name?: string }[];
    values['env'] = [...ChartEnv.filter((e) => !env.some((x) => x.name === e.name)), ...env];
  }
  if (deployment.additionalVolumes?.length) values['extraVolumes'] = clone(deployment.additionalVolumes);
  if (deployment.additionalVolumeMounts?.length) values['extraVolumeMounts'] = clone(deployment.additionalVolumeMounts);
  if (deployment.serviceAccountName) values['serviceAccount'] = { name: deployment.serviceAccountName };
  return values;
}

/** The paths of the chart values whose objects replace the chart's defaults instead of merging with them. */
export function replacedPaths(plan: BootstrapPlan): string[][] {
  return [['config', 'seedConfig'], ...(plan.kind === 'none' ? [['config', 'gardenClientConnection']] : [])];
}

/** Everything the chart is rendered with for a ManagedSeed (pure). */
export function managedSeedChartValues(input: {
  deployment: GardenletDeployment | undefined;
  config: Values;
  bootstrapKubeconfig?: string | undefined;
  podAnnotations?: Record<string, string>;
}): Values {
  const values = deploymentValues(input.deployment);
  if (input.podAnnotations && Object.keys(input.podAnnotations).length) {
    values['podAnnotations'] = { ...(values['podAnnotations'] as Values | undefined), ...input.podAnnotations };
  }
  return gardenletChartValues({
    config: input.config,
    values,
    ...(input.bootstrapKubeconfig ? { bootstrapKubeconfig: input.bootstrapKubeconfig } : {}),
  });
}
