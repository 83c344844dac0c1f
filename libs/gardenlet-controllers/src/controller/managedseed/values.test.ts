// The child gardenlet's configuration and chart values: Gardener's MergeMaps (with properties), what of the parent is
// inherited, mergeWithParent, the Seed template check, the bootstrap plan, the garden client connection per plan,
// and spec.gardenlet.deployment as chart values.
import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { gardenletConfigSpec, parseComponentConfig } from '@gardener-ts/component-config';
import {
  bootstrapPlan,
  childGardenletConfig,
  deploymentValues,
  kubeconfigSecretRef,
  managedSeedChartValues,
  mergeGardenletConfiguration,
  mergeValues,
  parentConfigValues,
  replacedPaths,
  seedTemplateOf,
} from './values.js';

const parent = {
  apiVersion: 'gardenlet.config.gardener.cloud/v1alpha1',
  kind: 'GardenletConfiguration',
  gardenClientConnection: {
    qps: 100,
    bootstrapKubeconfig: { name: 'gardenlet-kubeconfig-bootstrap', namespace: 'garden' },
    kubeconfigSecret: { name: 'gardenlet-kubeconfig', namespace: 'garden' },
  },
  seedClientConnection: { kubeconfig: '/etc/seed/kubeconfig', qps: 100 },
  controllers: { shoot: { concurrentSyncs: 20 }, shootCare: { syncPeriod: '15s' } },
  featureGates: { A: true },
  seedConfig: { metadata: { name: 'local' }, spec: { provider: { type: 'local' } } },
  nats: { servers: 'nats://parent:4222' },
};

const child = {
  apiVersion: 'gardenlet.config.gardener.cloud/v1alpha1',
  kind: 'GardenletConfiguration',
  controllers: { shoot: { concurrentSyncs: 5 } },
  featureGates: { B: true },
  seedConfig: { spec: { provider: { type: 'local', region: 'infra' } } },
};

const json = fc.jsonValue({ maxDepth: 3 });
const objects = fc.dictionary(fc.string({ maxLength: 3 }), json, { maxKeys: 4 }) as fc.Arbitrary<
  Record<string, unknown>
>;

describe('mergeValues (MergeMaps)', () => {
  it('merges objects key by key, the override winning everything else', () => {
    expect(mergeValues({ a: { b: 1, c: [1] }, d: 1 }, { a: { c: [2], e: 3 }, d: { x: 1 } })).toEqual({
      a: { b: 1, c: [2], e: 3 },
      d: { x: 1 },
    });
  });

  it('has the empty object as identity on both sides, and merging a map over itself changes nothing (property)', () => {
    fc.assert(
      fc.property(objects, (a) => {
        expect(mergeValues(a, {})).toEqual(a);
        expect(mergeValues({}, a)).toEqual(a);
        expect(mergeValues(a, a)).toEqual(a);
      }),
    );
  });

  it('keeps every key of both, every non-object leaf of the override, and merging the override again changes nothing (property)', () => {
    // Not associative: an override that is no object drops the base's object, which a later object cannot bring back.
    fc.assert(
      fc.property(objects, objects, (a, b) => {
        const merged = mergeValues(a, b);
        expect(new Set(Object.keys(merged))).toEqual(new Set([...Object.keys(a), ...Object.keys(b)]));
        for (const [k, v] of Object.entries(b)) {
          if (typeof v !== 'object' || v === null || Array.isArray(v)) expect(merged[k]).toEqual(v);
        }
        expect(mergeValues(merged, b)).toEqual(merged);
      }),
    );
  });

  it('keeps a `__proto__` key of JSON a key', () => {
    const override = JSON.parse('{"__proto__": {"": false}}') as Record<string, unknown>;
    const merged = mergeValues({}, override);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.hasOwn(merged, '__proto__')).toBe(true);
    expect(merged).toEqual(override);
  });

  it('does not alias or change its inputs', () => {
    const a = { x: { y: 1 } };
    const b = { x: { z: [1] } };
    const merged = mergeValues(a, b);
    (merged.x as { z: number[] }).z.push(2);
    expect(a).toEqual({ x: { y: 1 } });
    expect(b).toEqual({ x: { z: [1] } });
  });
});

describe('the child configuration', () => {
  it("inherits the parent's configuration but its bootstrap kubeconfig, seed kubeconfig, seed and NATS", () => {
    const inherited = parentConfigValues(parent);
    expect(inherited.gardenClientConnection).toEqual({
      qps: 100,
      kubeconfigSecret: { name: 'gardenlet-kubeconfig', namespace: 'garden' },
    });
    expect(inherited.seedClientConnection).toEqual({ qps: 100 });
    expect(inherited).not.toHaveProperty('seedConfig');
    expect(inherited).not.toHaveProperty('nats');
    expect(parent.seedConfig).toBeDefined(); // the parent is left alone
  });

  it('merges the ManagedSeed config over the parent only with mergeWithParent', () => {
    const merged = mergeGardenletConfiguration(parent, child, true);
    expect(merged.controllers).toEqual({ shoot: { concurrentSyncs: 5 }, shootCare: { syncPeriod: '15s' } });
    expect(merged.featureGates).toEqual({ A: true, B: true });
    expect(merged.seedConfig).toEqual(child.seedConfig);
    expect(mergeGardenletConfiguration(parent, child, false)).toEqual(child);
  });

  it('requires a GardenletConfiguration with a seedConfig', () => {
    expect(seedTemplateOf(child, 'infra')).toEqual({ spec: child.seedConfig.spec });
    expect(() => seedTemplateOf(undefined, 'infra')).toThrow('no gardenlet config provided in object: "infra"');
    expect(() => seedTemplateOf({ ...child, kind: 'Other' }, 'infra')).toThrow(/not a gardenlet.config.gardener.cloud/);
    expect(() => seedTemplateOf({ ...child, seedConfig: undefined }, 'infra')).toThrow(/has no seedConfig/);
  });

  it('plans the bootstrap: none, a first one, already bootstrapped, renewal and expired certificates', () => {
    const now = new Date('2026-11-30T12:00:00Z');
    const base = { renewKubeconfig: false, kubeconfigSecretExists: false, now };
    expect(bootstrapPlan({ ...base, bootstrap: 'None' })).toEqual({ kind: 'none' });
    expect(bootstrapPlan({ ...base, bootstrap: 'BootstrapToken' })).toEqual({
      kind: 'bootstrap',
      deleteKubeconfigSecret: false,
    });
    expect(bootstrapPlan({ ...base, bootstrap: 'BootstrapToken', kubeconfigSecretExists: true })).toEqual({
      kind: 'bootstrapped',
    });
    expect(
      bootstrapPlan({ ...base, bootstrap: 'ServiceAccount', kubeconfigSecretExists: true, renewKubeconfig: true }),
    ).toMatchObject({ kind: 'bootstrap', deleteKubeconfigSecret: true, reason: 'renew-kubeconfig' });
    expect(
      bootstrapPlan({
        ...base,
        bootstrap: 'BootstrapToken',
        kubeconfigSecretExists: true,
        clientCertificateExpiration: '2026-11-30T11:59:59Z',
      }),
    ).toMatchObject({ kind: 'bootstrap', deleteKubeconfigSecret: true, reason: 'client certificate expired' });
    expect(
      bootstrapPlan({
        ...base,
        bootstrap: 'BootstrapToken',
        kubeconfigSecretExists: true,
        clientCertificateExpiration: '2026-12-30T00:00:00Z',
      }),
    ).toEqual({ kind: 'bootstrapped' });
  });

  it('prepares the garden client connection, the seed name and the leader election namespace per plan', () => {
    const config = { gardenClientConnection: { kubeconfig: '/parent/path', qps: 7 }, seedConfig: { spec: {} } };
    const first = childGardenletConfig(config, { kind: 'bootstrap', deleteKubeconfigSecret: false }, 'infra');
    expect(first.gardenClientConnection).toEqual({
      qps: 7,
      kubeconfigSecret: { name: 'gardenlet-kubeconfig', namespace: 'garden' },
      bootstrapKubeconfig: { name: 'gardenlet-kubeconfig-bootstrap', namespace: 'garden' },
    });
    expect(first.seedConfig).toEqual({ metadata: { name: 'infra' }, spec: {} });
    expect(first.leaderElection).toEqual({ resourceNamespace: 'garden' });

    const again = childGardenletConfig(config, { kind: 'bootstrapped' }, 'infra');
    expect(again.gardenClientConnection).toEqual({
      kubeconfig: '/parent/path',
      qps: 7,
      kubeconfigSecret: { name: 'gardenlet-kubeconfig', namespace: 'garden' },
    });

    const none = childGardenletConfig(
      { gardenClientConnection: { kubeconfig: 'k', kubeconfigSecret: { name: 'x', namespace: 'y' } } },
      { kind: 'none' },
      'infra',
    );
    expect(none.gardenClientConnection).toEqual({ kubeconfig: 'k' });
    expect(config.gardenClientConnection).toEqual({ kubeconfig: '/parent/path', qps: 7 }); // not changed
  });

  it("names the configured kubeconfig Secret, else Gardener's default", () => {
    expect(kubeconfigSecretRef({})).toEqual({ name: 'gardenlet-kubeconfig', namespace: 'garden' });
    expect(
      kubeconfigSecretRef({ gardenClientConnection: { kubeconfigSecret: { name: 'kc', namespace: 'ns' } } }),
    ).toEqual({ name: 'kc', namespace: 'ns' });
  });
});

describe('chart values of a ManagedSeed', () => {
  it("translates spec.gardenlet.deployment into the chart's values", () => {
    expect(
      deploymentValues({
        replicaCount: 2,
        revisionHistoryLimit: 2,
        serviceAccountName: 'sa',
        image: { repository: 'r', tag: '', pullPolicy: 'Always' },
        resources: { requests: { cpu: '100m' } },
        podAnnotations: { a: 'b' },
        env: [{ name: 'X', value: '1' }],
        additionalVolumes: [{ name: 'v' }],
        additionalVolumeMounts: [{ name: 'v', mountPath: '/v' }],
      }),
    ).toEqual({
      replicas: 2,
      image: { repository: 'r', pullPolicy: 'Always' },
      resources: { requests: { cpu: '100m' } },
      podAnnotations: { a: 'b' },
      env: [
        { name: 'TMPDIR', value: '/tmp' },
        { name: 'X', value: '1' },
      ],
      extraVolumes: [{ name: 'v' }],
      extraVolumeMounts: [{ name: 'v', mountPath: '/v' }],
      serviceAccount: { name: 'sa' },
    });
    expect(deploymentValues({ env: [{ name: 'TMPDIR', value: '/scratch' }] })).toEqual({
      env: [{ name: 'TMPDIR', value: '/scratch' }],
    });
    expect(deploymentValues(undefined)).toEqual({});
  });

  it('adds the pod annotations and the bootstrap kubeconfig', () => {
    expect(
      managedSeedChartValues({
        deployment: { podAnnotations: { a: 'b' } },
        config: { kind: 'GardenletConfiguration' },
        bootstrapKubeconfig: 'kc',
        podAnnotations: { 'checksum/seed-backup-secret': 'backup-12345678' },
      }),
    ).toEqual({
      podAnnotations: { a: 'b', 'checksum/seed-backup-secret': 'backup-12345678' },
      bootstrapKubeconfig: { kubeconfig: 'kc' },
      config: { kind: 'GardenletConfiguration' },
    });
  });

  it("replaces the chart's seedConfig always, its garden client connection without bootstrap", () => {
    expect(replacedPaths({ kind: 'bootstrapped' })).toEqual([['config', 'seedConfig']]);
    expect(replacedPaths({ kind: 'none' })).toEqual([
      ['config', 'seedConfig'],
      ['config', 'gardenClientConnection'],
    ]);
  });
});

describe('the child configuration against the gardenlet loader', () => {
  it('is a GardenletConfiguration the gardenlet itself loads, derived from a parsed (defaulted) parent', () => {
    const parsedParent = parseComponentConfig(gardenletConfigSpec, stringify(parent)).config as Record<string, unknown>;
    const config = childGardenletConfig(
      mergeGardenletConfiguration(parsedParent, child, true),
      { kind: 'bootstrap', deleteKubeconfigSecret: false },
      'infra',
    );
    const loaded = parseComponentConfig(gardenletConfigSpec, stringify(config)).config;
    expect(loaded.seedConfig?.metadata.name).toBe('infra');
    expect(loaded.seedClientConnection.kubeconfig).toBe(''); // in-cluster in the shoot
    expect(loaded.gardenClientConnection.bootstrapKubeconfig).toEqual({
      name: 'gardenlet-kubeconfig-bootstrap',
      namespace: 'garden',
    });
    expect(loaded.controllers.shoot.concurrentSyncs).toBe(5);
    expect(loaded.nats).toBeUndefined();
  });
});
