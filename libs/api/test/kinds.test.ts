// Validation and defaulting of the core kinds besides Shoot, through the public entry point.
import { describe, expect, it } from 'vitest';
import {
  defaultCloudProfile,
  defaultControllerRegistration,
  defaultManagedSeed,
  defaultProject,
  defaultSecretBinding,
  defaultSeed,
  validateBackupBucket,
  validateBackupEntry,
  validateCloudProfile,
  validateControllerDeployment,
  validateControllerRegistration,
  validateCredentialsBinding,
  validateExposureClass,
  validateManagedSeed,
  validateObject,
  validateProject,
  validateQuota,
  validateSecretBinding,
  validateSeed,
  type CloudProfile,
  type FieldError,
  type ManagedSeed,
  type Seed,
} from '../src/index.js';

const messages = (errors: FieldError[]) => errors.map((e) => e.message);

const seed = (mutate: (s: Seed) => void = () => {}): Seed => {
  const s: Seed = {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Seed',
    metadata: { name: 'local' },
    spec: {
      provider: { type: 'local', region: 'local', zones: ['0'] },
      dns: {},
      networks: {
        nodes: '172.18.0.0/16',
        pods: '10.1.0.0/16',
        services: '10.2.0.0/16',
        shootDefaults: { pods: '10.3.0.0/16', services: '10.4.0.0/16' },
      },
    },
  };
  mutate(s);
  return s;
};

describe('Seed', () => {
  it('accepts a valid seed and defaults its settings', () => {
    expect(validateSeed(seed())).toEqual([]);
    const defaulted = defaultSeed(seed());
    expect(defaulted.spec.settings).toEqual({
      excessCapacityReservation: { enabled: true },
      scheduling: { visible: true },
      verticalPodAutoscaler: { enabled: true },
      topologyAwareRouting: { enabled: false },
      dependencyWatchdog: { weeder: { enabled: true }, prober: { enabled: true } },
    });
    expect(validateSeed(defaulted)).toEqual([]);
  });

  it('requires disjoint seed networks and shoot defaults outside them', () => {
    expect(messages(validateSeed(seed((s) => (s.spec.networks.services = '10.1.128.0/17'))))).toEqual([
      'spec.networks.services: Invalid value: "10.1.128.0/17": must not overlap with "spec.networks.pods" ("10.1.0.0/16")',
    ]);
    expect(messages(validateSeed(seed((s) => (s.spec.networks.shootDefaults = { pods: '10.1.0.0/24' }))))).toEqual([
      'spec.networks.shootDefaults.pods: Invalid value: "10.1.0.0/24": must not overlap with "spec.networks.pods" ("10.1.0.0/16")',
    ]);
  });

  it('keeps networks immutable and requires a DNS provider for ingress', () => {
    expect(
      messages(
        validateSeed(
          seed((s) => (s.spec.networks.pods = '10.9.0.0/16')),
          seed(),
        ),
      ),
    ).toEqual(['spec.networks.pods: Invalid value: "10.9.0.0/16": field is immutable']);
    expect(
      messages(
        validateSeed(seed((s) => (s.spec.ingress = { domain: 'ingress.local', controller: { kind: 'traefik' } }))),
      ),
    ).toEqual([
      'spec.ingress.controller.kind: Unsupported value: "traefik": supported values: "nginx"',
      'spec.dns.provider: Required value: must configure a DNS provider if .spec.ingress is enabled',
    ]);
  });
});

describe('CloudProfile', () => {
  const profile = (mutate: (p: CloudProfile) => void = () => {}): CloudProfile => {
    const p: CloudProfile = {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'CloudProfile',
      metadata: { name: 'local' },
      spec: {
        type: 'local',
        kubernetes: { versions: [{ version: '1.35.4' }] },
        machineImages: [{ name: 'local', versions: [{ version: '1.0.0' }] }],
        machineTypes: [{ name: 'local', cpu: '1', gpu: '0', memory: '8Gi' }],
        regions: [{ name: 'local' }],
      },
    };
    mutate(p);
    return p;
  };

  it('accepts a valid profile and defaults architectures and container runtimes', () => {
    expect(validateCloudProfile(profile())).toEqual([]);
    const defaulted = defaultCloudProfile(profile());
    expect(defaulted.spec.machineImages[0]).toEqual({
      name: 'local',
      updateStrategy: 'major',
      versions: [{ version: '1.0.0', cri: [{ name: 'containerd' }], architectures: ['amd64'] }],
    });
    expect(defaulted.spec.machineTypes[0]).toMatchObject({ architecture: 'amd64', usable: true });
  });

  it('rejects malformed and duplicate versions, bad quantities and empty lists', () => {
    const errors = validateCloudProfile(
      profile((p) => {
        p.spec.kubernetes.versions = [{ version: '1.35' }, { version: '1.34.0' }, { version: '1.34.0' }];
        p.spec.machineTypes[0].memory = 'lots';
        p.spec.regions = [];
      }),
    );
    expect(messages(errors)).toEqual([
      'spec.kubernetes.versions[0].version: Invalid value: "1.35": Kubernetes versions must match the regex ^([0-9]+\\.){2}[0-9]+$',
      'spec.kubernetes.versions[2].version: Duplicate value: "1.34.0"',
      expect.stringMatching(/^spec\.machineTypes\[0\]\.memory: Invalid value: "lots": quantities must match/),
      'spec.regions: Required value: must provide at least one region',
    ]);
  });
});

describe('Project, bindings, quotas, exposure classes', () => {
  it('limits project names and validates members', () => {
    const errors = validateProject({
      metadata: { name: 'far-too-long-name' },
      spec: { members: [{ kind: 'Robot', name: 'r2', role: 'pilot' }] },
    });
    expect(messages(errors)).toEqual([
      'metadata.name: Too long: may not be more than 10 bytes',
      'spec.members[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
      'spec.members[0].roles[0]: Unsupported value: "pilot": supported values: "admin", "owner", "serviceaccountmanager", "uam", "viewer", "extension:*"',
    ]);
    expect(
      validateProject({
        metadata: { name: 'dev' },
        spec: {
          members: [
            {
              apiGroup: 'rbac.authorization.k8s.io',
              kind: 'User',
              name: 'alice',
              role: 'admin',
              roles: ['extension:foo'],
            },
          ],
        },
      }),
    ).toEqual([]);
    expect(
      defaultProject({ metadata: { name: 'dev' }, spec: { owner: { kind: 'User', name: 'alice' } } }).spec!.owner!
        .apiGroup,
    ).toBe('rbac.authorization.k8s.io');
  });

  it('keeps the namespace of a project once set', () => {
    const old = { metadata: { name: 'dev' }, spec: { namespace: 'garden-dev' } };
    expect(messages(validateProject({ metadata: { name: 'dev' }, spec: { namespace: 'garden-other' } }, old))).toEqual([
      'spec.namespace: Invalid value: "garden-other": field is immutable',
    ]);
  });

  it('validates secret and credentials bindings', () => {
    const binding = {
      metadata: { name: 'b', namespace: 'garden-dev' },
      secretRef: { name: 'creds' },
      provider: { type: 'local' },
    };
    expect(validateSecretBinding(binding)).toEqual([]);
    expect(defaultSecretBinding(binding).secretRef.namespace).toBe('garden-dev');
    expect(
      messages(
        validateCredentialsBinding({
          metadata: { name: 'c', namespace: 'garden-dev' },
          provider: { type: '' },
          credentialsRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', namespace: 'garden-dev' },
        }),
      ),
    ).toEqual([
      'provider.type: Required value: must specify a provider type',
      'credentialsRef: Unsupported value: "v1/ConfigMap": supported values: "v1/Secret", "security.gardener.cloud/v1alpha1/WorkloadIdentity"',
    ]);
  });

  it('validates quota scopes and metrics, and exposure class handlers', () => {
    expect(
      messages(
        validateQuota({
          metadata: { name: 'q', namespace: 'garden-dev' },
          spec: {
            metrics: { cpu: '-1', apples: '3' },
            scope: { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Project' },
          },
        }),
      ),
    ).toEqual([
      'spec.metrics[cpu]: Invalid value: "-1": must be greater than or equal to 0',
      'spec.metrics[apples]: Unsupported value: "apples": supported values: "cpu", "gpu", "memory", "storage.standard", "storage.premium", "loadbalancer"',
    ]);
    expect(messages(validateExposureClass({ metadata: { name: 'internet' }, handler: 'Internet_Handler' }))[0]).toMatch(
      /^handler: Invalid value: "Internet_Handler"/,
    );
    expect(
      messages(
        validateExposureClass(
          { metadata: { name: 'internet' }, handler: 'b' },
          { metadata: { name: 'internet' }, handler: 'a' },
        ),
      ),
    ).toEqual(['handler: Invalid value: "b": field is immutable']);
  });
});

describe('controllers and backups', () => {
  it('validates registered resources and defaults extension lifecycles', () => {
    const registration = {
      metadata: { name: 'ext' },
      spec: {
        resources: [
          { kind: 'Extension', type: 'foo' },
          { kind: 'Gizmo', type: 'bar' },
          { kind: 'Extension', type: 'foo' },
        ],
        deployment: { deploymentRefs: [{ name: 'a' }, { name: 'b' }] },
      },
    };
    expect(messages(validateControllerRegistration(registration))).toEqual([
      expect.stringMatching(/^spec\.resources\[1\]\.kind: Unsupported value: "Gizmo"/),
      'spec.resources[2]: Duplicate value: "Extension/foo"',
      'spec.deployment.deploymentRefs: Too many: 2: must have at most 1 items',
    ]);
    const defaulted = defaultControllerRegistration({
      metadata: { name: 'ext' },
      spec: { resources: [{ kind: 'Extension', type: 'foo' }], deployment: {} },
    });
    expect(defaulted.spec!.resources![0]).toEqual({
      kind: 'Extension',
      type: 'foo',
      primary: true,
      globallyEnabled: false,
      reconcileTimeout: '3m0s',
      clusterCompatibility: ['shoot'],
      lifecycle: { reconcile: 'AfterKubeAPIServer', delete: 'BeforeKubeAPIServer', migrate: 'BeforeKubeAPIServer' },
    });
    expect(defaulted.spec!.deployment!.policy).toBe('OnDemand');
  });

  it('requires exactly one chart source in a ControllerDeployment', () => {
    expect(messages(validateControllerDeployment({ metadata: { name: 'd' }, helm: {} }))).toEqual([
      'helm: Required value: must provide either rawChart or ociRepository',
    ]);
    expect(
      validateControllerDeployment({
        metadata: { name: 'd' },
        helm: { ociRepository: { ref: 'registry.example/chart:v1' } },
      }),
    ).toEqual([]);
  });

  it('accepts a ControllerDeployment injecting the garden kubeconfig with Secret and ConfigMap resources', () => {
    const deployment = (kind: string, apiVersion = 'v1') => ({
      metadata: { name: 'd' },
      helm: { ociRepository: { ref: 'registry.example/chart:v1' } },
      injectGardenKubeconfig: true,
      resources: [
        { name: 'config', resourceRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'provider-config' } },
        { name: 'other', resourceRef: { apiVersion, kind, name: 'x' } },
      ],
    });
    expect(validateControllerDeployment(deployment('Secret'))).toEqual([]);
    expect(messages(validateControllerDeployment(deployment('Deployment', 'apps/v1')))).toEqual([
      'resources[1].resourceRef.kind: Unsupported value: "Deployment": supported values: "ConfigMap", "Secret"',
      'resources[1].resourceRef.apiVersion: Unsupported value: "apps/v1": supported values: "v1"',
    ]);
  });

  it('validates backup buckets and entries', () => {
    expect(
      messages(validateBackupBucket({ metadata: { name: 'b' }, spec: { provider: { type: 'local', region: '' } } })),
    ).toEqual([
      'spec.provider.region: Required value: must provide a region',
      'spec.credentialsRef: Required value: must be set to refer a Secret or WorkloadIdentity',
    ]);
    const entry = { metadata: { name: 'e', namespace: 'shoot--dev--a' }, spec: { bucketName: 'b1', seedName: 's1' } };
    // A restore that copies etcd's backups moves an entry already on the destination seed to its bucket.
    expect(validateBackupEntry({ ...entry, spec: { bucketName: 'b2', seedName: 's1' } }, entry)).toEqual([]);
    expect(validateBackupEntry({ ...entry, spec: { bucketName: 'b2', seedName: 's2' } }, entry)).toEqual([]);
    expect(messages(validateBackupEntry({ ...entry, spec: { bucketName: '', seedName: 's1' } }, entry))).toEqual([
      'spec.bucketName: Required value: must provide a bucket name',
    ]);
  });
});

describe('ManagedSeed', () => {
  const managedSeed: ManagedSeed = {
    apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
    kind: 'ManagedSeed',
    metadata: { name: 'ms', namespace: 'garden' },
    spec: {
      shoot: { name: 'soil' },
      gardenlet: { config: { apiVersion: 'gardenlet.config.gardener.cloud/v1alpha1', kind: 'GardenletConfiguration' } },
    },
  };

  it('lives in the garden namespace and defaults its gardenlet', () => {
    expect(validateManagedSeed(managedSeed)).toEqual([]);
    expect(
      messages(validateManagedSeed({ ...managedSeed, metadata: { name: 'ms', namespace: 'garden-dev' } })),
    ).toEqual(['metadata.namespace: Invalid value: "garden-dev": namespace must be garden']);
    expect(defaultManagedSeed(managedSeed).spec.gardenlet).toMatchObject({
      bootstrap: 'BootstrapToken',
      mergeWithParent: true,
      deployment: { replicaCount: 2, revisionHistoryLimit: 2 },
    });
  });

  it('keeps the shoot reference immutable', () => {
    const updated = { ...managedSeed, spec: { ...managedSeed.spec, shoot: { name: 'other' } } };
    expect(messages(validateManagedSeed(updated, managedSeed))).toEqual([
      'spec.shoot.name: Invalid value: "other": field is immutable',
    ]);
  });
});

describe('validateObject', () => {
  it('reports type mismatches against the schema before any rule runs', () => {
    const errors = validateObject({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'Seed',
      metadata: { name: 's' },
      spec: { provider: { type: 'local', region: 7 } },
    });
    expect(errors.map((e) => [e.type, e.field])).toContainEqual(['FieldValueInvalid', 'spec.provider.region']);
  });

  it('refuses kinds it has no schema for', () => {
    expect(() => validateObject({ apiVersion: 'v1', kind: 'ConfigMap' })).toThrow('no schema for v1 ConfigMap');
  });
});
