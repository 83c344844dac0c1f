// The reconcile flow's credentials rotation tasks over a recording fake: the shoot access Secrets are renewed while a
// ServiceAccount key rotation prepares, encrypted data is rewritten (labelled) while an ETCD encryption key rotation
// prepares — after the connection to the shoot exists — then etcd-main is snapshotted (the seed has backup), and
// unlabelled while it completes; legacy ServiceAccount token Secrets are created once kube-controller-manager is
// ready while a ServiceAccount key rotation prepares and the old ones deleted while it completes; without a rotation
// none of them runs and none is listed as skipped.
import { describe, expect, it } from 'vitest';
import type { Seed, Shoot } from '@gardener-ts/api';
import { exampleSeed, exampleShoot } from '../../component/testdata/fixtures.js';
import { recordingOperation } from '../testing/recording-operation.js';
import { flowConditions } from './conditions.js';
import type { ReconcileOperation } from './operation.js';
import { reconcileFlow } from './reconcile.js';

const rotationSteps = [
  'renewShootAccessSecrets',
  'rewriteEncryptedDataAddLabel',
  'snapshotEtcdAfterRewrite',
  'rewriteEncryptedDataRemoveLabel',
  'waitForKubeControllerManager',
  'createNewServiceAccountSecrets',
  'deleteOldServiceAccountSecrets',
];

async function run(rotation?: object, seedChange: (seed: Seed) => void = () => undefined) {
  const shoot: Shoot = exampleShoot((s) => {
    s.status = { ...(rotation ? { credentials: { rotation } } : {}) } as never;
  });
  const seed = exampleSeed();
  seedChange(seed);
  const { op, recording } = recordingOperation<ReconcileOperation>();
  const { flow, skipped } = reconcileFlow(op, flowConditions(shoot, seed), { retry: false });
  await flow.run({});
  return { ran: recording.finished.filter((s) => rotationSteps.includes(s)), finished: recording.finished, skipped };
}

// The rotation tasks by a distinctive part of their Gardener name.
const rotationTasks = ['ServiceAccount', 'ETCD', 'kube-controller-manager reports readiness'];

describe('reconcile flow with a credentials rotation', () => {
  it('runs no rotation task without a rotation', async () => {
    const { ran, skipped } = await run();
    expect(ran).toEqual([]);
    expect(skipped.filter((s) => rotationTasks.some((t) => s.task.includes(t)))).toEqual([]);
  });

  it('renews the shoot access secrets and creates new ServiceAccount secrets while the key rotation prepares', async () => {
    const { ran, finished } = await run({
      serviceAccountKey: { phase: 'Preparing', lastInitiationTime: '2026-01-01T00:00:00Z' },
    });
    expect(ran).toEqual(['renewShootAccessSecrets', 'waitForKubeControllerManager', 'createNewServiceAccountSecrets']);
    expect(finished.indexOf('deployKubeControllerManager')).toBeLessThan(
      finished.indexOf('waitForKubeControllerManager'),
    );
    expect(finished.indexOf('initializeShootClients')).toBeLessThan(finished.indexOf('createNewServiceAccountSecrets'));
  });

  it('deletes the old ServiceAccount secrets while the key rotation completes', async () => {
    const { ran } = await run({
      serviceAccountKey: {
        phase: 'Completing',
        lastInitiationTime: '2026-01-01T00:00:00Z',
        lastInitiationFinishedTime: '2026-01-01T01:00:00Z',
      },
    });
    expect(ran).toEqual(['deleteOldServiceAccountSecrets']);
  });

  it('rewrites encrypted data after the shoot connection while the ETCD encryption key rotation prepares', async () => {
    const etcdEncryptionKey = { phase: 'Preparing', lastInitiationTime: '2026-01-01T00:00:00Z' };
    const { ran, finished } = await run({ etcdEncryptionKey });
    // The example seed has backup: etcd-main is snapshotted after the rewrite.
    expect(ran).toEqual(['rewriteEncryptedDataAddLabel', 'snapshotEtcdAfterRewrite']);
    expect(finished.indexOf('initializeShootClients')).toBeLessThan(finished.indexOf('rewriteEncryptedDataAddLabel'));
    const withoutBackup = await run({ etcdEncryptionKey }, (seed) => delete seed.spec.backup);
    expect(withoutBackup.ran).toEqual(['rewriteEncryptedDataAddLabel']);
  });

  it('removes the rewrite label while the ETCD encryption key rotation completes', async () => {
    const { ran } = await run({
      etcdEncryptionKey: { phase: 'Completing', lastInitiationTime: '2026-01-01T00:00:00Z' },
    });
    expect(ran).toEqual(['rewriteEncryptedDataRemoveLabel']);
  });
});
