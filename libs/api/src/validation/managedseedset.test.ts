// ManagedSeedSet validation: one valid and one invalid case per Gardener rule (seedmanagement.gardener.cloud).
import { describe, expect, it } from 'vitest';
import type { ManagedSeedSet } from '../seedmanagement/v1alpha1/gardenlet.js';
import { validateManagedSeedSet, validateManagedSeedSetStatusUpdate } from './managedseedset.js';
import { validateObject } from './registry.js';

function set(mutate: (s: ManagedSeedSet) => void = () => {}): ManagedSeedSet {
  const s = {
    apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
    kind: 'ManagedSeedSet',
    metadata: { name: 'seeds', namespace: 'garden' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'seeds' } },
      template: {
        metadata: { labels: { app: 'seeds' } },
        spec: {
          gardenlet: {
            bootstrap: 'BootstrapToken',
            config: {
              apiVersion: 'gardenlet.config.gardener.cloud/v1alpha1',
              kind: 'GardenletConfiguration',
              seedConfig: { metadata: { labels: { app: 'seeds' } }, spec: {} },
            },
          },
        },
      },
      shootTemplate: {
        metadata: { labels: { app: 'seeds' } },
        spec: {
          cloudProfile: { kind: 'CloudProfile', name: 'local' },
          credentialsBindingName: 'local',
          region: 'local',
          networking: { type: 'calico', nodes: '10.0.0.0/16' },
          provider: {
            type: 'local',
            workers: [
              { name: 'local', machine: { type: 'local' }, minimum: 1, maximum: 2, maxSurge: 1, maxUnavailable: 0 },
            ],
          },
          kubernetes: { version: '1.35.4' },
        },
      },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      revisionHistoryLimit: 10,
    },
  } as unknown as ManagedSeedSet;
  mutate(s);
  return s;
}
const messages = (s: ManagedSeedSet, old?: ManagedSeedSet) => validateManagedSeedSet(s, old).map((e) => e.message);
const gardenletConfig = (s: ManagedSeedSet) => s.spec.template.spec.gardenlet.config as Record<string, any>;

describe('validateManagedSeedSet', () => {
  it('accepts a valid ManagedSeedSet, through validateObject too, and an unchanged update', () => {
    expect(messages(set())).toEqual([]);
    expect(validateObject(set() as never)).toEqual([]);
    expect(messages(set(), set())).toEqual([]);
    expect(
      messages(
        set((s) => (s.spec.selector = { matchExpressions: [{ key: 'app', operator: 'In', values: ['seeds'] }] })),
      ),
    ).toEqual([]);
  });

  const cases: [string, (s: ManagedSeedSet) => void, string[]][] = [
    [
      'namespace must be garden',
      (s) => (s.metadata!.namespace = 'garden-dev'),
      ['metadata.namespace: Invalid value: "garden-dev": namespace must be garden'],
    ],
    [
      'replicas non-negative',
      (s) => (s.spec.replicas = -1),
      ['spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'selector not empty',
      (s) => (s.spec.selector = {}),
      ['spec.selector: Invalid value: {}: empty selector is invalid for ManagedSeedSet'],
    ],
    [
      'selector operator valid',
      (s) => (s.spec.selector = { matchExpressions: [{ key: 'app', operator: 'Is' as never, values: ['seeds'] }] }),
      ['spec.selector.matchExpressions[0].operator: Invalid value: "Is": not a valid selector operator'],
    ],
    [
      'selector In needs values',
      (s) => (s.spec.selector = { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] }),
      [
        "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      ],
    ],
    [
      'selector Exists takes no values',
      (s) =>
        (s.spec.selector = {
          matchLabels: { app: 'seeds' },
          matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }],
        }),
      [
        "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      ],
    ],
    [
      'template labels match the selector',
      (s) => (s.spec.template.metadata!.labels = { app: 'other' }),
      ['spec.template.metadata.labels: Invalid value: {"app":"other"}: selector does not match template labels'],
    ],
    [
      'template has no shoot',
      (s) => (s.spec.template.spec.shoot = { name: 'x' }),
      ['spec.template.spec.shoot: Forbidden: shoot is forbidden'],
    ],
    [
      'template bootstrap known',
      (s) => (s.spec.template.spec.gardenlet.bootstrap = 'Magic' as never),
      [
        'spec.template.spec.gardenlet.bootstrap: Unsupported value: "Magic": supported values: "ServiceAccount", "BootstrapToken", "None"',
      ],
    ],
    [
      'template gardenlet deployment',
      (s) => (s.spec.template.spec.gardenlet.deployment = { replicaCount: -1 }),
      ['spec.template.spec.gardenlet.deployment.replicaCount: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'template config needs seedConfig',
      (s) => delete gardenletConfig(s).seedConfig,
      ['spec.template.spec.gardenlet.config.seedConfig: Required value: seedConfig is required'],
    ],
    [
      'seedConfig labels match the selector',
      (s) => (gardenletConfig(s).seedConfig.metadata.labels = {}),
      [
        'spec.template.spec.gardenlet.config.seedConfig.metadata.labels: Invalid value: {}: selector does not match template labels',
      ],
    ],
    [
      'seed name set by the controller',
      (s) => (gardenletConfig(s).seedConfig.metadata.name = 'x'),
      ['spec.template.spec.gardenlet.config.seedConfig.metadata.name: Forbidden: seed name is forbidden'],
    ],
    [
      'kubeconfig needed without bootstrap',
      (s) => {
        s.spec.template.spec.gardenlet.bootstrap = 'None';
        gardenletConfig(s).gardenClientConnection = { kubeconfigSecret: { name: 'x', namespace: 'garden' } };
      },
      [
        'spec.template.spec.gardenlet.config.gardenClientConnection.kubeconfig: Required value: kubeconfig is required if bootstrap is not specified and merging with parent is disabled',
        'spec.template.spec.gardenlet.config.gardenClientConnection.kubeconfigSecret: Forbidden: kubeconfig secret is forbidden if bootstrap is not specified',
      ],
    ],
    [
      'shoot template labels match the selector',
      (s) => (s.spec.shootTemplate.metadata!.labels = { app: 'x' }),
      ['spec.shootTemplate.metadata.labels: Invalid value: {"app":"x"}: selector does not match template labels'],
    ],
    [
      'shoot template has workers',
      (s) => {
        s.spec.shootTemplate.spec.provider.workers = [];
        // Keep the workerless Shoot otherwise valid, so only the ManagedSeedSet's own rule remains.
        delete s.spec.shootTemplate.spec.credentialsBindingName;
        delete s.spec.shootTemplate.spec.networking;
      },
      [
        'spec.shootTemplate.spec.provider.workers: Invalid value: []: workers cannot be empty in the Shoot template for a ManagedSeedSet',
      ],
    ],
    [
      'shoot template is a valid Shoot spec',
      (s) => (s.spec.shootTemplate.spec.region = ''),
      ['spec.shootTemplate.spec.region: Required value: must specify a region'],
    ],
    [
      'update strategy type known',
      (s) => (s.spec.updateStrategy!.type = 'Recreate' as never),
      ['spec.updateStrategy.type: Unsupported value: "Recreate": supported values: "RollingUpdate"'],
    ],
    [
      'update strategy type not empty',
      (s) => (s.spec.updateStrategy!.type = '' as never),
      ['spec.updateStrategy.type: Required value'],
    ],
    [
      'partition non-negative',
      (s) => (s.spec.updateStrategy!.rollingUpdate = { partition: -1 }),
      ['spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'revisionHistoryLimit non-negative',
      (s) => (s.spec.revisionHistoryLimit = -1),
      ['spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0'],
    ],
  ];
  for (const [rule, mutate, expected] of cases) {
    it(`rejects: ${rule}`, () => expect(messages(set(mutate))).toEqual(expected));
  }

  const updates: [string, (s: ManagedSeedSet) => void, string[]][] = [
    [
      'selector',
      (s) => (s.spec.selector = { matchLabels: { app: 'seeds', tier: 'a' } }),
      [
        'spec.selector: Invalid value: {"matchLabels":{"app":"seeds","tier":"a"}}: field is immutable',
        // The templates no longer match the new selector either.
        'spec.template.metadata.labels: Invalid value: {"app":"seeds"}: selector does not match template labels',
        'spec.template.spec.gardenlet.config.seedConfig.metadata.labels: Invalid value: {"app":"seeds"}: selector does not match template labels',
        'spec.shootTemplate.metadata.labels: Invalid value: {"app":"seeds"}: selector does not match template labels',
      ],
    ],
    [
      'revisionHistoryLimit',
      (s) => (s.spec.revisionHistoryLimit = 5),
      ['spec.revisionHistoryLimit: Invalid value: 5: field is immutable'],
    ],
    [
      'template bootstrap',
      (s) => (s.spec.template.spec.gardenlet.bootstrap = 'ServiceAccount'),
      ['spec.template.spec.gardenlet.bootstrap: Invalid value: "ServiceAccount": field is immutable'],
    ],
    [
      'template mergeWithParent',
      (s) => (s.spec.template.spec.gardenlet.mergeWithParent = true),
      ['spec.template.spec.gardenlet.mergeWithParent: Invalid value: true: field is immutable'],
    ],
  ];
  for (const [f, mutate, expected] of updates) {
    it(`keeps ${f} immutable; replicas may change`, () => {
      expect(messages(set(mutate), set())).toEqual(expected);
      expect(
        messages(
          set((s) => (s.spec.replicas = 5)),
          set(),
        ),
      ).toEqual([]);
    });
  }
});

describe('validateManagedSeedSetStatusUpdate', () => {
  const withStatus = (status: Record<string, unknown>) =>
    set(
      (s) =>
        (s.status = {
          observedGeneration: 1,
          replicas: 2,
          readyReplicas: 1,
          currentReplicas: 2,
          updatedReplicas: 2,
          nextReplicaNumber: 2,
          currentRevision: 'a',
          updateRevision: 'a',
          ...status,
        } as never),
    );
  const messagesOf = (s: ManagedSeedSet, old: ManagedSeedSet) =>
    validateManagedSeedSetStatusUpdate(s, old).map((e) => e.message);

  it('accepts consistent, growing counters', () => {
    expect(
      messagesOf(
        withStatus({
          nextReplicaNumber: 3,
          collisionCount: 1,
          pendingReplica: { name: 'seeds-2', reason: 'ShootReconciling', since: '2026-01-01T00:00:00Z' },
        }),
        withStatus({ collisionCount: 1 }),
      ),
    ).toEqual([]);
  });

  const cases: [string, Record<string, unknown>, Record<string, unknown>, string[]][] = [
    [
      'counts non-negative',
      { observedGeneration: -1 },
      {},
      ['status.observedGeneration: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'ready not above replicas',
      { readyReplicas: 3 },
      {},
      ['status.readyReplicas: Invalid value: 3: cannot be greater than status.replicas'],
    ],
    [
      'nextReplicaNumber not decremented',
      { nextReplicaNumber: 1 },
      {},
      ['status.nextReplicaNumber: Invalid value: 1: cannot be decremented'],
    ],
    [
      'collisionCount not decremented',
      { collisionCount: 1 },
      { collisionCount: 2 },
      ['status.collisionCount: Invalid value: 1: cannot be decremented'],
    ],
    [
      'pending replica name has parent and ordinal',
      { pendingReplica: { name: 'other-1', reason: 'ShootReconciling', since: '2026-01-01T00:00:00Z' } },
      {},
      ['status.pendingReplica.name: Invalid value: "other-1": must contain the parent name and a valid ordinal'],
    ],
    [
      'pending replica reason known',
      { pendingReplica: { name: 'seeds-1', reason: 'Bored', since: '2026-01-01T00:00:00Z' } },
      {},
      [
        expect.stringMatching(
          /^status\.pendingReplica\.reason: Unsupported value: "Bored": supported values: "ShootReconciling", /,
        ) as unknown as string,
      ],
    ],
  ];
  for (const [rule, now, before, expected] of cases) {
    it(`rejects: ${rule}`, () => expect(messagesOf(withStatus(now), withStatus(before))).toEqual(expected));
  }
});
