// Shoot flow progress as NATS messages: the operation and percentage as lastOperation has them, the task whose
// phase changed, failed tasks with their error and codes; retries are not published.
import { Graph, type ProgressEvent } from '@gardener-ts/flow';
import { describe, expect, it } from 'vitest';
import { progressMessage } from './progress.js';

async function events(fail: boolean): Promise<ProgressEvent[]> {
  const g = new Graph('Shoot cluster reconciliation');
  const a = g.add({ name: 'Deploying Shoot namespace in Seed', fn: async () => undefined });
  g.add({
    name: 'Deploying Shoot infrastructure',
    dependencies: [a],
    fn: async () => {
      if (fail) throw new Error('infrastructure: 401 Unauthorized');
    },
  });
  g.add({ name: 'Deploying vpn-seed-server', skipIf: true, fn: async () => undefined });
  const seen: ProgressEvent[] = [];
  await g
    .compile()
    .run({ reporter: { report: (e) => void seen.push(e) } })
    .catch(() => undefined);
  return seen;
}

describe('progressMessage', () => {
  it('carries each task phase and ends Succeeded at 100 %', async () => {
    const messages = (await events(false)).map((e) => progressMessage('Create', 'Shoot cluster reconciliation', e));
    expect(messages[0]).toMatchObject({
      type: 'LAST_OPERATION_TYPE_CREATE',
      state: 'LAST_OPERATION_STATE_PROCESSING',
      progress: 0,
      flow: 'Shoot cluster reconciliation',
    });
    expect(messages.map((m) => m?.task?.phase).filter(Boolean)).toEqual(
      expect.arrayContaining(['TASK_PHASE_STARTED', 'TASK_PHASE_SUCCEEDED', 'TASK_PHASE_SKIPPED']),
    );
    expect(messages.at(-1)).toMatchObject({ state: 'LAST_OPERATION_STATE_SUCCEEDED', progress: 100 });
  });

  it('names the failed task with its error and Gardener error code', async () => {
    const messages = (await events(true)).map((e) => progressMessage('Reconcile', 'f', e));
    const failed = messages.find((m) => m?.task?.phase === 'TASK_PHASE_FAILED');
    expect(failed?.task).toMatchObject({
      id: 'Deploying Shoot infrastructure',
      error: 'infrastructure: 401 Unauthorized',
      errorCodes: ['ERR_INFRA_UNAUTHORIZED'],
    });
    expect(messages.at(-1)).toMatchObject({ state: 'LAST_OPERATION_STATE_ERROR' });
  });

  it('does not publish retries', () => {
    const stats = {
      flowName: 'f',
      all: 1,
      pending: 0,
      running: ['t'],
      succeeded: 0,
      failed: 0,
      skipped: 0,
      progressPercent: 0,
    };
    expect(
      progressMessage('Create', 'f', {
        type: 'task-retrying',
        taskId: 't',
        error: new Error('x'),
        attempt: 1,
        stats,
      } as never),
    ).toBeUndefined();
  });
});
