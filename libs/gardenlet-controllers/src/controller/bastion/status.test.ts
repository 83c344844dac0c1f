// The extension Bastion's verdict and the `BastionReady` condition as Gardener's gardenlet writes them.
import { describe, expect, it } from 'vitest';
import type { CoreBastion, ExtensionBastion } from './kinds.js';
import {
  deletingStatus,
  extensionVerdict,
  failedMessage,
  failedStatus,
  readyConditions,
  succeededStatus,
} from './status.js';

const spec: ExtensionBastion['spec'] = {
  type: 'local',
  userData: Buffer.from('#!/bin/bash').toString('base64'),
  ingress: [{ ipBlock: { cidr: '0.0.0.0/0' } }],
};
const lastOperation = (state: string) => ({
  type: 'Reconcile',
  state,
  progress: state === 'Succeeded' ? 100 : 50,
  description: state,
  lastUpdateTime: '2026-11-29T12:00:00Z',
});
const extension = (status?: ExtensionBastion['status']): ExtensionBastion => ({
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'Bastion',
  metadata: { name: 'b', namespace: 'shoot--p--s' },
  spec: structuredClone(spec),
  ...(status ? { status } : {}),
});
const bastion = (conditions?: NonNullable<CoreBastion['status']>['conditions']): CoreBastion => ({
  metadata: { name: 'b', namespace: 'garden-p', generation: 3 },
  spec: { shootRef: { name: 's' }, seedName: 'local', providerType: 'local', sshPublicKey: 'k', ingress: [] },
  ...(conditions ? { status: { conditions } } : {}),
});
const now = new Date('2026-11-29T12:00:00Z');
const later = new Date('2026-11-29T12:05:00Z');

describe('extensionVerdict', () => {
  it('deploys a missing extension Bastion or one with another spec', () => {
    expect(extensionVerdict(undefined, spec)).toEqual({ deploy: true, succeeded: false });
    const outdated = extension({ lastOperation: lastOperation('Succeeded') });
    outdated.spec.ingress = [{ ipBlock: { cidr: '10.0.0.0/8' } }];
    expect(extensionVerdict(outdated, spec)).toEqual({ deploy: true, succeeded: false });
  });

  it('reports an extension Bastion without a last operation', () => {
    expect(extensionVerdict(extension(), spec)).toEqual({
      deploy: false,
      succeeded: false,
      error: { description: 'extension did not record a last operation yet' },
    });
  });

  it("reports the extension's lastError with its codes, and deploys a Failed one again", () => {
    const failing = extension({
      lastOperation: lastOperation('Error'),
      lastError: { description: 'quota exceeded', codes: ['ERR_INFRA_QUOTA_EXCEEDED'] },
    });
    expect(extensionVerdict(failing, spec)).toEqual({
      deploy: false,
      succeeded: false,
      error: { description: 'error during reconciliation: quota exceeded', codes: ['ERR_INFRA_QUOTA_EXCEEDED'] },
    });
    expect(extensionVerdict(extension({ lastOperation: lastOperation('Failed') }), spec)).toEqual({
      deploy: true,
      succeeded: false,
      error: { description: 'extension state is not Succeeded but Failed' },
    });
  });

  it('waits for a Processing extension Bastion and mirrors a Succeeded one', () => {
    expect(extensionVerdict(extension({ lastOperation: lastOperation('Processing') }), spec)).toEqual({
      deploy: false,
      succeeded: false,
    });
    expect(extensionVerdict(extension({ lastOperation: lastOperation('Succeeded') }), spec)).toEqual({
      deploy: false,
      succeeded: true,
    });
  });
});

describe('the BastionReady condition', () => {
  it('is False FailedReconciling with the extension Bastion and the error in the message', () => {
    const message = failedMessage({ namespace: 'shoot--p--s', name: 'b' }, 'error during reconciliation: boom');
    expect(message).toBe(
      'Error while waiting for Bastion shoot--p--s/b to become ready: error during reconciliation: boom',
    );
    expect(failedStatus(bastion(), message, now)).toEqual({
      conditions: [
        {
          type: 'BastionReady',
          status: 'False',
          reason: 'FailedReconciling',
          message,
          lastTransitionTime: '2026-11-29T12:00:00Z',
          lastUpdateTime: '2026-11-29T12:00:00Z',
        },
      ],
    });
  });

  it('is False DeletionInProgress during the deletion', () => {
    expect(deletingStatus(bastion(), now).conditions).toMatchObject([
      { type: 'BastionReady', status: 'False', reason: 'DeletionInProgress', message: 'The bastion is being deleted.' },
    ]);
  });

  it("is True SuccessfullyReconciled with the extension's ingress and the observed generation", () => {
    const ingress = { ip: '172.18.255.10', hostname: 'bastion.example.com' };
    const status = succeededStatus(bastion(), extension({ lastOperation: lastOperation('Succeeded'), ingress }), now);
    expect(status).toMatchObject({
      conditions: [
        {
          type: 'BastionReady',
          status: 'True',
          reason: 'SuccessfullyReconciled',
          message: 'The bastion has been reconciled successfully.',
        },
      ],
      ingress,
      observedGeneration: 3,
    });
    // Without an ingress in the extension's status, the Bastion's is removed.
    expect(
      succeededStatus(bastion(), extension({ lastOperation: lastOperation('Succeeded') }), now).ingress,
    ).toBeNull();
  });

  it('keeps other conditions and the transition time while the status stays', () => {
    const other = {
      type: 'Other',
      status: 'True' as const,
      reason: 'R',
      message: 'm',
      lastTransitionTime: '2026-11-29T11:00:00Z',
      lastUpdateTime: '2026-11-29T11:00:00Z',
    };
    const first = readyConditions(bastion([other]), 'False', 'FailedReconciling', 'a', now);
    const second = readyConditions(bastion(first), 'False', 'FailedReconciling', 'b', later);
    expect(second.map((c) => c.type)).toEqual(['Other', 'BastionReady']);
    expect(second[1]).toMatchObject({ message: 'b', lastTransitionTime: '2026-11-29T12:00:00Z' });
    const ready = readyConditions(bastion(second), 'True', 'SuccessfullyReconciled', 'ok', later);
    expect(ready[1]).toMatchObject({ status: 'True', lastTransitionTime: '2026-11-29T12:05:00Z' });
  });
});
