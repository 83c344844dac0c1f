// `shoot-core-system` for Gardener's example shoot: kube-system's NetworkPolicies, the shoot-info ConfigMap, the system
// PriorityClasses, and the read-only ClusterRole over the discovered resources without the encrypted ones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exampleShoot } from './testdata/fixtures.js';
import {
  readOnlyRules,
  renderShootSystemResources,
  shootSystemObjects,
  type APIResourceList,
  type ShootSystemValues,
} from './shoot-system.js';

const values = (mutate?: (v: { -readonly [K in keyof ShootSystemValues]: ShootSystemValues[K] }) => void) => {
  const v: { -readonly [K in keyof ShootSystemValues]: ShootSystemValues[K] } = {
    shoot: exampleShoot(),
    projectName: 'local',
    extensions: ['local-ext-seed', 'local-ext-shoot'],
    podNetworks: ['10.3.0.0/16'],
    serviceNetworks: ['10.4.0.0/16'],
    nodeNetworks: ['10.10.0.0/16'],
    encryptedResources: ['secrets'],
  };
  mutate?.(v);
  return v;
};

const byKind = (objects: { kind?: string; metadata?: { name?: string } }[], kind: string) =>
  objects.filter((o) => o.kind === kind).map((o) => o.metadata?.name);

const discovery: APIResourceList[] = [
  {
    groupVersion: 'v1',
    resources: [
      { name: 'pods', verbs: ['get', 'list', 'watch', 'create'] },
      { name: 'pods/status', verbs: ['get', 'patch'] },
      { name: 'secrets', verbs: ['get', 'list'] },
      { name: 'configmaps', verbs: ['get', 'list'] },
      { name: 'bindings', verbs: ['create'] },
    ],
  },
  {
    groupVersion: 'apps/v1',
    resources: [
      { name: 'statefulsets', verbs: ['get', 'list'] },
      { name: 'deployments', verbs: ['get', 'list'] },
    ],
  },
];

describe('shoot-core-system', () => {
  it("deploys kube-system's policies, shoot-info and the system PriorityClasses for the example shoot", () => {
    const { managedResource } = renderShootSystemResources('shoot--local--local', values());
    expect(managedResource).toMatchObject({
      metadata: { name: 'shoot-core-system', namespace: 'shoot--local--local', labels: { origin: 'gardener' } },
      spec: { secretRefs: [{ name: 'managedresource-shoot-core-system' }], keepObjects: false },
    });
    const objects = shootSystemObjects(values((v) => (v.externalDomain = 'local.local.external.local.gardener.cloud')));
    expect(byKind(objects, 'NetworkPolicy')).toEqual([
      'gardener.cloud--deny-all',
      'gardener.cloud--allow-to-apiserver',
      'gardener.cloud--allow-to-dns',
      'gardener.cloud--allow-to-kubelet',
      'gardener.cloud--allow-to-public-networks',
    ]);
    expect(objects.find((o) => o.metadata?.name === 'gardener.cloud--deny-all')).toMatchObject({
      metadata: { namespace: 'kube-system' },
      spec: { podSelector: {}, ingress: [], egress: [], policyTypes: ['Ingress', 'Egress'] },
    });
    const shoot = exampleShoot();
    expect(objects.find((o) => o.kind === 'ConfigMap')).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'shoot-info', namespace: 'kube-system' },
      data: {
        domain: 'local.local.external.local.gardener.cloud',
        extensions: 'local-ext-seed,local-ext-shoot',
        kubernetesVersion: shoot.spec.kubernetes.version,
        maintenanceBegin: shoot.spec.maintenance!.timeWindow!.begin,
        maintenanceEnd: shoot.spec.maintenance!.timeWindow!.end,
        nodeNetwork: '10.10.0.0/16',
        nodeNetworks: '10.10.0.0/16',
        podNetwork: '10.3.0.0/16',
        podNetworks: '10.3.0.0/16',
        projectName: 'local',
        provider: 'local',
        region: shoot.spec.region,
        serviceNetwork: '10.4.0.0/16',
        serviceNetworks: '10.4.0.0/16',
        shootName: 'local',
      },
    });
    expect(objects.filter((o) => o.kind === 'PriorityClass')).toEqual(
      [900, 800, 700, 600].map((n) => ({
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: `gardener-shoot-system-${n}` },
        description: 'PriorityClass for Shoot system components',
        globalDefault: false,
        value: 999_999_000 + n,
      })),
    );
    // No discovery yet: no read-only role.
    expect(byKind(objects, 'ClusterRole')).toEqual([]);
  });

  it('leaves out the deny-all policy before Kubernetes 1.33, and everything of the nodes for a workerless shoot', () => {
    const older = shootSystemObjects(
      values((v) => (v.shoot = exampleShoot((s) => (s.spec.kubernetes.version = '1.32.4')))),
    );
    expect(byKind(older, 'NetworkPolicy')).not.toContain('gardener.cloud--deny-all');
    const workerless = shootSystemObjects(
      values((v) => (v.shoot = exampleShoot((s) => (s.spec.provider.workers = [])))),
    );
    expect(workerless.map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual(['NetworkPolicy/gardener.cloud--deny-all']);
  });

  it('grants the system viewers read access to every readable resource but the encrypted ones', () => {
    const objects = shootSystemObjects(
      values((v) => {
        v.apiResources = discovery;
        v.encryptedResources = ['secrets', 'statefulsets.apps'];
      }),
    );
    expect(objects.find((o) => o.kind === 'ClusterRole')).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'gardener.cloud:system:read-only' },
      rules: [
        { apiGroups: [''], resources: ['configmaps', 'pods', 'pods/log'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch'] },
      ],
    });
    expect(objects.find((o) => o.kind === 'ClusterRoleBinding')).toMatchObject({
      metadata: { name: 'gardener.cloud:system:read-only' },
      roleRef: { kind: 'ClusterRole', name: 'gardener.cloud:system:read-only' },
      subjects: [{ kind: 'Group', name: 'gardener.cloud:system:viewers' }],
    });
  });

  it('never grants an encrypted resource or a resource that cannot be read (property)', () => {
    const name = fc.stringMatching(/^[a-z]{1,8}$/);
    const list = fc.record({
      groupVersion: fc.oneof(fc.constant('v1'), fc.stringMatching(/^[a-z]{1,6}\/v1$/)),
      resources: fc.array(fc.record({ name, verbs: fc.subarray(['get', 'list', 'watch', 'create', 'delete']) }), {
        maxLength: 6,
      }),
    });
    fc.assert(
      fc.property(fc.array(list, { maxLength: 5 }), fc.array(name, { maxLength: 4 }), (lists, encryptedNames) => {
        const encrypted = encryptedNames.flatMap((n) => [n, `${n}.${lists[0]?.groupVersion.split('/')[0] ?? ''}`]);
        for (const rule of readOnlyRules(lists, encrypted)) {
          const group = rule.apiGroups[0]!;
          expect(rule.verbs).toEqual(['get', 'list', 'watch']);
          expect([...rule.resources].sort()).toEqual(rule.resources);
          for (const resource of rule.resources) {
            if (resource === 'pods/log') continue;
            expect(encrypted).not.toContain(group === '' ? resource : `${resource}.${group}`);
            const readable = lists.some(
              (l) =>
                (l.groupVersion.includes('/') ? l.groupVersion.split('/')[0] : '') === group &&
                l.resources.some((r) => r.name === resource && (r.verbs.includes('get') || r.verbs.includes('list'))),
            );
            expect(readable).toBe(true);
          }
        }
      }),
    );
  });
});
