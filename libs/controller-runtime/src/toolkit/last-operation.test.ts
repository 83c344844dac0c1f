import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@gardener-ts/api';
import { CodedError } from './errors.js';
import { buildLastError, buildLastOperation, lastOperationStatus, updateLastOperation } from './last-operation.js';
import { FakeClient } from './testing/fake-client.js';

const now = new Date('2026-11-25T01:02:03.456Z');
const worker = () => ({
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'Worker',
  metadata: { name: 'w', namespace: 'shoot--dev--a', generation: 4 },
  spec: { type: 'local' },
  status: {
    observedGeneration: 3,
    lastError: { description: 'old', lastUpdateTime: '2026-11-24T00:00:00Z' },
    providerStatus: { kept: true },
  },
});

describe('builders', () => {
  it('stamp RFC 3339 times and clamp progress', () => {
    expect(buildLastOperation('Reconcile', 'Processing', 140, 'working', now)).toEqual({
      type: 'Reconcile',
      state: 'Processing',
      progress: 100,
      description: 'working',
      lastUpdateTime: '2026-11-25T01:02:03Z',
    });
    expect(buildLastError('failed', [], undefined, now)).toEqual({
      description: 'failed',
      lastUpdateTime: '2026-11-25T01:02:03Z',
    });
    expect(buildLastError('failed', ['ERR_X'], 'task', now)).toEqual({
      description: 'failed',
      taskID: 'task',
      codes: ['ERR_X'],
      lastUpdateTime: '2026-11-25T01:02:03Z',
    });
  });
});

describe('lastOperationStatus', () => {
  it('on success: progress 100, lastError cleared, observedGeneration set', () => {
    expect(
      lastOperationStatus(worker(), { type: 'Reconcile', state: 'Succeeded', description: 'Worker reconciled' }, now),
    ).toEqual({
      lastOperation: {
        type: 'Reconcile',
        state: 'Succeeded',
        progress: 100,
        description: 'Worker reconciled',
        lastUpdateTime: '2026-11-25T01:02:03Z',
      },
      lastError: null,
      observedGeneration: 4,
    });
  });

  it('on processing: leaves lastError and observedGeneration alone', () => {
    expect(
      lastOperationStatus(
        worker(),
        { type: 'Reconcile', state: 'Processing', description: 'Reconciling the Worker' },
        now,
      ),
    ).toEqual({
      lastOperation: {
        type: 'Reconcile',
        state: 'Processing',
        progress: 1,
        description: 'Reconciling the Worker',
        lastUpdateTime: '2026-11-25T01:02:03Z',
      },
    });
  });

  it('on error: lastError with the message and the codes of the chain and of the message', () => {
    const error = new Error('failed to reconcile: Throttling: rate exceeded', {
      cause: new CodedError('bad', [ErrorCode.ConfigurationProblem]),
    });
    const status = lastOperationStatus(
      worker(),
      { type: 'Reconcile', state: 'Error', description: 'Error reconciling Worker', error, taskID: 'deploy' },
      now,
    );
    expect(status.lastOperation).toMatchObject({ state: 'Error', progress: 50 });
    expect(status.lastError).toEqual({
      description: 'failed to reconcile: Throttling: rate exceeded',
      taskID: 'deploy',
      codes: [ErrorCode.ConfigurationProblem, ErrorCode.InfraRateLimitsExceeded],
      lastUpdateTime: '2026-11-25T01:02:03Z',
    });
    expect(status).not.toHaveProperty('observedGeneration');
  });
});

describe('updateLastOperation', () => {
  it('merge-patches the status subresource and keeps other status fields', async () => {
    const client = new FakeClient();
    const w = client.put(worker());
    await updateLastOperation(client, w, { type: 'Reconcile', state: 'Succeeded', description: 'done' }, now);
    expect(client.patches[0].opts).toEqual({ subresource: 'status' });
    const stored = client.stored<ReturnType<typeof worker>>(w)!;
    expect(stored.status).toEqual({
      observedGeneration: 4,
      providerStatus: { kept: true },
      lastOperation: {
        type: 'Reconcile',
        state: 'Succeeded',
        progress: 100,
        description: 'done',
        lastUpdateTime: '2026-11-25T01:02:03Z',
      },
    });
  });
});

describe('conditions with the last operation', () => {
  const condition = (type: string, status: 'True' | 'False', reason: string) => ({
    type,
    status,
    reason,
    message: `${type} is ${status}`,
    lastTransitionTime: '2026-11-25T01:02:03Z',
    lastUpdateTime: '2026-11-25T01:02:03Z',
  });

  it('writes the conditions, lastOperation and lastError in one patch, keeping conditions of other types', async () => {
    const client = new FakeClient();
    const w = client.put({
      ...worker(),
      status: {
        ...worker().status,
        conditions: [condition('Healthy', 'True', 'Fine'), condition('Other', 'True', 'Untouched')],
      },
    });
    await updateLastOperation(
      client,
      w,
      {
        type: 'Reconcile',
        state: 'Error',
        description: 'Error reconciling Worker',
        error: new CodedError('quota exceeded', [ErrorCode.InfraQuotaExceeded]),
        conditions: [condition('Healthy', 'False', 'QuotaExceeded'), condition('New', 'True', 'Added')],
      },
      now,
    );
    expect(client.patches).toHaveLength(1);
    const stored = client.stored<ReturnType<typeof worker> & { status: { conditions: { type: string }[] } }>(w)!;
    expect(stored.status.conditions).toEqual([
      condition('Healthy', 'False', 'QuotaExceeded'),
      condition('Other', 'True', 'Untouched'),
      condition('New', 'True', 'Added'),
    ]);
    expect(stored.status).toMatchObject({
      lastOperation: { state: 'Error', description: 'Error reconciling Worker' },
      lastError: { description: 'quota exceeded', codes: [ErrorCode.InfraQuotaExceeded] },
    });
  });

  it('leaves status.conditions out of the patch when none are given', () => {
    expect(
      lastOperationStatus(worker(), { type: 'Reconcile', state: 'Processing', description: 'x' }, now),
    ).not.toHaveProperty('conditions');
  });
});
