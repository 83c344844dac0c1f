// Tests of the rotation operation rules of Shoot validation (Gardener's validateShootOperation/…Context).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as O from '../../constants/operations.js';
import type { Shoot } from '../../core/v1beta1/shoot.js';
import { FieldPath } from '../field.js';
import { validateShoot } from './index.js';
import { RotationOperations, rotationOperationErrors, validateShootRotationOperation } from './rotation.js';

type Rotation = NonNullable<NonNullable<NonNullable<Shoot['status']>['credentials']>['rotation']>;
type Phase = NonNullable<Rotation['certificateAuthorities']>['phase'];
const T0 = '2026-01-01T10:00:00Z';
const path = 'metadata.annotations[gardener.cloud/operation]';

interface Options {
  rotation?: Rotation;
  lastOperation?: { type: string; state: string };
  hibernationEnabled?: boolean;
  hibernated?: boolean;
  encryptionConfig?: string[];
  encryptedResources?: string[];
  pendingWorkerUpdates?: { autoInPlaceUpdate?: string[]; manualInPlaceUpdate?: string[] };
  operation?: string;
}

function shoot(o: Options = {}): Shoot {
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: {
      name: 'foo',
      namespace: 'garden-dev',
      ...(o.operation ? { annotations: { 'gardener.cloud/operation': o.operation } } : {}),
    },
    spec: {
      cloudProfile: { kind: 'CloudProfile', name: 'local' },
      credentialsBindingName: 'local',
      kubernetes: {
        version: '1.33.0',
        ...(o.encryptionConfig ? { kubeAPIServer: { encryptionConfig: { resources: o.encryptionConfig } } } : {}),
      },
      networking: { type: 'calico', nodes: '10.10.0.0/16' },
      region: 'local',
      provider: {
        type: 'local',
        workers: ['pool-a', 'pool-b'].map((name) => ({ name, minimum: 1, maximum: 1, machine: { type: 'local' } })),
      },
      ...(o.hibernationEnabled ? { hibernation: { enabled: true } } : {}),
    },
    status: {
      gardener: { id: 'g', name: 'gardenlet', version: '1' },
      hibernated: o.hibernated ?? false,
      technicalID: 'shoot--dev--foo',
      uid: 'uid',
      lastOperation: {
        ...(o.lastOperation ?? { type: 'Reconcile', state: 'Succeeded' }),
        progress: 100,
        description: '',
        lastUpdateTime: T0,
      },
      ...(o.rotation ? { credentials: { rotation: o.rotation } } : {}),
      ...(o.encryptedResources ? { encryptedResources: o.encryptedResources } : {}),
      ...(o.pendingWorkerUpdates ? { inPlaceUpdates: { pendingWorkerUpdates: o.pendingWorkerUpdates } } : {}),
    },
  } as Shoot;
}

const phased = (phase: Phase) => ({ phase, lastInitiationTime: T0 });

describe('validateShootRotationOperation', () => {
  it('allows a start from no rotation or Completed, a completion from Prepared', () => {
    expect(validateShootRotationOperation(shoot(), O.OperationRotateCredentialsStart)).toEqual([]);
    expect(
      rotationOperationErrors(
        shoot({ rotation: { certificateAuthorities: phased('Completed') } }),
        O.OperationRotateCAStartWithoutWorkersRollout,
      ),
    ).toEqual([]);
    expect(
      rotationOperationErrors(
        shoot({ rotation: { certificateAuthorities: phased('Prepared') } }),
        O.OperationRotateCAComplete,
      ),
    ).toEqual([]);
  });

  it('refuses rotate-ca-complete when the CA rotation is not Prepared, with Gardener’s message and path', () => {
    const errors = validateShootRotationOperation(
      shoot({ rotation: { certificateAuthorities: phased('Preparing') } }),
      O.OperationRotateCAComplete,
    );
    expect(errors).toEqual([
      expect.objectContaining({
        type: 'FieldValueForbidden',
        field: path,
        message: `${path}: Forbidden: cannot complete CA rotation if .status.credentials.rotation.certificateAuthorities.phase is not 'Prepared'`,
      }),
    ]);
  });

  it('names every phased rotation a credentials start or completion is blocked by', () => {
    expect(
      rotationOperationErrors(
        shoot({ rotation: { certificateAuthorities: phased('Prepared'), serviceAccountKey: phased('Prepared') } }),
        O.OperationRotateCredentialsComplete,
      ),
    ).toEqual([
      "cannot complete rotation of all credentials if .status.credentials.rotation.etcdEncryptionKey.phase is not 'Prepared'",
    ]);
    expect(
      rotationOperationErrors(
        shoot({ rotation: { serviceAccountKey: phased('Preparing'), etcdEncryptionKey: phased('Prepared') } }),
        O.OperationRotateCredentialsStartWithoutWorkersRollout,
      ),
    ).toEqual([
      "cannot start rotation of all credentials if .status.credentials.rotation.serviceAccountKey.phase is not 'Completed'",
      "cannot start rotation of all credentials if .status.credentials.rotation.etcdEncryptionKey.phase is not 'Completed'",
    ]);
  });

  it('refuses starts before the shoot was created successfully', () => {
    const creating = shoot({ lastOperation: { type: 'Create', state: 'Processing' } });
    expect(rotationOperationErrors(creating, O.OperationRotateServiceAccountKeyStart)).toEqual([
      'cannot start service account key rotation if shoot was not yet created successfully or is not ready for reconciliation',
    ]);
    const restored = shoot({ lastOperation: { type: 'Restore', state: 'Succeeded' } });
    expect(rotationOperationErrors(restored, O.OperationRotateETCDEncryptionKeyStart)).toEqual([]);
    // Completions do not look at the last operation.
    const prepared = shoot({
      lastOperation: { type: 'Create', state: 'Error' },
      rotation: { etcdEncryptionKey: phased('Prepared') },
    });
    expect(rotationOperationErrors(prepared, O.OperationRotateETCDEncryptionKeyComplete)).toEqual([]);
  });

  it('refuses control plane rotations while hibernated or waking up, not SSH keypair or observability ones', () => {
    for (const s of [shoot({ hibernationEnabled: true }), shoot({ hibernated: true })]) {
      expect(rotationOperationErrors(s, O.OperationRotateETCDEncryptionKeyStart)).toContain(
        'operation is not permitted when shoot is hibernated or is waking up',
      );
      expect(rotationOperationErrors(s, O.OperationRotateSSHKeypair)).toEqual([]);
      expect(rotationOperationErrors(s, O.OperationRotateObservabilityCredentials)).toEqual([]);
    }
    // Gardener allows the CA rotation of a hibernated shoot (its workers are gone anyway).
    expect(rotationOperationErrors(shoot({ hibernationEnabled: true }), O.OperationRotateCAStart)).toEqual([]);
  });

  it('refuses an ETCD encryption key rotation start while an encryption configuration change rolls out', () => {
    const rolling = shoot({ encryptionConfig: ['configmaps'], encryptedResources: [] });
    const detail =
      'operation is not permitted because a previous encryption configuration change is currently being rolled out';
    expect(rotationOperationErrors(rolling, O.OperationRotateETCDEncryptionKeyStart)).toEqual([detail]);
    expect(rotationOperationErrors(rolling, O.OperationRotateCredentialsStart)).toEqual([detail]);
    expect(rotationOperationErrors(rolling, O.OperationRotateCAStart)).toEqual([]);
    const done = shoot({
      encryptionConfig: ['secrets', 'configmaps', 'configmaps'],
      encryptedResources: ['configmaps', 'secrets'],
    });
    expect(rotationOperationErrors(done, O.OperationRotateETCDEncryptionKeyStart)).toEqual([]);
  });

  it('refuses CA and service account key starts while worker pools wait for in-place updates', () => {
    const pending = shoot({ pendingWorkerUpdates: { manualInPlaceUpdate: ['pool-a'], autoInPlaceUpdate: ['pool-b'] } });
    expect(rotationOperationErrors(pending, O.OperationRotateCAStart)).toEqual([
      'cannot start CA rotation if status.inPlaceUpdates.pendingWorkerUpdates.autoInPlaceUpdate is not empty',
      'cannot start CA rotation if status.inPlaceUpdates.pendingWorkerUpdates.manualInPlaceUpdate is not empty',
    ]);
    expect(rotationOperationErrors(pending, O.OperationRotateETCDEncryptionKeyStart)).toEqual([]);
  });

  it('rotate-rollout-workers= needs a rotation waiting for workers rollout and existing, distinct pools', () => {
    const waiting = shoot({ rotation: { serviceAccountKey: phased('WaitingForWorkersRollout') } });
    const op = (pools: string) => `${O.OperationRotateRolloutWorkersPrefix}${pools}`;
    expect(rotationOperationErrors(waiting, op('pool-a,pool-b'))).toEqual([]);
    expect(rotationOperationErrors(shoot(), op('pool-a'))).toEqual([
      "either .status.credentials.rotation.certificateAuthorities.phase or .status.credentials.rotation.serviceAccountKey.phase must be in 'WaitingForWorkersRollout' in order to trigger workers rollout",
    ]);
    const errors = validateShootRotationOperation(waiting, op('pool-a,pool-a,nope'));
    expect(errors.map((e) => e.message)).toEqual([
      `${path}: Duplicate value: "pool name pool-a was specified multiple times"`,
      `${path}: Invalid value: "nope": worker pool name nope does not exist in .spec.provider.workers[]`,
    ]);
    expect(validateShootRotationOperation(waiting, op('')).map((e) => e.type)).toContain('FieldValueRequired');
    expect(rotationOperationErrors(shoot({ hibernated: true }), op('pool-a'))).toContain(
      'operation is not permitted when shoot is hibernated or is waking up',
    );
  });

  it('uses the given field path', () => {
    const errors = validateShootRotationOperation(
      shoot(),
      O.OperationRotateCAComplete,
      FieldPath.root('metadata', 'annotations').key('maintenance.gardener.cloud/operation'),
    );
    expect(errors[0]?.field).toBe('metadata.annotations[maintenance.gardener.cloud/operation]');
  });

  it('ignores operations that are no rotation', () => {
    const s = shoot({ hibernated: true, lastOperation: { type: 'Create', state: 'Processing' } });
    for (const op of [O.OperationReconcile, O.OperationRetry, O.OperationMaintain, undefined, ''])
      expect(validateShootRotationOperation(s, op)).toEqual([]);
  });

  it('property: a completion is allowed exactly when the phases it completes are Prepared (awake shoot)', () => {
    const phases: Phase[] = [
      'Preparing',
      'PreparingWithoutWorkersRollout',
      'WaitingForWorkersRollout',
      'Prepared',
      'Completing',
      'Completed',
    ];
    const phaseOrNone = fc.option(fc.constantFrom(...phases), { nil: undefined });
    const completions = [
      [O.OperationRotateCAComplete, ['certificateAuthorities']],
      [O.OperationRotateServiceAccountKeyComplete, ['serviceAccountKey']],
      [O.OperationRotateETCDEncryptionKeyComplete, ['etcdEncryptionKey']],
      [O.OperationRotateCredentialsComplete, ['certificateAuthorities', 'serviceAccountKey', 'etcdEncryptionKey']],
    ] as const;
    fc.assert(
      fc.property(
        phaseOrNone,
        phaseOrNone,
        phaseOrNone,
        fc.constantFrom(...completions),
        (caPhase, saPhase, etcdPhase, [operation, kinds]) => {
          const rotation: Rotation = {};
          if (caPhase) rotation.certificateAuthorities = phased(caPhase);
          if (saPhase) rotation.serviceAccountKey = phased(saPhase);
          if (etcdPhase) rotation.etcdEncryptionKey = phased(etcdPhase);
          const s = shoot({ rotation });
          const prepared = kinds.every((k) => rotation[k]?.phase === 'Prepared');
          expect(rotationOperationErrors(s, operation).length === 0).toBe(prepared);
        },
      ),
    );
  });

  it('property: every error sits at the given path, and only rotation operations yield errors', () => {
    const operation = fc.oneof(
      fc.constantFrom(...RotationOperations, O.OperationReconcile, O.OperationMaintain),
      fc.string().map((s) => `${O.OperationRotateRolloutWorkersPrefix}${s}`),
    );
    fc.assert(
      fc.property(operation, fc.boolean(), fc.boolean(), (op, hibernated, created) => {
        const s = shoot({ hibernated, lastOperation: created ? undefined : { type: 'Create', state: 'Error' } });
        const errors = validateShootRotationOperation(s, op);
        for (const e of errors) expect(e.field).toBe(path);
        if (!RotationOperations.includes(op) && !op.startsWith(O.OperationRotateRolloutWorkersPrefix))
          expect(errors).toEqual([]);
      }),
    );
  });
});

describe('validateShoot with a rotation operation', () => {
  it('refuses rotate-ca-complete on update while the stored CA rotation is Preparing', () => {
    const old = shoot({ rotation: { certificateAuthorities: phased('Preparing') } });
    const updated = shoot({ operation: O.OperationRotateCAComplete });
    // The status sent along is ignored on update: the stored one counts (the strategy's PrepareForUpdate).
    updated.status = shoot({ rotation: { certificateAuthorities: phased('Prepared') } }).status;
    const errors = validateShoot(updated, old).filter((e) => e.field === path);
    expect(errors.map((e) => e.detail)).toEqual([
      "cannot complete CA rotation if .status.credentials.rotation.certificateAuthorities.phase is not 'Prepared'",
    ]);
    const prepared = shoot({ rotation: { certificateAuthorities: phased('Prepared') } });
    expect(validateShoot(updated, prepared).filter((e) => e.field === path)).toEqual([]);
  });

  it('reports an unknown operation as not supported', () => {
    const errors = validateShoot(shoot({ operation: 'rotate-everything' })).filter((e) => e.field === path);
    expect(errors.map((e) => e.type)).toEqual(['FieldValueNotSupported']);
  });
});
