// Tests of the operation annotations of Shoot validation (Gardener's validateShootOperation): both annotations, `;`-joined
// operations, the equality and all-credentials/single-credential conflicts, and the maintenance annotation's context
// being ignored in deletion.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as O from '../../constants/operations.js';
import type { Shoot } from '../../core/v1beta1/shoot.js';
import { validateShoot } from './index.js';
import { ShootMaintenanceOperations, splitOperations, validateShootOperations } from './operation.js';

const opPath = 'metadata.annotations[gardener.cloud/operation]';
const maintPath = 'metadata.annotations[maintenance.gardener.cloud/operation]';
type Rotation = NonNullable<NonNullable<NonNullable<Shoot['status']>['credentials']>['rotation']>;

function shoot(annotations: Record<string, string>, o: { rotation?: Rotation; hibernated?: boolean } = {}): Shoot {
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: { name: 'foo', namespace: 'garden-dev', annotations },
    spec: {
      cloudProfile: { kind: 'CloudProfile', name: 'local' },
      credentialsBindingName: 'local',
      kubernetes: { version: '1.33.0' },
      networking: { type: 'calico', nodes: '10.10.0.0/16' },
      region: 'local',
      provider: {
        type: 'local',
        workers: [{ name: 'pool-a', minimum: 1, maximum: 1, machine: { type: 'local' } }],
      },
    },
    status: {
      gardener: { id: 'g', name: 'gardenlet', version: '1' },
      hibernated: o.hibernated ?? false,
      technicalID: 'shoot--dev--foo',
      uid: 'uid',
      lastOperation: { type: 'Reconcile', state: 'Succeeded', progress: 100, description: '', lastUpdateTime: 'x' },
      ...(o.rotation ? { credentials: { rotation: o.rotation } } : {}),
    },
  } as Shoot;
}

const op = (value: string) => ({ 'gardener.cloud/operation': value });
const maint = (value: string) => ({ 'maintenance.gardener.cloud/operation': value });
const messages = (s: Shoot) => validateShootOperations(s).map((e) => e.message);

describe('splitOperations', () => {
  it('splits at ;, trims and drops empty parts', () => {
    expect(splitOperations(' reconcile ; rotate-ssh-keypair;;')).toEqual(['reconcile', 'rotate-ssh-keypair']);
    expect(splitOperations(undefined)).toEqual([]);
    expect(splitOperations('')).toEqual([]);
  });

  it('property: joining operations and splitting them again gives them back', () => {
    const name = fc.stringMatching(/^[a-z][a-z-]{0,20}$/);
    fc.assert(
      fc.property(fc.array(name), (ops) => {
        expect(splitOperations(ops.join(';'))).toEqual(ops);
      }),
    );
  });
});

describe('validateShootOperations', () => {
  it('accepts no annotation, a known operation and a ;-joined list of known operations', () => {
    expect(messages(shoot({}))).toEqual([]);
    expect(messages(shoot(op('reconcile')))).toEqual([]);
    expect(messages(shoot(op('reconcile;rotate-ssh-keypair')))).toEqual([]);
    expect(
      messages(shoot({ ...op('reconcile'), ...maint('rotate-observability-credentials;rotate-ssh-keypair') })),
    ).toEqual([]);
  });

  it('reports each unknown operation of a ;-joined value', () => {
    const errors = validateShootOperations(shoot(op('reconcile;nope;rotate-everything')));
    expect(errors.map((e) => [e.type, e.field, e.badValue])).toEqual([
      ['FieldValueNotSupported', opPath, 'nope'],
      ['FieldValueNotSupported', opPath, 'rotate-everything'],
    ]);
  });

  it('refuses maintain, retry and unknown values in the maintenance annotation', () => {
    for (const value of [O.OperationMaintain, O.OperationRetry, 'nope']) {
      const errors = validateShootOperations(shoot(maint(value)));
      expect(errors.map((e) => [e.type, e.field])).toEqual([['FieldValueNotSupported', maintPath]]);
    }
    expect(validateShootOperations(shoot(maint('rotate-rollout-workers=pool-a'))).map((e) => e.type)).toEqual([
      'FieldValueForbidden',
    ]);
  });

  it('refuses equal annotations', () => {
    expect(messages(shoot({ ...op('reconcile'), ...maint('reconcile') }))).toEqual([
      'metadata.annotations: Forbidden: annotations metadata.annotations[gardener.cloud/operation] and ' +
        'metadata.annotations[maintenance.gardener.cloud/operation] must not be equal',
    ]);
  });

  it('refuses a single-credential start next to a start of all credentials (either way round)', () => {
    const expected = `${opPath}: Forbidden: operation 'rotate-ca-start' is not permitted when maintenance operation is 'rotate-credentials-start'`;
    expect(messages(shoot({ ...op('rotate-ca-start'), ...maint('rotate-credentials-start') }))).toEqual([expected]);
    expect(messages(shoot({ ...op('rotate-credentials-start'), ...maint('reconcile;rotate-ca-start') }))).toEqual([
      `${opPath}: Forbidden: operation 'rotate-credentials-start' is not permitted when maintenance operation is 'rotate-ca-start'`,
    ]);
    // Completions likewise, once everything is Prepared.
    const prepared = { phase: 'Prepared' as const, lastInitiationTime: 'x' };
    const rotation = { certificateAuthorities: prepared, serviceAccountKey: prepared, etcdEncryptionKey: prepared };
    expect(
      messages(shoot({ ...op('rotate-credentials-complete'), ...maint('rotate-ca-complete') }, { rotation })),
    ).toEqual([
      `${opPath}: Forbidden: operation 'rotate-credentials-complete' is not permitted when maintenance operation is 'rotate-ca-complete'`,
    ]);
  });

  it('checks the rotation context of every operation of both annotations', () => {
    const errors = validateShootOperations(
      shoot({ ...op('reconcile;rotate-ca-complete'), ...maint('rotate-ca-complete;reconcile') }),
    );
    expect(errors.map((e) => e.field)).toEqual([opPath, maintPath]);
    expect(errors[1]?.detail).toBe(
      "cannot complete CA rotation if .status.credentials.rotation.certificateAuthorities.phase is not 'Prepared'",
    );
  });

  it('ignores the maintenance annotation context of a shoot in deletion, not its hibernation', () => {
    const deleting = shoot(maint('rotate-ca-complete'));
    deleting.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z';
    expect(messages(deleting)).toEqual([]);
    const hibernated = shoot(maint('rotate-serviceaccount-key-start'), { hibernated: true });
    hibernated.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z';
    expect(validateShootOperations(hibernated).map((e) => e.detail)).toEqual([
      'operation is not permitted when shoot is hibernated or is waking up',
    ]);
  });

  it('is what validateShoot applies to the annotations', () => {
    const s = shoot({ ...op('reconcile;nope'), ...maint('maintain') });
    const fields = validateShoot(s).map((e) => e.field);
    expect(fields).toContain(opPath);
    expect(fields).toContain(maintPath);
  });

  it('property: every maintenance operation alone in the maintenance annotation is supported', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ShootMaintenanceOperations), (value) => {
        const types = validateShootOperations(shoot(maint(value))).map((e) => e.type);
        expect(types).not.toContain('FieldValueNotSupported');
      }),
    );
  });
});
