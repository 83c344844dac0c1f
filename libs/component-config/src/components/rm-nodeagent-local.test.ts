import { describe, expect, it } from 'vitest';
import { ConfigError, parseComponentConfig } from '../load.js';
import type { ComponentConfigSpec } from '../spec.js';
import { nodeAgentConfigSpec } from './node-agent.js';
import { providerLocalConfigSpec } from './provider-local.js';
import { resourceManagerConfigSpec } from './resource-manager.js';

function refusal<T>(spec: ComponentConfigSpec<T>, text: string): ConfigError {
  try {
    parseComponentConfig(spec, text);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected the configuration to be refused');
}

// Gardener's example/resource-manager/10-componentconfig.yaml, unchanged apart from dropped comments.
const RESOURCE_MANAGER_EXAMPLE = `
apiVersion: resourcemanager.config.gardener.cloud/v1alpha1
kind: ResourceManagerConfiguration
sourceClientConnection:
  qps: 100
  burst: 130
leaderElection:
  leaderElect: true
  leaseDuration: 15s
  renewDeadline: 10s
  retryPeriod: 2s
  resourceLock: leases
  resourceName: gardener-resource-manager
  resourceNamespace: default
logLevel: info
logFormat: text
server:
  webhooks:
    port: 9449
    tls:
      serverCertDir: example/resource-manager
  healthProbes:
    port: 8081
  metrics:
    port: 8080
debugging:
  enableProfiling: false
  enableContentionProfiling: false
controllers:
  garbageCollector:
    enabled: true
    syncPeriod: 1h
  health:
    concurrentSyncs: 5
    syncPeriod: 1m
  csrApprover:
    enabled: true
    concurrentSyncs: 1
    machineNamespace: shoot--foo--bar
  managedResources:
    concurrentSyncs: 5
    syncPeriod: 1m
    alwaysUpdate: false
    managedByLabelValue: gardener
  networkPolicy:
    enabled: true
    concurrentSyncs: 5
    ingressControllerSelector:
      namespace: default
      podSelector:
        matchLabels:
          foo: bar
  nodeCriticalComponents:
    enabled: true
    concurrentSyncs: 5
    backoff: 10s
  nodeAgentReconciliationDelay:
    enabled: true
    minDelay: 0s
    maxDelay: 5m
  tokenRequestor:
    enabled: true
    concurrentSyncs: 5
webhooks:
  crdDeletionProtection:
    enabled: true
  endpointSliceHints:
    enabled: true
  extensionValidation:
    enabled: true
  highAvailabilityConfig:
    enabled: true
    defaultNotReadyTolerationSeconds: 60
    defaultUnreachableTolerationSeconds: 60
  kubernetesServiceHost:
    enabled: true
    host: api.example.com
  podSchedulerName:
    enabled: true
    schedulerName: foo-scheduler
  podTopologySpreadConstraints:
    enabled: true
  projectedTokenMount:
    enabled: true
    expirationSeconds: 43200
  seccompProfile:
    enabled: true
  systemComponentsConfig:
    enabled: true
    nodeSelector:
      worker.gardener.cloud/system-components: "true"
    podNodeSelector:
      worker.gardener.cloud/system-components: "true"
    podTolerations:
  nodeAgentAuthorizer:
    enabled: true
    machineNamespace: shoot--foo--bar
`;

// What Gardener writes to /var/lib/gardener-node-agent/config.yaml (pkg/component/extensions/operatingsystemconfig/
// original/components/nodeagent): empty strings and zeros for everything it leaves to the defaults.
const NODE_AGENT_EXAMPLE = `
apiServer:
  caBundle: Y2EtYnVuZGxl
  server: https://api.local.example
apiVersion: nodeagent.config.gardener.cloud/v1alpha1
bootstrap: {}
clientConnection:
  acceptContentTypes: ""
  burst: 0
  contentType: ""
  kubeconfig: ""
  qps: 0
controllers:
  operatingSystemConfig:
    kubernetesVersion: 1.31.1
    secretName: osc-secret-name
  token:
    syncConfigs:
    - path: /var/lib/gardener-node-agent/credentials/token
      secretName: gardener-node-agent
    - path: /var/lib/valitail/auth-token
      secretName: gardener-valitail
    syncPeriod: 12h0m0s
    secretName: gardener-node-agent
featureGates:
  NodeAgentAuthorizer: true
kind: NodeAgentConfiguration
logFormat: ""
logLevel: ""
server: {}
`;

const PROVIDER_LOCAL_EXAMPLE = `
apiVersion: local.provider.extensions.config.gardener.cloud/v1alpha1
kind: ControllerConfiguration
etcd:
  storage:
    className: standard
    capacity: 10Gi
  backup:
    schedule: "0 */24 * * *"
healthCheckConfig:
  shootRESTOptions:
    qps: 100
imageVectorOverwrite: {}
`;

describe('resourceManagerConfigSpec', () => {
  it("accepts Gardener's example and applies Gardener's defaults", () => {
    const { config, ignoredFields } = parseComponentConfig(resourceManagerConfigSpec, RESOURCE_MANAGER_EXAMPLE);
    // Gardener's field is `managedResource`; the example's plural key is ignored by Gardener too.
    expect(ignoredFields).toEqual(['controllers.managedResources']);
    expect(config.logFormat).toBe('text');
    expect(config.sourceClientConnection).toMatchObject({ qps: 100, burst: 130, cacheResyncPeriod: '24h' });
    expect(config.targetClientConnection).toMatchObject({
      qps: 100,
      burst: 130,
      cacheResyncPeriod: '24h',
      kubeconfig: '',
    });
    expect(config.leaderElection).toMatchObject({
      resourceName: 'gardener-resource-manager',
      resourceNamespace: 'default',
    });
    expect(config.server.webhooks).toEqual({
      bindAddress: '',
      port: 9449,
      tls: { serverCertDir: 'example/resource-manager' },
    });
    expect(config.controllers.clusterID).toBe('');
    expect(config.controllers.resourceClass).toBe('resources');
    expect(config.controllers.managedResource).toEqual({
      concurrentSyncs: 5,
      syncPeriod: '1m',
      alwaysUpdate: false,
      managedByLabelValue: 'gardener',
    });
    expect(config.controllers.csrApprover).toEqual({
      enabled: true,
      concurrentSyncs: 1,
      machineNamespace: 'shoot--foo--bar',
    });
    expect(config.webhooks.systemComponentsConfig.podTolerations).toEqual([]);
    expect(config.webhooks.podSchedulerName.schedulerName).toBe('foo-scheduler');
    expect(resourceManagerConfigSpec.runtime(config)).toEqual({
      logLevel: 'info',
      logFormat: 'text',
      healthProbes: { bindAddress: '0.0.0.0', port: 8081 },
      metrics: { bindAddress: '0.0.0.0', port: 8080 },
    });
  });

  it('defaults a minimal configuration', () => {
    const { config } = parseComponentConfig(
      resourceManagerConfigSpec,
      'apiVersion: resourcemanager.config.gardener.cloud/v1alpha1\nkind: ResourceManagerConfiguration\n',
    );
    expect(config.leaderElection).toMatchObject({
      leaderElect: true,
      resourceName: 'gardener-resource-manager',
      resourceLock: 'leases',
    });
    expect(config.controllers.health).toEqual({ concurrentSyncs: 5, syncPeriod: '1m' });
    expect(config.webhooks.projectedTokenMount).toEqual({ enabled: false, expirationSeconds: 43200 });
    expect(config.webhooks.podSchedulerName.schedulerName).toBe('default-scheduler');
    expect(resourceManagerConfigSpec.runtime(config).healthProbes.port).toBe(8081);
  });

  it('refuses a configuration Gardener refuses, naming the field', () => {
    const err = refusal(
      resourceManagerConfigSpec,
      `apiVersion: resourcemanager.config.gardener.cloud/v1alpha1
kind: ResourceManagerConfiguration
controllers:
  managedResource:
    syncPeriod: 5s
webhooks:
  nodeAgentAuthorizer:
    enabled: true
`,
    );
    expect(err.message).toContain('controllers.managedResource.syncPeriod: Invalid value: "5s": must be at least 15s');
    expect(err.message).toContain('webhooks.nodeAgentAuthorizer.machineNamespace: Required value');
  });

  it('refuses a wrongly typed field', () => {
    const err = refusal(
      resourceManagerConfigSpec,
      'apiVersion: resourcemanager.config.gardener.cloud/v1alpha1\nkind: ResourceManagerConfiguration\nserver:\n  webhooks:\n    port: 70000\n',
    );
    expect(err.errors.map((e) => e.field)).toEqual(['server.webhooks.port']);
  });
});

describe('nodeAgentConfigSpec', () => {
  it('accepts the configuration Gardener writes and applies the defaults for its empty values', () => {
    const { config, ignoredFields } = parseComponentConfig(nodeAgentConfigSpec, NODE_AGENT_EXAMPLE);
    expect(ignoredFields).toEqual(['controllers.token.secretName']);
    expect(config.logLevel).toBe('info');
    expect(config.logFormat).toBe('json');
    expect(config.clientConnection).toMatchObject({
      qps: 50,
      burst: 100,
      contentType: 'application/vnd.kubernetes.protobuf',
    });
    expect(config.apiServer).toEqual({ server: 'https://api.local.example', caBundle: 'Y2EtYnVuZGxl' });
    expect(config.controllers.operatingSystemConfig).toEqual({
      syncPeriod: '10m',
      secretName: 'osc-secret-name',
      kubernetesVersion: '1.31.1',
    });
    expect(config.controllers.token.syncPeriod).toBe('12h0m0s');
    expect(config.controllers.token.syncConfigs).toHaveLength(2);
    expect(config.featureGates).toEqual({ NodeAgentAuthorizer: true });
    expect(nodeAgentConfigSpec.runtime(config)).toEqual({
      logLevel: 'info',
      logFormat: 'json',
      healthProbes: { bindAddress: '0.0.0.0', port: 2751 },
      metrics: { bindAddress: '0.0.0.0', port: 2752 },
    });
  });

  it('refuses a configuration Gardener refuses, naming the field', () => {
    const err = refusal(
      nodeAgentConfigSpec,
      `apiVersion: nodeagent.config.gardener.cloud/v1alpha1
kind: NodeAgentConfiguration
controllers:
  operatingSystemConfig:
    secretName: ""
    kubernetesVersion: 1.31.1
`,
    );
    expect(err.errors.map((e) => e.field)).toEqual(['controllers.operatingSystemConfig.secretName']);
    expect(err.message).toContain('must provide the secret name for the operating system config');
  });

  it('requires the kubernetes version and refuses duplicate token paths', () => {
    const missing = refusal(
      nodeAgentConfigSpec,
      'apiVersion: nodeagent.config.gardener.cloud/v1alpha1\nkind: NodeAgentConfiguration\ncontrollers:\n  operatingSystemConfig:\n    secretName: osc\n    kubernetesVersion: null\n',
    );
    expect(missing.message).toContain(
      'controllers.operatingSystemConfig.kubernetesVersion: must provide a supported kubernetes version',
    );
    const duplicate = refusal(
      nodeAgentConfigSpec,
      `apiVersion: nodeagent.config.gardener.cloud/v1alpha1
kind: NodeAgentConfiguration
controllers:
  operatingSystemConfig:
    secretName: osc
    kubernetesVersion: v1.31.1
  token:
    syncConfigs:
    - {secretName: a, path: /token}
    - {secretName: b, path: /token}
`,
    );
    expect(duplicate.message).toContain('controllers.token.syncConfigs[1].path: Duplicate value: "/token"');
  });
});

describe('providerLocalConfigSpec', () => {
  it('accepts a configuration and applies the defaults of the flags it replaces', () => {
    const { config, ignoredFields } = parseComponentConfig(providerLocalConfigSpec, PROVIDER_LOCAL_EXAMPLE);
    expect(ignoredFields).toEqual(['imageVectorOverwrite']);
    expect(config.etcd?.storage).toEqual({ className: 'standard', capacity: '10Gi' });
    expect(config.healthCheckConfig).toEqual({ syncPeriod: '30s', shootRESTOptions: { qps: 100 } });
    expect(config.featureGates).toEqual({});
    expect(providerLocalConfigSpec.runtime(config)).toEqual({
      logLevel: 'info',
      logFormat: 'json',
      healthProbes: { bindAddress: '0.0.0.0', port: 8081 },
      metrics: { bindAddress: '0.0.0.0', port: 8080 },
    });
  });

  it('refuses an invalid configuration, naming the field', () => {
    const err = refusal(
      providerLocalConfigSpec,
      'apiVersion: local.provider.extensions.config.gardener.cloud/v1alpha1\nkind: ControllerConfiguration\nlogLevel: verbose\netcd:\n  storage:\n    capacity: ten gigabytes\n',
    );
    expect(err.errors.map((e) => e.field).sort()).toEqual(['etcd.storage.capacity', 'logLevel']);
  });
});
