// The etcd controller's trigger: Etcd events except status-only updates (the controller's own writes).
import { describe, expect, it } from 'vitest';
import { etcdChanged } from './add.js';
import type { EtcdResource } from './kinds.js';

const etcd = (
  generation: number,
  annotations?: Record<string, string>,
  extra: Partial<EtcdResource['metadata']> = {},
): EtcdResource => ({
  apiVersion: 'druid.gardener.cloud/v1alpha1',
  kind: 'Etcd',
  metadata: { name: 'etcd-main', namespace: 'shoot--local--local', generation, annotations, ...extra },
  spec: { replicas: 1, labels: {}, etcd: {}, backup: {} },
});

describe('etcdChanged', () => {
  it('passes creations, deletions, spec and annotation changes and the start of a deletion', () => {
    expect(etcdChanged({ type: 'create', object: etcd(1) })).toBe(true);
    expect(etcdChanged({ type: 'delete', object: etcd(1) })).toBe(true);
    expect(etcdChanged({ type: 'update', oldObject: etcd(1), object: etcd(2) })).toBe(true);
    expect(
      etcdChanged({
        type: 'update',
        oldObject: etcd(1),
        object: etcd(1, { 'gardener.cloud/operation': 'reconcile' }),
      }),
    ).toBe(true);
    expect(
      etcdChanged({
        type: 'update',
        oldObject: etcd(1),
        object: etcd(1, undefined, { deletionTimestamp: '2026-01-01T00:00:00Z' }),
      }),
    ).toBe(true);
  });

  it('drops updates of the status only', () => {
    const withStatus = { ...etcd(1), status: { ready: true } };
    expect(etcdChanged({ type: 'update', oldObject: etcd(1), object: withStatus })).toBe(false);
  });
});
