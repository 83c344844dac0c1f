import { describe, expect, it } from 'vitest';
import { LocalExtShootType, localExtShootActuator, localExtShootObjects } from './actuator.js';

describe('local-ext-shoot', () => {
  it('puts a ServiceAccount local-ext-shoot into the shoot kube-system, without a token mounted', () => {
    expect(localExtShootObjects()).toEqual([
      expect.objectContaining({
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: expect.objectContaining({ name: 'local-ext-shoot', namespace: 'kube-system' }),
        automountServiceAccountToken: false,
      }),
    ]);
    expect(LocalExtShootType).toBe('local-ext-shoot');
    expect(localExtShootActuator()).toBeDefined();
  });
});
