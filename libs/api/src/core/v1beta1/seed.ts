// Seed: a cluster that hosts the control planes of Shoots.
import { Type, type Static } from '@sinclair/typebox';
import { type KindInfo, ageColumn, defineKind, kindSchema } from '../../schema/kind.js';
import { ObjectReference, ServiceExternalTrafficPolicy, Toleration } from '../../schema/meta.js';
import {
  Bool,
  BoolMap,
  Int64,
  Opt,
  Quantity,
  RawExtension,
  ResourceList,
  Str,
  StringEnum,
  StringMap,
  Time,
} from '../../schema/primitives.js';
import {
  AccessRestriction,
  Backup,
  Condition,
  Extension,
  Gardener,
  GroupVersion,
  IPFamily,
  LastOperation,
  NamedResourceReference,
} from './common.js';

const SeedDNSProviderConfig = Type.Object({
  type: Str(),
  domain: Str(),
  zone: Opt(Str()),
  credentialsRef: ObjectReference,
});

const SeedDNS = Type.Object({
  provider: Opt(Type.Object({ type: Str(), credentialsRef: Opt(ObjectReference) })),
  internal: Opt(SeedDNSProviderConfig),
  defaults: Opt(Type.Array(SeedDNSProviderConfig)),
});

export const SeedNetworks = Type.Object({
  nodes: Opt(Str()),
  pods: Str(),
  services: Str(),
  shootDefaults: Opt(Type.Object({ pods: Opt(Str()), services: Opt(Str()) })),
  blockCIDRs: Opt(Type.Array(Str())),
  ipFamilies: Opt(Type.Array(IPFamily)),
});

const SeedProvider = Type.Object({
  type: Str(),
  providerConfig: Opt(RawExtension()),
  region: Str(),
  zones: Opt(Type.Array(Str())),
});

const ProxyProtocol = Type.Object({ allowed: Bool() });
const enabledFlag = Type.Object({ enabled: Bool() });

const SeedSettings = Type.Object({
  excessCapacityReservation: Opt(
    Type.Object({
      enabled: Opt(Bool()),
      configs: Opt(
        Type.Array(
          Type.Object({
            resources: ResourceList(),
            nodeSelector: Opt(StringMap()),
            tolerations: Opt(Type.Array(Toleration)),
          }),
        ),
      ),
    }),
  ),
  scheduling: Opt(Type.Object({ visible: Bool() })),
  loadBalancerServices: Opt(
    Type.Object({
      annotations: Opt(StringMap()),
      externalTrafficPolicy: Opt(ServiceExternalTrafficPolicy),
      zones: Opt(
        Type.Array(
          Type.Object({
            name: Str(),
            annotations: Opt(StringMap()),
            externalTrafficPolicy: Opt(ServiceExternalTrafficPolicy),
            proxyProtocol: Opt(ProxyProtocol),
          }),
        ),
      ),
      proxyProtocol: Opt(ProxyProtocol),
      zonalIngress: Opt(Type.Object({ enabled: Opt(Bool()) })),
      class: Opt(Str()),
    }),
  ),
  verticalPodAutoscaler: Opt(
    Type.Object({ enabled: Bool(), featureGates: Opt(BoolMap()), maxAllowed: Opt(ResourceList()) }),
  ),
  dependencyWatchdog: Opt(Type.Object({ weeder: Opt(enabledFlag), prober: Opt(enabledFlag) })),
  topologyAwareRouting: Opt(enabledFlag),
  zoneSelection: Opt(Type.Object({ mode: StringEnum(['Prefer', 'Enforce']) })),
  persistentVolumeClaimAutoscaler: Opt(enabledFlag),
});

export const SeedSpec = Type.Object({
  backup: Opt(Backup),
  dns: SeedDNS,
  networks: SeedNetworks,
  provider: SeedProvider,
  taints: Opt(Type.Array(Type.Object({ key: Str(), value: Opt(Str()) }))),
  volume: Opt(
    Type.Object({
      minimumSize: Opt(Quantity()),
      providers: Opt(Type.Array(Type.Object({ purpose: Str(), name: Str() }))),
    }),
  ),
  settings: Opt(SeedSettings),
  ingress: Opt(
    Type.Object({ domain: Str(), controller: Type.Object({ kind: Str(), providerConfig: Opt(RawExtension()) }) }),
  ),
  accessRestrictions: Opt(Type.Array(AccessRestriction)),
  extensions: Opt(Type.Array(Extension)),
  resources: Opt(Type.Array(NamedResourceReference)),
});
export type SeedSpec = Static<typeof SeedSpec>;

export const SeedStatus = Type.Object({
  gardener: Opt(Gardener),
  kubernetesVersion: Opt(Str()),
  conditions: Opt(Type.Array(Condition)),
  observedGeneration: Opt(Int64()),
  clusterIdentity: Opt(Str()),
  capacity: Opt(ResourceList()),
  allocatable: Opt(ResourceList()),
  clientCertificateExpirationTimestamp: Opt(Time()),
  constraints: Opt(Type.Array(Condition)),
  lastOperation: Opt(LastOperation),
});

const info: KindInfo = {
  ...GroupVersion,
  kind: 'Seed',
  plural: 'seeds',
  singular: 'seed',
  namespaced: false,
  statusSubresource: true,
  printerColumns: [
    { name: 'Status', type: 'string', jsonPath: '.status.lastOperation.state' },
    { name: 'Provider', type: 'string', jsonPath: '.spec.provider.type' },
    { name: 'Region', type: 'string', jsonPath: '.spec.provider.region' },
    ageColumn,
    { name: 'Version', type: 'string', jsonPath: '.status.gardener.version' },
    { name: 'K8S Version', type: 'string', jsonPath: '.status.kubernetesVersion' },
  ],
};

export const SeedKind = defineKind(info, kindSchema(info, { spec: SeedSpec, status: Opt(SeedStatus) }));
export type Seed = Static<typeof SeedKind.schema>;
