import { Operations, type Shoot } from '@gardener-ts/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SecretNames } from '../../component/secrets.js';
import {
  DefaultCAConfigNames,
  RotatedSecretNames,
  rotationStatusAtStart,
  rotationStatusAtSuccess,
  secretsRotationConfig,
  secretsRotationPhase,
  type ShootCredentialsRotation,
  withRotationOptions,
} from './index.js';
import { exampleValues } from '../../component/testdata/fixtures.js';
import { shootSecretConfigs } from '../../component/secrets.js';

const T0 = '2026-01-01T10:00:00Z';
const T1 = '2026-01-01T11:00:00Z';

function shoot(rotation?: ShootCredentialsRotation): Shoot {
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: { name: 'foo', namespace: 'garden-dev' },
    spec: {
      kubernetes: { version: '1.33.0' },
      region: 'local',
      provider: { type: 'local', workers: [{ name: 'pool-a', minimum: 1, maximum: 1, machine: { type: 'local' } }] },
    },
    status: {
      gardener: { id: 'g', name: 'gardenlet', version: '1' },
      hibernated: false,
      technicalID: 'shoot--dev--foo',
      uid: 'uid',
      ...(rotation ? { credentials: { rotation } } : {}),
    },
  } as unknown as Shoot;
}

function withRotation(s: Shoot, rotation: ShootCredentialsRotation | undefined): Shoot {
  return { ...s, status: { ...s.status!, credentials: rotation ? { rotation } : undefined } } as Shoot;
}

describe('secretsRotationConfig', () => {
  it('without rotations: no rotation times, current secrets, KeepOld without dropping', () => {
    const c = secretsRotationConfig(shoot());
    expect(c.secretNamesToTimes).toEqual({});
    expect(c.phases).toEqual({
      certificateAuthorities: 'current',
      serviceAccountKey: 'current',
      etcdEncryptionKey: 'current',
    });
    expect(c.certificateAuthorities).toEqual({ rotate: 'KeepOld' });
    expect(c.serviceAccountKey).toEqual({ rotate: 'KeepOld' });
    expect(c.etcdEncryptionKey).toEqual({ rotate: 'KeepOld' });
    expect(c.sshKeypair).toEqual({ rotate: 'KeepOld' });
    expect(c.observability).toEqual({ rotate: 'InPlace' });
  });

  it('maps each initiation time onto the secret configs of its credential', () => {
    const c = secretsRotationConfig(
      shoot({
        certificateAuthorities: { phase: 'Preparing', lastInitiationTime: T1 },
        serviceAccountKey: { phase: 'Completed', lastInitiationTime: T0 },
        etcdEncryptionKey: { phase: 'Prepared', lastInitiationTime: T0 },
        sshKeypair: { lastInitiationTime: T0 },
        observability: { lastInitiationTime: T1 },
      }),
    );
    const expected: Record<string, Date> = {};
    for (const name of [...DefaultCAConfigNames, SecretNames.StaticToken]) expected[name] = new Date(T1);
    expected[SecretNames.ServiceAccountKey] = new Date(T0);
    expected[SecretNames.ETCDEncryptionKey] = new Date(T0);
    expected[RotatedSecretNames.SSHKeypair] = new Date(T0);
    expected[RotatedSecretNames.ObservabilityIngressUsers] = new Date(T1);
    expect(c.secretNamesToTimes).toEqual(expected);
    expect(c.phases).toEqual({
      certificateAuthorities: 'keep-old',
      serviceAccountKey: 'current',
      etcdEncryptionKey: 'keep-old',
    });
  });

  it('takes the CA config names of the flow', () => {
    const c = secretsRotationConfig(shoot({ certificateAuthorities: { phase: 'Preparing', lastInitiationTime: T1 } }), [
      'ca',
      'ca-vpn',
    ]);
    expect(Object.keys(c.secretNamesToTimes).sort()).toEqual(['ca', 'ca-vpn', SecretNames.StaticToken].sort());
  });

  it('drops the old secrets of Completing rotations', () => {
    const completing = { phase: 'Completing' as const, lastInitiationTime: T0 };
    const c = secretsRotationConfig(
      shoot({ certificateAuthorities: completing, serviceAccountKey: completing, etcdEncryptionKey: completing }),
    );
    expect(c.certificateAuthorities).toEqual({ rotate: 'KeepOld', ignoreOldSecrets: true });
    expect(c.serviceAccountKey).toEqual({ rotate: 'KeepOld', ignoreOldSecrets: true });
    expect(c.etcdEncryptionKey).toEqual({ rotate: 'KeepOld', ignoreOldSecrets: true });
    expect(c.phases.certificateAuthorities).toBe('drop-old');
  });

  it('a CA rotation: keep-old while preparing and prepared, drop-old while completing, current afterwards', () => {
    const steps: [string | undefined, string][] = [
      [Operations.OperationRotateCAStart, 'keep-old'],
      [undefined, 'keep-old'],
      [Operations.OperationRotateCAComplete, 'drop-old'],
      [undefined, 'current'],
    ];
    let s = shoot();
    let now = Date.parse(T0);
    for (const [operation, expected] of steps) {
      s = withRotation(s, rotationStatusAtStart(s, operation, new Date((now += 60_000))));
      // The flow runs with the status written at its start.
      expect(secretsRotationConfig(s).phases.certificateAuthorities).toBe(expected);
      s = withRotation(s, rotationStatusAtSuccess(s, operation, new Date((now += 60_000))));
    }
  });

  it('the phase mapping keeps old secrets exactly between start and completion', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          'Preparing',
          'PreparingWithoutWorkersRollout',
          'WaitingForWorkersRollout',
          'Prepared',
          'Completing',
          'Completed',
          undefined,
        ),
        (phase) => {
          const p = secretsRotationPhase(phase);
          if (phase === 'Completing') expect(p).toBe('drop-old');
          else if (phase === 'Completed' || phase === undefined) expect(p).toBe('current');
          else expect(p).toBe('keep-old');
        },
      ),
    );
  });
});

describe('withRotationOptions', () => {
  const configs = shootSecretConfigs(exampleValues());
  const optionsOf = (all: ReturnType<typeof withRotationOptions>, name: string) =>
    all.find((c) => c.config.name === name)?.options;

  it('drops the old CAs, service account key and ETCD encryption key of Completing rotations, keeping persist', () => {
    const completing = { phase: 'Completing' as const, lastInitiationTime: T0 };
    const all = withRotationOptions(
      configs,
      secretsRotationConfig(
        shoot({ certificateAuthorities: completing, serviceAccountKey: completing, etcdEncryptionKey: completing }),
      ),
    );
    for (const name of [...DefaultCAConfigNames, SecretNames.ServiceAccountKey, SecretNames.ETCDEncryptionKey]) {
      expect(optionsOf(all, name)).toEqual({ persist: true, rotate: 'KeepOld', ignoreOldSecrets: true });
    }
    // Certificates signed by a CA keep their options (the manager signs them with the current CA once the old goes).
    expect(optionsOf(all, SecretNames.KubeAPIServer)).toEqual({ signedByCA: SecretNames.CACluster });
    expect(all).toHaveLength(configs.length);
  });

  it('keeps the old secrets while a rotation prepares', () => {
    const preparing = { phase: 'Preparing' as const, lastInitiationTime: T0 };
    const all = withRotationOptions(
      configs,
      secretsRotationConfig(shoot({ certificateAuthorities: preparing, serviceAccountKey: preparing })),
    );
    expect(optionsOf(all, SecretNames.CACluster)).toEqual({ persist: true, rotate: 'KeepOld' });
    expect(optionsOf(all, SecretNames.ServiceAccountKey)).toEqual({ persist: true, rotate: 'KeepOld' });
  });
});
