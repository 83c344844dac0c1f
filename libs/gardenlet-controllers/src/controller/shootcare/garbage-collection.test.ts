import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { isStaleReason, stalePods } from './garbage-collection.js';

const NOW = new Date('2026-01-01T01:00:00Z');
const pod = (name: string, reason?: string, deletionTimestamp?: string): V1Pod =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'shoot--local--local', ...(deletionTimestamp ? { deletionTimestamp } : {}) },
    status: { phase: reason ? 'Failed' : 'Running', ...(reason ? { reason } : {}) },
  }) as unknown as V1Pod;

describe('shoot care garbage collection', () => {
  it('knows the reasons of stale pods', () => {
    expect(['Evicted', 'OutOfcpu', 'OutOfmemory', 'NodeAffinity', 'NodeLost'].every(isStaleReason)).toBe(true);
    expect(['', undefined, 'Shutdown', 'UnexpectedAdmissionError'].some(isStaleReason)).toBe(false);
  });

  it('deletes evicted pods and force-deletes pods terminating for more than 5 minutes', () => {
    const pods = [
      pod('kube-apiserver-evicted', 'Evicted'),
      pod('etcd-main-0'),
      pod('kube-scheduler-stuck', undefined, '2026-01-01T00:54:59Z'),
      pod('kube-scheduler-terminating', undefined, '2026-01-01T00:56:00Z'),
    ];
    expect(stalePods(pods, NOW)).toEqual([
      { namespace: 'shoot--local--local', name: 'kube-apiserver-evicted', force: false },
      { namespace: 'shoot--local--local', name: 'kube-scheduler-stuck', force: true },
    ]);
  });
});
