// The Shoot status the controller writes around a flow: the start claims the shoot for the seed, success names the
// skipped tasks, an error lists the failed tasks and becomes Failed once the retry cycle has passed.
import { describe, expect, it } from 'vitest';
import { exampleShoot } from '../component/testdata/fixtures.js';
import type { Shoot } from './kinds.js';
import {
  DefaultRetryDurationMs,
  operationErrorStatus,
  operationStartStatus,
  operationSucceededStatus,
  successDescription,
} from './status.js';

const gardener = { id: 'abc', name: 'gardenlet-0', version: 'v1.0.0' };
const now = new Date('2026-11-25T10:00:00.123Z');
const shoot = (mutate?: (s: Shoot) => void) =>
  exampleShoot((s) => {
    s.metadata = { ...s.metadata, uid: 'uid-1', generation: 3 };
    mutate?.(s as Shoot);
  }) as Shoot;

describe('operationStartStatus', () => {
  it('claims a new shoot for its seed and starts the operation at 0 %', () => {
    const status = operationStartStatus(
      shoot((s) => (s.spec.seedName = 'local')),
      'Create',
      'shoot--local--local',
      gardener,
      now,
    );
    expect(status).toMatchObject({
      gardener,
      technicalID: 'shoot--local--local',
      uid: 'uid-1',
      observedGeneration: 3,
      seedName: 'local',
      retryCycleStartTime: '2026-11-25T10:00:00Z',
      lastOperation: { type: 'Create', state: 'Processing', progress: 0, lastUpdateTime: '2026-11-25T10:00:00Z' },
    });
  });

  it('continues a retried operation from its progress and keeps the retry cycle', () => {
    const status = operationStartStatus(
      shoot((s) => {
        s.status = {
          retryCycleStartTime: '2026-11-25T09:00:00Z',
          lastOperation: { type: 'Create', state: 'Error', progress: 42, description: 'x', lastUpdateTime: '' },
        } as Shoot['status'];
      }),
      'Create',
      'shoot--local--local',
      gardener,
      now,
    );
    expect(status.lastOperation).toMatchObject({ progress: 42 });
    expect(status).not.toHaveProperty('retryCycleStartTime');
  });

  it('does not move the shoot to another seed while deleting', () => {
    expect(operationStartStatus(shoot(), 'Delete', 'ns', gardener, now)).not.toHaveProperty('seedName');
  });
});

describe('successDescription', () => {
  it("is Gardener's sentence, then the skipped tasks grouped by reason", () => {
    expect(successDescription('Reconcile', [])).toBe('Shoot cluster has been successfully reconciled.');
    expect(
      successDescription('Create', [
        { task: 'Deploying vpn-seed-server', reason: 'VPN: not needed' },
        { task: 'Deploying Kubernetes scheduler', reason: 'not implemented in the local flow yet' },
        { task: 'Deploying vpn-shoot', reason: 'VPN: not needed' },
      ]),
    ).toBe(
      'Shoot cluster has been successfully reconciled. 3 tasks skipped — VPN: not needed: Deploying vpn-seed-server, ' +
        'Deploying vpn-shoot; not implemented in the local flow yet: Deploying Kubernetes scheduler',
    );
  });

  it('is written with 100 % and clears the errors and the retry cycle', () => {
    expect(operationSucceededStatus('Delete', [], now)).toEqual({
      lastOperation: {
        type: 'Delete',
        state: 'Succeeded',
        progress: 100,
        description: 'Shoot cluster has been successfully deleted.',
        lastUpdateTime: '2026-11-25T10:00:00Z',
      },
      lastErrors: null,
      retryCycleStartTime: null,
    });
  });
});

describe('operationErrorStatus', () => {
  const failed = [
    { taskID: 'Waiting until main and event etcd report readiness', description: 'etcd is not ready', codes: [] },
  ];

  it('keeps the progress, lists the failed tasks and says the operation will be retried', () => {
    const status = operationErrorStatus(
      shoot((s) => (s.status = { retryCycleStartTime: '2026-11-25T09:00:00Z' } as Shoot['status'])),
      'Create',
      [...failed, { taskID: 'b', description: 'infra unauthorized', codes: ['ERR_INFRA_UNAUTHORIZED'] }],
      37,
      now,
    );
    expect(status.lastOperation).toMatchObject({
      type: 'Create',
      state: 'Error',
      progress: 37,
      description: 'etcd is not ready, infra unauthorized. Operation will be retried.',
    });
    expect(status.lastErrors).toEqual([
      { taskID: failed[0].taskID, description: 'etcd is not ready', lastUpdateTime: '2026-11-25T10:00:00Z' },
      {
        taskID: 'b',
        description: 'infra unauthorized',
        codes: ['ERR_INFRA_UNAUTHORIZED'],
        lastUpdateTime: '2026-11-25T10:00:00Z',
      },
    ]);
  });

  it('is Failed once the retry cycle has passed', () => {
    const started = new Date(now.getTime() - DefaultRetryDurationMs).toISOString();
    const status = operationErrorStatus(
      shoot((s) => (s.status = { retryCycleStartTime: started } as Shoot['status'])),
      'Reconcile',
      failed,
      10,
      now,
    );
    expect(status.lastOperation).toMatchObject({ state: 'Failed', description: 'etcd is not ready' });
  });
});
