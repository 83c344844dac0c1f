import { Operations, type Shoot } from '@gardener-ts/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  RotationOperations,
  rolloutWorkersPools,
  rotationOperationErrors,
  rotationPhase,
  rotationStatusAtStart,
  rotationStatusAtSuccess,
  type PhasedRotation,
  type RotationPhase,
  type ShootCredentialsRotation,
} from './index.js';

const O = Operations;
const t0 = new Date('2026-01-01T10:00:00.000Z');
const t1 = new Date('2026-01-01T11:00:00.500Z');
const t2 = new Date('2026-01-01T12:00:00Z');
const T0 = '2026-01-01T10:00:00Z';
const T1 = '2026-01-01T11:00:00Z';
const T2 = '2026-01-01T12:00:00Z';

interface ShootOptions {
  workers?: string[];
  hibernated?: boolean;
  sshAccess?: boolean;
  rotation?: ShootCredentialsRotation;
  manualInPlace?: string[];
  lastOperation?: { type: string; state: string };
  deleting?: boolean;
}

function shoot(o: ShootOptions = {}): Shoot {
  const workers = o.workers ?? ['pool-a', 'pool-b'];
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: {
      name: 'foo',
      namespace: 'garden-dev',
      ...(o.deleting ? { deletionTimestamp: T0 } : {}),
    },
    spec: {
      kubernetes: { version: '1.33.0' },
      region: 'local',
      provider: {
        type: 'local',
        workers: workers.map((name) => ({ name, minimum: 1, maximum: 1, machine: { type: 'local' } })),
        ...(o.sshAccess === false ? { workersSettings: { sshAccess: { enabled: false } } } : {}),
      },
      ...(o.hibernated ? { hibernation: { enabled: true } } : {}),
    },
    status: {
      gardener: { id: 'g', name: 'gardenlet', version: '1' },
      hibernated: false,
      technicalID: 'shoot--dev--foo',
      uid: 'uid',
      lastOperation: {
        type: 'Reconcile',
        state: 'Succeeded',
        progress: 100,
        description: '',
        lastUpdateTime: T0,
        ...o.lastOperation,
      },
      ...(o.rotation ? { credentials: { rotation: o.rotation } } : {}),
      ...(o.manualInPlace
        ? { inPlaceUpdates: { pendingWorkerUpdates: { manualInPlaceUpdate: o.manualInPlace } } }
        : {}),
    },
  } as unknown as Shoot;
}

/** The Shoot with `rotation` as its rotation status. */
function withRotation(s: Shoot, rotation: ShootCredentialsRotation | undefined): Shoot {
  return { ...s, status: { ...s.status!, credentials: rotation ? { rotation } : undefined } } as Shoot;
}

/** Start and success of one flow. */
function runFlow(s: Shoot, operation: string | undefined, start: Date, end: Date): Shoot {
  const started = withRotation(s, rotationStatusAtStart(s, operation, start));
  return withRotation(started, rotationStatusAtSuccess(started, operation, end));
}

describe('rotationStatusAtStart', () => {
  it('rotate-credentials-start starts every rotation', () => {
    expect(rotationStatusAtStart(shoot(), O.OperationRotateCredentialsStart, t1)).toEqual({
      certificateAuthorities: { phase: 'Preparing', lastInitiationTime: T1 },
      serviceAccountKey: { phase: 'Preparing', lastInitiationTime: T1 },
      etcdEncryptionKey: { phase: 'Preparing', lastInitiationTime: T1 },
      sshKeypair: { lastInitiationTime: T1 },
      observability: { lastInitiationTime: T1 },
    });
  });

  it('rotate-credentials-start leaves the SSH keypair alone without SSH access or workers', () => {
    for (const s of [shoot({ sshAccess: false }), shoot({ workers: [] })]) {
      const r = rotationStatusAtStart(s, O.OperationRotateCredentialsStart, t1)!;
      expect(r.sshKeypair).toBeUndefined();
      expect(r.observability).toEqual({ lastInitiationTime: T1 });
    }
  });

  it('a new start clears the finished and completion-triggered times but keeps the last completion', () => {
    const previous: PhasedRotation = {
      phase: 'Completed',
      lastInitiationTime: T0,
      lastInitiationFinishedTime: T0,
      lastCompletionTriggeredTime: T0,
      lastCompletionTime: T0,
    };
    const r = rotationStatusAtStart(
      shoot({ rotation: { certificateAuthorities: previous } }),
      O.OperationRotateCAStart,
      t1,
    );
    expect(r).toEqual({
      certificateAuthorities: { phase: 'Preparing', lastInitiationTime: T1, lastCompletionTime: T0 },
    });
  });

  it('rotate-credentials-start-without-workers-rollout lists every pool with the previous initiation time', () => {
    const s = shoot({ rotation: { certificateAuthorities: { phase: 'Completed', lastInitiationTime: T0 } } });
    const r = rotationStatusAtStart(s, O.OperationRotateCredentialsStartWithoutWorkersRollout, t1)!;
    expect(r.certificateAuthorities).toEqual({
      phase: 'PreparingWithoutWorkersRollout',
      lastInitiationTime: T1,
      pendingWorkersRollouts: [
        { name: 'pool-a', lastInitiationTime: T0 },
        { name: 'pool-b', lastInitiationTime: T0 },
      ],
    });
    expect(r.serviceAccountKey).toEqual({
      phase: 'PreparingWithoutWorkersRollout',
      lastInitiationTime: T1,
      pendingWorkersRollouts: [{ name: 'pool-a' }, { name: 'pool-b' }],
    });
    expect(r.etcdEncryptionKey).toEqual({ phase: 'Preparing', lastInitiationTime: T1 });
  });

  it('rotate-credentials-complete completes the phased rotations', () => {
    const prepared = { phase: 'Prepared' as const, lastInitiationTime: T0, lastInitiationFinishedTime: T0 };
    const s = shoot({
      rotation: {
        certificateAuthorities: prepared,
        serviceAccountKey: prepared,
        etcdEncryptionKey: prepared,
        observability: { lastInitiationTime: T0, lastCompletionTime: T0 },
      },
    });
    const completing = { ...prepared, phase: 'Completing', lastCompletionTriggeredTime: T1 };
    expect(rotationStatusAtStart(s, O.OperationRotateCredentialsComplete, t1)).toEqual({
      certificateAuthorities: completing,
      serviceAccountKey: completing,
      etcdEncryptionKey: completing,
      observability: { lastInitiationTime: T0, lastCompletionTime: T0 },
    });
  });

  it.each([
    [O.OperationRotateCAStart, 'certificateAuthorities', 'Preparing'],
    [O.OperationRotateCAStartWithoutWorkersRollout, 'certificateAuthorities', 'PreparingWithoutWorkersRollout'],
    [O.OperationRotateServiceAccountKeyStart, 'serviceAccountKey', 'Preparing'],
    [
      O.OperationRotateServiceAccountKeyStartWithoutWorkersRollout,
      'serviceAccountKey',
      'PreparingWithoutWorkersRollout',
    ],
    [O.OperationRotateETCDEncryptionKeyStart, 'etcdEncryptionKey', 'Preparing'],
    [O.OperationRotateETCDEncryptionKey, 'etcdEncryptionKey', 'Preparing'],
  ] as const)('%s starts only the %s rotation (%s)', (operation, kind, phase) => {
    const r = rotationStatusAtStart(shoot(), operation, t1)!;
    expect(Object.keys(r)).toEqual([kind]);
    expect(r[kind]?.phase).toBe(phase);
    expect(r[kind]?.lastInitiationTime).toBe(T1);
  });

  it.each([
    [O.OperationRotateCAComplete, 'certificateAuthorities'],
    [O.OperationRotateServiceAccountKeyComplete, 'serviceAccountKey'],
    [O.OperationRotateETCDEncryptionKeyComplete, 'etcdEncryptionKey'],
  ] as const)('%s completes only the %s rotation', (operation, kind) => {
    const prepared = { phase: 'Prepared' as const, lastInitiationTime: T0, lastInitiationFinishedTime: T0 };
    const s = shoot({
      rotation: { certificateAuthorities: prepared, serviceAccountKey: prepared, etcdEncryptionKey: prepared },
    });
    const r = rotationStatusAtStart(s, operation, t1)!;
    expect(r[kind]).toEqual({ ...prepared, phase: 'Completing', lastCompletionTriggeredTime: T1 });
    for (const other of ['certificateAuthorities', 'serviceAccountKey', 'etcdEncryptionKey'] as const) {
      if (other !== kind) expect(r[other]).toEqual(prepared);
    }
  });

  it('rotate-etcd-encryption-key marks the initiation finished right away (single operation)', () => {
    expect(rotationStatusAtStart(shoot(), O.OperationRotateETCDEncryptionKey, t1)).toEqual({
      etcdEncryptionKey: { phase: 'Preparing', lastInitiationTime: T1, lastInitiationFinishedTime: T1 },
    });
  });

  it('rotate-observability-credentials and rotate-ssh-keypair record the initiation', () => {
    const s = shoot({ rotation: { observability: { lastInitiationTime: T0, lastCompletionTime: T0 } } });
    expect(rotationStatusAtStart(s, O.OperationRotateObservabilityCredentials, t1)).toEqual({
      observability: { lastInitiationTime: T1, lastCompletionTime: T0 },
    });
    expect(rotationStatusAtStart(shoot(), O.OperationRotateSSHKeypair, t1)).toEqual({
      sshKeypair: { lastInitiationTime: T1 },
    });
    expect(rotationStatusAtStart(shoot({ sshAccess: false }), O.OperationRotateSSHKeypair, t1)).toBeUndefined();
  });

  it('rotate-rollout-workers removes the rolled pools of rotations waiting for them', () => {
    const waiting = {
      phase: 'WaitingForWorkersRollout' as const,
      lastInitiationTime: T0,
      pendingWorkersRollouts: [{ name: 'pool-a' }, { name: 'pool-b' }],
    };
    const s = shoot({
      rotation: {
        certificateAuthorities: waiting,
        serviceAccountKey: { ...waiting, phase: 'PreparingWithoutWorkersRollout' },
      },
    });
    const operation = `${O.OperationRotateRolloutWorkersPrefix}pool-a,pool-c`;
    expect(rolloutWorkersPools(operation)).toEqual(['pool-a', 'pool-c']);
    const r = rotationStatusAtStart(s, operation, t1)!;
    expect(r.certificateAuthorities?.pendingWorkersRollouts).toEqual([{ name: 'pool-b' }]);
    // Not waiting yet: the list stays.
    expect(r.serviceAccountKey?.pendingWorkersRollouts).toEqual([{ name: 'pool-a' }, { name: 'pool-b' }]);
  });

  it('drops pending rollouts of pools that are gone, and all of them while hibernated', () => {
    const waiting = {
      phase: 'WaitingForWorkersRollout' as const,
      lastInitiationTime: T0,
      pendingWorkersRollouts: [{ name: 'pool-a' }, { name: 'gone' }],
    };
    const r = rotationStatusAtStart(shoot({ rotation: { certificateAuthorities: waiting } }), undefined, t1)!;
    expect(r.certificateAuthorities?.pendingWorkersRollouts).toEqual([{ name: 'pool-a' }]);
    const h = rotationStatusAtStart(
      shoot({ hibernated: true, rotation: { certificateAuthorities: waiting } }),
      'reconcile',
      t1,
    )!;
    expect(h.certificateAuthorities?.pendingWorkersRollouts).toEqual([]);
  });

  it('does not mutate the Shoot', () => {
    const s = shoot({ rotation: { certificateAuthorities: { phase: 'Prepared', lastInitiationTime: T0 } } });
    const copy = structuredClone(s);
    rotationStatusAtStart(s, O.OperationRotateCredentialsComplete, t1);
    rotationStatusAtSuccess(s, undefined, t1);
    expect(s).toEqual(copy);
  });
});

describe('rotationStatusAtSuccess', () => {
  it('Preparing becomes Prepared with the finished time; Completing becomes Completed', () => {
    const s = shoot({
      rotation: {
        certificateAuthorities: { phase: 'Preparing', lastInitiationTime: T1 },
        serviceAccountKey: {
          phase: 'Completing',
          lastInitiationTime: T0,
          lastInitiationFinishedTime: T0,
          lastCompletionTriggeredTime: T1,
        },
        etcdEncryptionKey: { phase: 'Preparing', lastInitiationTime: T1 },
      },
    });
    expect(rotationStatusAtSuccess(s, O.OperationRotateCredentialsStart, t2)).toEqual({
      certificateAuthorities: { phase: 'Prepared', lastInitiationTime: T1, lastInitiationFinishedTime: T2 },
      serviceAccountKey: { phase: 'Completed', lastInitiationTime: T0, lastCompletionTime: T2 },
      etcdEncryptionKey: { phase: 'Prepared', lastInitiationTime: T1, lastInitiationFinishedTime: T2 },
    });
  });

  it('stays Preparing while manual in-place updates are pending (CA and service account key)', () => {
    const s = shoot({
      manualInPlace: ['pool-a'],
      rotation: {
        certificateAuthorities: { phase: 'Preparing', lastInitiationTime: T1 },
        etcdEncryptionKey: { phase: 'Preparing', lastInitiationTime: T1 },
      },
    });
    const r = rotationStatusAtSuccess(s, undefined, t2)!;
    expect(r.certificateAuthorities?.phase).toBe('Preparing');
    expect(r.etcdEncryptionKey?.phase).toBe('Prepared');
  });

  it('without workers rollout: waits for the pools, then Prepared once none is pending', () => {
    const s = shoot();
    const started = withRotation(s, rotationStatusAtStart(s, O.OperationRotateCAStartWithoutWorkersRollout, t0));
    const waiting = withRotation(started, rotationStatusAtSuccess(started, undefined, t1));
    expect(rotationPhase(waiting, 'certificateAuthorities')).toBe('WaitingForWorkersRollout');
    // A reconcile alone does not move on.
    expect(rotationPhase(runFlow(waiting, 'reconcile', t1, t1), 'certificateAuthorities')).toBe(
      'WaitingForWorkersRollout',
    );
    const rolled = runFlow(waiting, `${O.OperationRotateRolloutWorkersPrefix}pool-a,pool-b`, t2, t2);
    expect(rolled.status?.credentials?.rotation?.certificateAuthorities).toEqual({
      phase: 'Prepared',
      lastInitiationTime: T0,
      lastInitiationFinishedTime: T2,
      pendingWorkersRollouts: [],
    });
  });

  it('the single-operation ETCD encryption key rotation goes on to Completing, then Completed', () => {
    const first = runFlow(shoot(), O.OperationRotateETCDEncryptionKey, t0, t1);
    expect(first.status?.credentials?.rotation?.etcdEncryptionKey).toEqual({
      phase: 'Completing',
      lastInitiationTime: T0,
      lastInitiationFinishedTime: T0,
      lastCompletionTriggeredTime: T1,
    });
    const second = runFlow(first, undefined, t2, t2);
    expect(second.status?.credentials?.rotation?.etcdEncryptionKey).toEqual({
      phase: 'Completed',
      lastInitiationTime: T0,
      lastCompletionTime: T2,
    });
  });

  it('completes SSH keypair and observability rotations initiated after their last completion', () => {
    const s = shoot({
      rotation: {
        sshKeypair: { lastInitiationTime: T1, lastCompletionTime: T0 },
        observability: { lastInitiationTime: T0, lastCompletionTime: T1 },
      },
    });
    expect(rotationStatusAtSuccess(s, undefined, t2)).toEqual({
      sshKeypair: { lastInitiationTime: T1, lastCompletionTime: T2 },
      observability: { lastInitiationTime: T0, lastCompletionTime: T1 },
    });
  });

  it('drops the SSH keypair rotation when the shoot has no SSH access', () => {
    const s = shoot({ sshAccess: false, rotation: { sshKeypair: { lastInitiationTime: T0, lastCompletionTime: T0 } } });
    expect(rotationStatusAtSuccess(s, undefined, t2)).toEqual({});
  });

  it('is undefined for a shoot without rotation status', () => {
    expect(rotationStatusAtSuccess(shoot(), 'reconcile', t2)).toBeUndefined();
  });
});

describe('rotationOperationErrors', () => {
  const prepared = { phase: 'Prepared' as const, lastInitiationTime: T0 };
  const completed = { phase: 'Completed' as const, lastInitiationTime: T0 };

  it('allows starts from no rotation or Completed, completions from Prepared', () => {
    expect(rotationOperationErrors(shoot(), O.OperationRotateCredentialsStart)).toEqual([]);
    expect(
      rotationOperationErrors(shoot({ rotation: { certificateAuthorities: completed } }), O.OperationRotateCAStart),
    ).toEqual([]);
    expect(
      rotationOperationErrors(shoot({ rotation: { certificateAuthorities: prepared } }), O.OperationRotateCAComplete),
    ).toEqual([]);
  });

  it('forbids a start while the rotation runs and a completion before Prepared', () => {
    expect(
      rotationOperationErrors(
        shoot({ rotation: { serviceAccountKey: prepared } }),
        O.OperationRotateServiceAccountKeyStart,
      ),
    ).toHaveLength(1);
    expect(rotationOperationErrors(shoot(), O.OperationRotateETCDEncryptionKeyComplete)).toHaveLength(1);
    expect(
      rotationOperationErrors(
        shoot({ rotation: { certificateAuthorities: prepared, serviceAccountKey: prepared } }),
        O.OperationRotateCredentialsComplete,
      ),
    ).toEqual([
      "cannot complete rotation of all credentials if .status.credentials.rotation.etcdEncryptionKey.phase is not 'Prepared'",
    ]);
  });

  it('forbids starts before the shoot was created, and control plane rotations while hibernated', () => {
    const creating = shoot({ lastOperation: { type: 'Create', state: 'Processing' } });
    expect(rotationOperationErrors(creating, O.OperationRotateCAStart)).toHaveLength(1);
    expect(rotationOperationErrors(shoot({ hibernated: true }), O.OperationRotateETCDEncryptionKey)).toHaveLength(1);
    // As Gardener's Shoot validation: a shoot in deletion is no reason to refuse (its spec is frozen anyway).
    expect(rotationOperationErrors(shoot({ deleting: true }), O.OperationRotateObservabilityCredentials)).toEqual([]);
  });

  it('rotate-rollout-workers needs a rotation waiting for workers rollout', () => {
    const op = `${O.OperationRotateRolloutWorkersPrefix}pool-a`;
    expect(rotationOperationErrors(shoot(), op)).toHaveLength(1);
    const waiting = { phase: 'WaitingForWorkersRollout' as const, pendingWorkersRollouts: [{ name: 'pool-a' }] };
    expect(rotationOperationErrors(shoot({ rotation: { serviceAccountKey: waiting } }), op)).toEqual([]);
  });

  it('ignores other operations', () => {
    expect(rotationOperationErrors(shoot({ hibernated: true, deleting: true }), 'reconcile')).toEqual([]);
    expect(rotationOperationErrors(shoot(), undefined)).toEqual([]);
  });
});

// ---- properties ----

const phases: RotationPhase[] = [
  'Preparing',
  'PreparingWithoutWorkersRollout',
  'WaitingForWorkersRollout',
  'Prepared',
  'Completing',
  'Completed',
];
const time = fc
  .integer({ min: Date.parse('2020-01-01T00:00:00Z') / 1000, max: Date.parse('2030-01-01T00:00:00Z') / 1000 })
  .map((s) => new Date(s * 1000));
const stamp = time.map((d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z'));
const poolName = fc.constantFrom('pool-a', 'pool-b', 'pool-c');
const phased = fc.record(
  {
    phase: fc.constantFrom(...phases),
    lastInitiationTime: stamp,
    lastInitiationFinishedTime: stamp,
    lastCompletionTriggeredTime: stamp,
    lastCompletionTime: stamp,
    pendingWorkersRollouts: fc.array(fc.record({ name: poolName }, { requiredKeys: ['name'] }), { maxLength: 3 }),
  },
  { requiredKeys: ['phase'] },
);
const timed = fc.record({ lastInitiationTime: stamp, lastCompletionTime: stamp }, { requiredKeys: [] });
const rotationArb: fc.Arbitrary<ShootCredentialsRotation> = fc.record(
  {
    certificateAuthorities: phased,
    serviceAccountKey: phased,
    etcdEncryptionKey: phased.map(({ pendingWorkersRollouts: _, ...r }) => r),
    sshKeypair: timed,
    observability: timed,
  },
  { requiredKeys: [] },
);
const shootArb = fc
  .record({
    workers: fc.uniqueArray(poolName, { maxLength: 3 }),
    hibernated: fc.boolean(),
    sshAccess: fc.boolean(),
    rotation: fc.option(rotationArb, { nil: undefined }),
    manualInPlace: fc.option(fc.array(poolName, { maxLength: 2 }), { nil: undefined }),
  })
  .map((o) => shoot(o));
const otherOperation = fc.constantFrom(undefined, 'reconcile', 'retry', 'maintain', 'restore', 'renew-kubeconfig');
const anyOperation = fc.oneof(
  otherOperation,
  fc.constantFrom(...RotationOperations),
  poolName.map((p) => `${O.OperationRotateRolloutWorkersPrefix}${p}`),
);

/** The rotation status with the pending-rollout cleanup every start does applied by hand. */
function cleanedUp(s: Shoot): ShootCredentialsRotation | undefined {
  const r = s.status?.credentials?.rotation;
  if (r === undefined) return undefined;
  const pools = new Set(s.spec.hibernation?.enabled ? [] : (s.spec.provider.workers ?? []).map((w) => w.name));
  const out = structuredClone(r);
  for (const kind of ['certificateAuthorities', 'serviceAccountKey'] as const) {
    const k = out[kind];
    if (k?.pendingWorkersRollouts) k.pendingWorkersRollouts = k.pendingWorkersRollouts.filter((p) => pools.has(p.name));
  }
  return out;
}

describe('rotation properties', () => {
  it('operations that are no rotation change nothing but vanished pending pools', () => {
    fc.assert(
      fc.property(shootArb, otherOperation, time, (s, operation, now) => {
        expect(rotationStatusAtStart(s, operation, now)).toEqual(cleanedUp(s));
      }),
    );
  });

  it('a start from no rotation or Completed, then success, ends Prepared (or waiting for workers)', () => {
    const starts = [
      [O.OperationRotateCAStart, ['certificateAuthorities']],
      [O.OperationRotateServiceAccountKeyStart, ['serviceAccountKey']],
      [O.OperationRotateETCDEncryptionKeyStart, ['etcdEncryptionKey']],
      [O.OperationRotateCredentialsStart, ['certificateAuthorities', 'serviceAccountKey', 'etcdEncryptionKey']],
    ] as const;
    fc.assert(
      fc.property(shootArb, fc.constantFrom(...starts), time, time, (s, [operation, kinds], a, b) => {
        fc.pre(rotationOperationErrors(s, operation).length === 0);
        fc.pre(!s.status?.inPlaceUpdates);
        const done = runFlow(s, operation, a, b);
        for (const kind of kinds) {
          expect(rotationPhase(done, kind)).toBe('Prepared');
          expect(done.status?.credentials?.rotation?.[kind]?.lastInitiationFinishedTime).toBeDefined();
        }
      }),
    );
  });

  it('start then success of any allowed operation ends Prepared, Completed or a documented waiting phase', () => {
    fc.assert(
      fc.property(shootArb, anyOperation, time, time, (s, operation, a, b) => {
        fc.pre(operation !== undefined && RotationOperations.includes(operation));
        fc.pre(rotationOperationErrors(s, operation).length === 0);
        const before = s.status?.credentials?.rotation;
        const done = runFlow(s, operation, a, b);
        for (const kind of ['certificateAuthorities', 'serviceAccountKey', 'etcdEncryptionKey'] as const) {
          const phase = rotationPhase(done, kind);
          const touched =
            done.status?.credentials?.rotation?.[kind]?.lastInitiationTime !== before?.[kind]?.lastInitiationTime;
          if (!touched && before?.[kind]?.phase !== 'Prepared') continue;
          const allowed: (RotationPhase | undefined)[] = ['Prepared', 'Completed', before?.[kind]?.phase];
          if (operation.includes('without-workers-rollout')) allowed.push('WaitingForWorkersRollout', 'Prepared');
          if (s.status?.inPlaceUpdates?.pendingWorkerUpdates?.manualInPlaceUpdate?.length) allowed.push('Preparing');
          if (operation === O.OperationRotateETCDEncryptionKey) allowed.push('Completing');
          expect(allowed).toContain(phase);
        }
      }),
    );
  });

  it('a completion is only allowed from Prepared, and then ends Completed', () => {
    const completions = [
      [O.OperationRotateCAComplete, 'certificateAuthorities'],
      [O.OperationRotateServiceAccountKeyComplete, 'serviceAccountKey'],
      [O.OperationRotateETCDEncryptionKeyComplete, 'etcdEncryptionKey'],
    ] as const;
    fc.assert(
      fc.property(shootArb, fc.constantFrom(...completions), time, time, (s, [operation, kind], a, b) => {
        const allowed = rotationOperationErrors(s, operation).length === 0;
        if (!s.spec.hibernation?.enabled) expect(allowed).toBe(rotationPhase(s, kind) === 'Prepared');
        if (!allowed) return;
        const done = runFlow(s, operation, a, b);
        expect(rotationPhase(done, kind)).toBe('Completed');
        const r = done.status!.credentials!.rotation![kind]!;
        expect(r.lastCompletionTime).toBe(b.toISOString().replace(/\.\d{3}Z$/, 'Z'));
        expect(r.lastInitiationFinishedTime).toBeUndefined();
        expect(r.lastCompletionTriggeredTime).toBeUndefined();
      }),
    );
  });

  it('success is idempotent once nothing is in progress, and never touches the initiation times', () => {
    fc.assert(
      fc.property(shootArb, anyOperation, time, time, (s, operation, a, b) => {
        const started = withRotation(s, rotationStatusAtStart(s, operation, a));
        const r = rotationStatusAtSuccess(started, operation, b);
        for (const kind of [
          'certificateAuthorities',
          'serviceAccountKey',
          'etcdEncryptionKey',
          'observability',
        ] as const) {
          expect(r?.[kind]?.lastInitiationTime).toBe(started.status?.credentials?.rotation?.[kind]?.lastInitiationTime);
        }
        const again = withRotation(started, r);
        const settled = (x: Shoot) =>
          (['certificateAuthorities', 'serviceAccountKey', 'etcdEncryptionKey'] as const).every((k) => {
            const p = rotationPhase(x, k);
            return p === undefined || p === 'Prepared' || p === 'Completed';
          });
        if (settled(again)) expect(rotationStatusAtSuccess(again, undefined, b)).toEqual(r);
      }),
    );
  });
});

describe('operations joined with ;', () => {
  it('applies each operation of the annotation, as the maintenance joins them', () => {
    const s = shoot();
    expect(rotationStatusAtStart(s, 'reconcile;rotate-ssh-keypair;rotate-observability-credentials', t0)).toEqual({
      sshKeypair: { lastInitiationTime: T0 },
      observability: { lastInitiationTime: T0 },
    });
    expect(rotationStatusAtStart(s, 'reconcile', t0)).toBeUndefined();
  });

  it('equals applying the operations one after another', () => {
    const ops = [O.OperationRotateCAStart, O.OperationRotateSSHKeypair, O.OperationRotateETCDEncryptionKeyStart];
    fc.assert(
      fc.property(fc.subarray(ops), (chosen) => {
        let step: Shoot = shoot();
        for (const op of chosen) {
          const next = rotationStatusAtStart(step, op, t0);
          step = { ...step, status: { ...step.status!, credentials: next ? { rotation: next } : undefined } } as Shoot;
        }
        const joined = rotationStatusAtStart(shoot(), ['reconcile', ...chosen].join(';'), t0);
        expect(joined).toEqual(step.status?.credentials?.rotation);
      }),
    );
  });

  it('knows the single-operation ETCD encryption key rotation among joined operations', () => {
    const started = rotationStatusAtStart(shoot(), 'reconcile;rotate-etcd-encryption-key', t0);
    const s = shoot({
      rotation: { etcdEncryptionKey: { ...started!.etcdEncryptionKey!, lastInitiationFinishedTime: undefined } },
    });
    expect(rotationStatusAtSuccess(s, 'reconcile;rotate-etcd-encryption-key', t1)?.etcdEncryptionKey?.phase).toBe(
      'Completing',
    );
    expect(rotationStatusAtSuccess(s, 'reconcile', t1)?.etcdEncryptionKey?.phase).toBe('Prepared');
  });
});
