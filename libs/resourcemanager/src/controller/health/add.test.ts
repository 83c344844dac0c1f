import { describe, expect, it } from 'vitest';
import type { ManagedResource } from '../../status.js';
import { healthPredicate } from './add.js';

const mr = (status: ManagedResource['status'] = {}, annotations?: Record<string, string>): ManagedResource => ({
  metadata: { name: 'mr', namespace: 'garden', ...(annotations ? { annotations } : {}) },
  spec: { secretRefs: [] },
  status,
});
const applied = (status: string) => ({
  type: 'ResourcesApplied',
  status,
  lastTransitionTime: 't',
  lastUpdateTime: 't',
  reason: 'r',
  message: 'm',
});

describe('healthPredicate', () => {
  const p = healthPredicate((ns) => ns === 'garden');

  it('passes creates in watched namespaces only', () => {
    expect(p({ type: 'create', object: mr() })).toBe(true);
    expect(p({ type: 'create', object: { ...mr(), metadata: { name: 'mr', namespace: 'other' } } })).toBe(false);
  });

  it('passes updates of the applied objects, the ResourcesApplied status and the ignore annotation — not its own writes', () => {
    const old = mr({
      resources: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'a' }],
      conditions: [applied('True') as never],
    });
    expect(
      p({
        type: 'update',
        oldObject: old,
        object: {
          ...old,
          status: {
            ...old.status,
            conditions: [applied('True') as never, { ...applied('True'), type: 'ResourcesHealthy' } as never],
          },
        },
      }),
    ).toBe(false);
    expect(p({ type: 'update', oldObject: old, object: { ...old, status: { ...old.status, resources: [] } } })).toBe(
      true,
    );
    expect(
      p({
        type: 'update',
        oldObject: old,
        object: { ...old, status: { ...old.status, conditions: [applied('False') as never] } },
      }),
    ).toBe(true);
    expect(
      p({
        type: 'update',
        oldObject: old,
        object: { ...old, metadata: { ...old.metadata, annotations: { 'resources.gardener.cloud/ignore': 'true' } } },
      }),
    ).toBe(true);
  });
});
