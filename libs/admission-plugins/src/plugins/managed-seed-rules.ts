// The rules of Gardener's ManagedSeed admission plugin (plugin/pkg/managedseed/validator) as pure functions of the
// ManagedSeed, its Shoot and what the plugin looked up: which Shoots can be registered as seeds, how the gardenlet's
// seed spec (`spec.gardenlet.config.seedConfig.spec`) is defaulted from the Shoot — backup and seed provider type,
// region and zones, the nodes/pods/services networks, the ingress domain from the Shoot's DNS domain, the DNS provider,
// the seed VPA switched off — and which differences from the Shoot are refused, with Gardener's paths and words.
import { FieldPath, forbidden, invalid, type FieldError } from '@gardener-ts/api';
import type { KubeObject } from '../attributes.js';

/** Where the gardenlet's seed spec lives in a ManagedSeed. */
export const seedSpecPath = FieldPath.root('spec', 'gardenlet', 'config', 'seedConfig', 'spec');

/** A Seed's DNS provider as the plugin derives it from the Shoot (Gardener's SeedDNSProvider). */
export interface SeedDNSProvider {
  type: string;
  secretRef: { name: string; namespace: string };
}

/** The outcome of looking up the seed DNS provider: a provider, or why there is none (a field error's detail). */
export type SeedDNSProviderLookup = { provider: SeedDNSProvider } | { error: string };

/** `namespace/name` of an object (controller-runtime's `client.ObjectKeyFromObject` printed). */
export const objectKey = (o: KubeObject) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

/** The gardenlet's seed spec of a ManagedSeed (Gardener's ExtractSeedSpec), `undefined` without a seed config. */
export function seedSpecOf(managedSeed: KubeObject): KubeObject | undefined {
  return managedSeed.spec?.gardenlet?.config?.seedConfig?.spec;
}

/** The zones of all worker pools of the Shoot, sorted and without repeats (GetAllZonesFromShoot, `sets.List`). */
export function shootZones(shoot: KubeObject): string[] {
  const zones = new Set<string>((shoot.spec?.provider?.workers ?? []).flatMap((w: KubeObject) => w.zones ?? []));
  return [...zones].sort();
}

/**
 * Why the Shoot cannot be registered as a seed (the detail of Gardener's `spec.shoot.name` Invalid value), checked in
 * Gardener's order: a DNS domain, no nginx-ingress addon, the Shoot's VPA, workers.
 */
export function shootRegistrationError(shoot: KubeObject): string | undefined {
  if (!shoot.spec?.dns?.domain) return `shoot ${objectKey(shoot)} does not specify a domain`;
  if (shoot.spec?.addons?.nginxIngress?.enabled === true)
    return 'shoot ingress addon is not supported for managed seeds - use the managed seed ingress controller';
  if (shoot.spec?.kubernetes?.verticalPodAutoscaler?.enabled !== true)
    return 'shoot VPA has to be enabled for managed seeds';
  if ((shoot.spec?.provider?.workers ?? []).length === 0)
    return 'workerless shoot cannot be used to create managed seed';
  return undefined;
}

/** Whether the Shoot sets `feature` to false for a component (Gardener's `...FeatureGateDisabled` helpers). */
const featureGateDisabled = (component: KubeObject | undefined, feature: string) =>
  component?.featureGates?.[feature] === false;

/** The seed spec after Gardener's admitSeedSpec, and the refused differences from the Shoot. */
export interface AdmittedSeedSpec {
  spec: KubeObject;
  errors: FieldError[];
}

/**
 * Gardener's admitSeedSpec: fills what the seed spec leaves open from the Shoot and refuses what contradicts it.
 * Defaulted: `backup.provider` (of a configured backup) and `provider.type` from the Shoot's provider type,
 * `provider.region` from its region, `provider.zones` from its workers' zones, `networks.nodes/pods/services` from its
 * networking, `ingress` (nginx controller) and `ingress.domain` (`ingress.<shoot domain>`), `dns.provider` from `dns`
 * (looked up only when the seed spec has none) and `settings.verticalPodAutoscaler.enabled: false`. Refused: another
 * ingress domain, networks, provider type or region than the Shoot's, the seed VPA, and topology-aware routing when the
 * Shoot disables `TopologyAwareHints` for kube-apiserver, kube-controller-manager or kube-proxy.
 */
export function admitSeedSpec(
  input: KubeObject,
  shoot: KubeObject,
  dns: SeedDNSProviderLookup | undefined,
  path: FieldPath = seedSpecPath,
): AdmittedSeedSpec {
  const spec: KubeObject = structuredClone(input);
  const errors: FieldError[] = [];
  const shootSpec = shoot.spec ?? {};
  const providerType: string = shootSpec.provider?.type ?? '';

  if (spec.backup && !spec.backup.provider) spec.backup.provider = providerType;

  spec.ingress ??= { controller: { kind: 'nginx' } };
  spec.dns ??= {};
  if (!spec.dns.provider && dns) {
    if ('error' in dns) errors.push(invalid(path.child('ingress'), spec.ingress, dns.error));
    else spec.dns.provider = dns.provider;
  }

  const ingressDomain = `ingress.${shootSpec.dns?.domain ?? ''}`;
  if (!spec.ingress.domain) spec.ingress.domain = ingressDomain;
  else if (spec.ingress.domain !== ingressDomain)
    errors.push(
      invalid(
        path.child('ingress', 'domain'),
        spec.ingress.domain,
        `seed ingress domain must be equal to shoot DNS domain ${ingressDomain}`,
      ),
    );

  spec.networks ??= {};
  const networking = shootSpec.networking ?? {};
  if (spec.networks.nodes === undefined) {
    if (networking.nodes !== undefined) spec.networks.nodes = networking.nodes;
  } else if (networking.nodes !== undefined && spec.networks.nodes !== networking.nodes)
    errors.push(
      invalid(
        path.child('networks', 'nodes'),
        spec.networks.nodes,
        `seed nodes CIDR must be equal to shoot nodes CIDR ${networking.nodes}`,
      ),
    );
  if (!spec.networks.pods && networking.pods !== undefined) spec.networks.pods = networking.pods;
  else if (networking.pods !== undefined && spec.networks.pods !== networking.pods)
    errors.push(
      invalid(
        path.child('networks', 'pods'),
        spec.networks.pods,
        `seed pods CIDR must be equal to shoot pods CIDR ${networking.pods}`,
      ),
    );
  if (!spec.networks.services && networking.services !== undefined) spec.networks.services = networking.services;
  else if (networking.services !== undefined && spec.networks.services !== networking.services)
    // Gardener reports the pods CIDR as the bad value of the services field.
    errors.push(
      invalid(
        path.child('networks', 'services'),
        spec.networks.pods ?? '',
        `seed services CIDR must be equal to shoot services CIDR ${networking.services}`,
      ),
    );

  spec.provider ??= {};
  if (!spec.provider.type) spec.provider.type = providerType;
  else if (spec.provider.type !== providerType)
    errors.push(
      invalid(
        path.child('provider', 'type'),
        spec.provider.type,
        `seed provider type must be equal to shoot provider type ${providerType}`,
      ),
    );
  const region: string = shootSpec.region ?? '';
  if (!spec.provider.region) spec.provider.region = region;
  else if (spec.provider.region !== region)
    errors.push(
      invalid(
        path.child('provider', 'region'),
        spec.provider.region,
        `seed provider region must be equal to shoot region ${region}`,
      ),
    );
  const zones = shootZones(shoot);
  if ((spec.provider.zones ?? []).length === 0 && zones.length > 0) spec.provider.zones = zones;

  if (spec.settings?.verticalPodAutoscaler === undefined) {
    spec.settings ??= {};
    spec.settings.verticalPodAutoscaler = { enabled: false };
  } else if (spec.settings.verticalPodAutoscaler.enabled === true)
    errors.push(
      invalid(
        path.child('settings', 'verticalPodAutoscaler', 'enabled'),
        true,
        'seed VPA is not supported for managed seeds - use the shoot VPA',
      ),
    );

  if (spec.settings?.topologyAwareRouting?.enabled === true) {
    const routingPath = path.child('settings', 'topologyAwareRouting', 'enabled');
    const components: [KubeObject | undefined, string][] = [
      [shootSpec.kubernetes?.kubeAPIServer, 'kube-apiserver'],
      [shootSpec.kubernetes?.kubeControllerManager, 'kube-controller-manager'],
      [shootSpec.kubernetes?.kubeProxy, 'kube-proxy'],
    ];
    for (const [component, name] of components)
      if (featureGateDisabled(component, 'TopologyAwareHints'))
        errors.push(
          invalid(
            routingPath,
            true,
            `the topology-aware routing seed setting cannot be enabled when the TopologyAwareHints feature gate is disabled for ${name}`,
          ),
        );
  }
  return { spec, errors };
}

const zonesPath = seedSpecPath.child('provider', 'zones');

/** On CREATE every zone of the seed spec must be one of the Shoot's workers (validateManagedSeedCreate). */
export function createZoneErrors(seedSpec: KubeObject | undefined, shoot: KubeObject): FieldError[] {
  const zones: string[] = seedSpec?.provider?.zones ?? [];
  const available = new Set(shootZones(shoot));
  if (zones.every((z) => available.has(z))) return [];
  return [invalid(zonesPath, zones, 'cannot use zone in seed provider that is not available in referenced shoot')];
}

/**
 * On UPDATE (validateManagedSeedUpdate): no zone may be removed while Shoots are scheduled onto the seed, and the zones
 * added must be zones of the Shoot's workers (older zones may differ: Gardener once allowed other names).
 */
export function updateZoneErrors(
  oldSeedSpec: KubeObject | undefined,
  seedSpec: KubeObject | undefined,
  shoot: KubeObject,
  shootsOnSeed: boolean,
): FieldError[] {
  const errors: FieldError[] = [];
  const oldZones = new Set<string>(oldSeedSpec?.provider?.zones ?? []);
  const zones = new Set<string>(seedSpec?.provider?.zones ?? []);
  if (shootsOnSeed && [...oldZones].some((z) => !zones.has(z)))
    errors.push(forbidden(zonesPath, 'zones must not be removed while shoots are still scheduled onto seed'));
  const available = new Set(shootZones(shoot));
  const added = [...zones].filter((z) => !oldZones.has(z));
  if (!added.every((z) => available.has(z)))
    errors.push(
      invalid(
        zonesPath,
        added,
        'added zones must match zone names configured for workers in the referenced shoot cluster',
      ),
    );
  return errors;
}
