// The rotation's Shoot status patches: written exactly (dropped fields become null), empty when nothing changes, and
// the merge patch they are made with turns any JSON object into any other (property test against the client's
// `applyMergePatch`).
import { Operations, type Shoot } from '@gardener-ts/api';
import { applyMergePatch } from '@gardener-ts/controller-runtime';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  completingAfterSuccess,
  isRotationOperation,
  mergePatchFor,
  operationAnnotation,
  rotationCompletionPending,
  rotationStartStatus,
  rotationSuccessStatus,
  type ShootCredentialsRotation,
} from './index.js';

const T0 = '2026-01-01T10:00:00Z';
const T1 = new Date('2026-01-01T11:00:00Z');
const T2 = new Date('2026-01-01T12:00:00Z');

function shoot(rotation?: ShootCredentialsRotation, operation?: string): Shoot {
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: {
      name: 'foo',
      namespace: 'garden-dev',
      ...(operation ? { annotations: { 'gardener.cloud/operation': operation } } : {}),
    },
    spec: {
      kubernetes: { version: '1.33.0' },
      region: 'local',
      provider: { type: 'local', workers: [{ name: 'pool-a', minimum: 1, maximum: 1, machine: { type: 'local' } }] },
    },
    status: {
      lastOperation: { type: 'Reconcile', state: 'Succeeded', progress: 100, description: '', lastUpdateTime: T0 },
      ...(rotation ? { credentials: { rotation } } : {}),
    },
  } as unknown as Shoot;
}

/** The Shoot after its status got `patch` (as the API server merges it). */
function patched(s: Shoot, patch: object): Shoot {
  return { ...s, status: applyMergePatch(s.status, patch) } as Shoot;
}

describe('isRotationOperation', () => {
  it('is true for the rotation operations and rotate-rollout-workers, false for others', () => {
    expect(isRotationOperation(Operations.OperationRotateCAStart)).toBe(true);
    expect(isRotationOperation(Operations.OperationRotateSSHKeypair)).toBe(true);
    expect(isRotationOperation(`${Operations.OperationRotateRolloutWorkersPrefix}pool-a`)).toBe(true);
    expect(isRotationOperation('reconcile')).toBe(false);
    expect(isRotationOperation('retry')).toBe(false);
    expect(isRotationOperation(undefined)).toBe(false);
  });

  it('finds a rotation among operations joined with ; (as the maintenance writes them)', () => {
    expect(isRotationOperation('reconcile;rotate-ssh-keypair')).toBe(true);
    expect(isRotationOperation(' rotate-observability-credentials ; reconcile')).toBe(true);
    expect(isRotationOperation('reconcile;retry')).toBe(false);
    expect(isRotationOperation(';')).toBe(false);
  });

  it('reads the operation annotation', () => {
    expect(operationAnnotation(shoot(undefined, 'rotate-ca-start'))).toBe('rotate-ca-start');
    expect(operationAnnotation(shoot())).toBeUndefined();
  });
});

describe('rotationStartStatus / rotationSuccessStatus', () => {
  it('records a CA rotation start and its Prepared phase on success', () => {
    const s0 = shoot(undefined, Operations.OperationRotateCAStart);
    const start = rotationStartStatus(s0, Operations.OperationRotateCAStart, T1);
    expect(start).toEqual({
      credentials: {
        rotation: { certificateAuthorities: { phase: 'Preparing', lastInitiationTime: '2026-01-01T11:00:00Z' } },
      },
    });
    const s1 = patched(s0, start);
    const success = rotationSuccessStatus(s1, Operations.OperationRotateCAStart, T2);
    expect(success).toEqual({
      credentials: {
        rotation: { certificateAuthorities: { phase: 'Prepared', lastInitiationFinishedTime: '2026-01-01T12:00:00Z' } },
      },
    });
    expect(patched(s1, success).status?.credentials?.rotation?.certificateAuthorities).toEqual({
      phase: 'Prepared',
      lastInitiationTime: '2026-01-01T11:00:00Z',
      lastInitiationFinishedTime: '2026-01-01T12:00:00Z',
    });
  });

  it('removes the fields a completed rotation drops (null in the merge patch)', () => {
    const prepared = shoot({
      certificateAuthorities: { phase: 'Prepared', lastInitiationTime: T0, lastInitiationFinishedTime: T0 },
    });
    const s1 = patched(prepared, rotationStartStatus(prepared, Operations.OperationRotateCAComplete, T1));
    expect(s1.status?.credentials?.rotation?.certificateAuthorities).toMatchObject({
      phase: 'Completing',
      lastCompletionTriggeredTime: '2026-01-01T11:00:00Z',
    });
    const success = rotationSuccessStatus(s1, Operations.OperationRotateCAComplete, T2);
    expect(success.credentials?.rotation).toEqual({
      certificateAuthorities: {
        phase: 'Completed',
        lastCompletionTime: '2026-01-01T12:00:00Z',
        lastInitiationFinishedTime: null,
        lastCompletionTriggeredTime: null,
      },
    });
    expect(patched(s1, success).status?.credentials?.rotation?.certificateAuthorities).toEqual({
      phase: 'Completed',
      lastInitiationTime: T0,
      lastCompletionTime: '2026-01-01T12:00:00Z',
    });
  });

  it('is empty when the rotation status does not change', () => {
    expect(rotationStartStatus(shoot(), 'reconcile', T1)).toEqual({});
    expect(rotationSuccessStatus(shoot(), undefined, T1)).toEqual({});
    const completed = shoot({ certificateAuthorities: { phase: 'Completed', lastInitiationTime: T0 } });
    expect(rotationStartStatus(completed, undefined, T1)).toEqual({});
    expect(rotationSuccessStatus(completed, undefined, T1)).toEqual({});
  });
});

describe('mergePatchFor', () => {
  // JSON without nulls (a merge patch cannot set null) and with plain keys.
  const key = fc.constantFrom('a', 'b', 'c', 'phase', 'time');
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.array(tie('leaf'), { maxLength: 3 }),
      fc.dictionary(key, tie('value'), { maxKeys: 4 }),
    ),
    leaf: fc.oneof(fc.string(), fc.integer()),
  }));
  const object = fc.dictionary(key, value, { maxKeys: 5 });

  it('turns one object into another, and is undefined for equal ones', () => {
    fc.assert(
      fc.property(object, object, (from, to) => {
        const patch = mergePatchFor(from, to);
        expect(applyMergePatch(structuredClone(from), patch ?? {})).toEqual(to);
        expect(mergePatchFor(to, structuredClone(to))).toBeUndefined();
      }),
    );
  });
});

describe('rotationCompletionPending / completingAfterSuccess', () => {
  it('a single-operation ETCD encryption key rotation is left Completing by its first flow', () => {
    const s0 = shoot(undefined, Operations.OperationRotateETCDEncryptionKey);
    const s1 = patched(s0, rotationStartStatus(s0, Operations.OperationRotateETCDEncryptionKey, T1));
    expect(rotationCompletionPending(s1)).toBe(false);
    expect(completingAfterSuccess(s1, Operations.OperationRotateETCDEncryptionKey, T2)).toBe(true);
    const s2 = patched(s1, rotationSuccessStatus(s1, Operations.OperationRotateETCDEncryptionKey, T2));
    expect(rotationCompletionPending(s2)).toBe(true);
    // The next flow completes it.
    expect(completingAfterSuccess(s2, undefined, T2)).toBe(false);
    const s3 = patched(s2, rotationSuccessStatus(s2, undefined, T2));
    expect(s3.status?.credentials?.rotation?.etcdEncryptionKey?.phase).toBe('Completed');
    expect(rotationCompletionPending(s3)).toBe(false);
  });

  it('a two-step rotation is never left Completing by a successful flow', () => {
    const s0 = shoot({ certificateAuthorities: { phase: 'Prepared', lastInitiationTime: T0 } });
    const s1 = patched(s0, rotationStartStatus(s0, Operations.OperationRotateCAComplete, T1));
    expect(rotationCompletionPending(s1)).toBe(true);
    expect(completingAfterSuccess(s1, Operations.OperationRotateCAComplete, T2)).toBe(false);
  });
});
