import { describe, expect, it } from 'vitest';
import type { Secret } from '@gardener-ts/controller-runtime';
import { gardenSecretPredicate, secretChanged, seedCreated } from './add.js';

const secret = (namespace: string, labels: Record<string, string> = {}, data = 'MQ=='): Secret => ({
  kind: 'Secret',
  metadata: { name: 's', namespace, labels, resourceVersion: '1' },
  data: { k: data },
});

describe('seed secrets wiring', () => {
  it('maps only synced Secrets of the garden namespace', () => {
    const p = gardenSecretPredicate('garden');
    expect(p({ type: 'create', object: secret('garden', { 'gardener.cloud/role': 'alerting' }) })).toBe(true);
    expect(p({ type: 'delete', object: secret('garden', { 'gardener.cloud/role': 'internal-domain' }) })).toBe(true);
    expect(p({ type: 'create', object: secret('garden', { 'gardener.cloud/role': 'kubeconfig' }) })).toBe(false);
    expect(p({ type: 'create', object: secret('garden') })).toBe(false);
    expect(p({ type: 'create', object: secret('seed-local', { 'gardener.cloud/role': 'alerting' }) })).toBe(false);
  });

  it('passes updates only when the Secret changed, and Seeds only when created', () => {
    const a = secret('garden', { 'gardener.cloud/role': 'alerting' });
    expect(secretChanged({ type: 'update', oldObject: a, object: structuredClone(a) })).toBe(false);
    const b = {
      ...secret('garden', { 'gardener.cloud/role': 'alerting' }, 'Mg=='),
      metadata: { ...a.metadata, resourceVersion: '2' },
    };
    expect(secretChanged({ type: 'update', oldObject: a, object: b })).toBe(true);
    expect(secretChanged({ type: 'delete', object: a })).toBe(true);
    expect(seedCreated({ type: 'create', object: {} })).toBe(true);
    expect(seedCreated({ type: 'update', oldObject: {}, object: {} })).toBe(false);
  });
});
