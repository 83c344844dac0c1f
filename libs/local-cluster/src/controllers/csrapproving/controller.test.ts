import { createLogger } from '@gardener-ts/logging';
import { describe, expect, it } from 'vitest';
import { kubeletClientRequest, newKeyPair } from '../../kubelet/server/serving-cert.js';
import { CSRApprovingReconciler, type ApproverApi } from './controller.js';
import type { CertificateSigningRequest } from './rules.js';

const ctx = { log: createLogger({ name: 'test', level: 'silent' }) } as never;

/** An API with one CSR and an authorizer that allows the given subresources. */
function fakeApi(csr: CertificateSigningRequest | undefined, allowed: string[], approveSucceeds = true) {
  const asked: string[] = [];
  const approvals: Record<string, string>[] = [];
  const api: ApproverApi = {
    get: async () => csr,
    allowed: async (_, subresource) => {
      asked.push(subresource);
      return allowed.includes(subresource);
    },
    approve: async (_, condition) => {
      approvals.push(condition);
      return approveSucceeds;
    },
  };
  return { api, asked, approvals };
}

async function bootstrapCSR(username = 'system:bootstrap:a1b2c3'): Promise<CertificateSigningRequest> {
  return {
    metadata: { name: 'node-csr-1', resourceVersion: '7' },
    spec: {
      request: Buffer.from(await kubeletClientRequest((await newKeyPair()).keys, 'machine-0')).toString('base64'),
      signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
      usages: ['digital signature', 'client auth'],
      username,
      groups: ['system:bootstrappers', 'system:authenticated'],
    },
  };
}

const now = () => Date.parse('2026-01-02T03:04:05.678Z');

describe('CSRApprovingReconciler', () => {
  it('approves a bootstrap request once the SubjectAccessReview for nodeclient allows it', async () => {
    const { api, asked, approvals } = fakeApi(await bootstrapCSR(), ['nodeclient']);
    await new CSRApprovingReconciler(api, now).reconcile({ name: 'node-csr-1' } as never, ctx);
    expect(asked).toEqual(['nodeclient']);
    expect(approvals).toEqual([
      {
        type: 'Approved',
        status: 'True',
        reason: 'AutoApproved',
        message: 'Auto approving kubelet client certificate after SubjectAccessReview.',
        lastUpdateTime: '2026-01-02T03:04:05Z',
        lastTransitionTime: '2026-01-02T03:04:05Z',
      },
    ]);
  });

  it('approves a renewal by the node itself with selfnodeclient', async () => {
    const { api, asked, approvals } = fakeApi(await bootstrapCSR('system:node:machine-0'), ['selfnodeclient']);
    await new CSRApprovingReconciler(api, now).reconcile({ name: 'node-csr-1' } as never, ctx);
    expect(asked).toEqual(['selfnodeclient']);
    expect(approvals[0]?.message).toBe('Auto approving self kubelet client certificate after SubjectAccessReview.');
  });

  it('retries (throws) a recognized request nobody may approve, and never denies it', async () => {
    const { api, asked, approvals } = fakeApi(await bootstrapCSR(), []);
    await expect(new CSRApprovingReconciler(api, now).reconcile({ name: 'node-csr-1' } as never, ctx)).rejects.toThrow(
      /recognized CSR node-csr-1 as nodeclient but no SubjectAccessReview allowed "system:bootstrap:a1b2c3"/,
    );
    expect(asked).toEqual(['nodeclient']);
    expect(approvals).toEqual([]);
  });

  it('requeues when the CSR changed under it, and ignores what it does not recognize or is gone', async () => {
    const changed = fakeApi(await bootstrapCSR(), ['nodeclient'], false);
    expect(await new CSRApprovingReconciler(changed.api, now).reconcile({ name: 'node-csr-1' } as never, ctx)).toEqual({
      requeue: true,
    });
    const other = await bootstrapCSR();
    other.spec!.signerName = 'kubernetes.io/kube-apiserver-client';
    for (const csr of [other, undefined, { ...other, spec: { ...other.spec!, request: 'bm90IGEgcmVxdWVzdA==' } }]) {
      const fake = fakeApi(csr, ['nodeclient']);
      await new CSRApprovingReconciler(fake.api, now).reconcile({ name: 'x' } as never, ctx);
      expect(fake.asked).toEqual([]);
    }
  });
});
