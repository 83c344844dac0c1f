// The reconcile flow's credentials rotation tasks over a recording fake: the shoot access Secrets are renewed while a
// ServiceAccount key rotation prepares, encrypted data is rewritten (labelled) while an ETCD encryption key rotation
// prepares — after the connection to the shoot exists — and unlabelled while it completes; without a rotation none
// of them runs and none is listed as skipped.
import { describe, expect, it } from 'vitest';
import type { Shoot } from '@gardener-ts/api';
import { exampleSeed, exampleShoot } from '../../component/testdata/fixtures.js';
import { recordingOperation } from '../testing/recording-operation.js';
import { flowConditions } from './conditions.js';
import { SkipReasons, type ReconcileOperation } from './operation.js';
import { reconcileFlow } from './reconcile.js';

const rotationSteps = ['renewShootAccessSecrets', 'rewriteEncryptedDataAddLabel', 'rewriteEncryptedDataRemoveLabel'];

async function run(rotation?: object) {
  const shoot: Shoot = exampleShoot((s) => {
    s.status = { ...(rotation ? { credentials: { rotation } } : {}) } as never;
  });
  const { op, recording } = recordingOperation<ReconcileOperation>();
  const { flow, skipped } = reconcileFlow(op, flowConditions(shoot, exampleSeed()), { retry: false });
  await flow.run({});
  return { ran: recording.finished.filter((s) => rotationSteps.includes(s)), finished: recording.finished, skipped };
}

describe('reconcile flow with a credentials rotation', () => {
  it('runs no rotation task without a rotation', async () => {
    const { ran, skipped } = await run();
    expect(ran).toEqual([]);
    expect(skipped.filter((s) => s.reason === SkipReasons.etcdSnapshot)).toEqual([]);
  });

  it('renews the shoot access secrets while the ServiceAccount key rotation prepares', async () => {
    const { ran } = await run({
      serviceAccountKey: { phase: 'Preparing', lastInitiationTime: '2026-01-01T00:00:00Z' },
    });
    expect(ran).toEqual(['renewShootAccessSecrets']);
  });

  it('rewrites encrypted data after the shoot connection while the ETCD encryption key rotation prepares', async () => {
    const { ran, finished, skipped } = await run({
      etcdEncryptionKey: { phase: 'Preparing', lastInitiationTime: '2026-01-01T00:00:00Z' },
    });
    expect(ran).toEqual(['rewriteEncryptedDataAddLabel']);
    expect(finished.indexOf('initializeShootClients')).toBeLessThan(finished.indexOf('rewriteEncryptedDataAddLabel'));
    // The example seed has backup: the snapshot Gardener takes after the rewrite has no local counterpart.
    expect(skipped.map((s) => s.reason)).toContain(SkipReasons.etcdSnapshot);
  });

  it('removes the rewrite label while the ETCD encryption key rotation completes', async () => {
    const { ran } = await run({
      etcdEncryptionKey: { phase: 'Completing', lastInitiationTime: '2026-01-01T00:00:00Z' },
    });
    expect(ran).toEqual(['rewriteEncryptedDataRemoveLabel']);
  });
});
