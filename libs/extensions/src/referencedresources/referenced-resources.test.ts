import { describe, expect, it } from 'vitest';
import { ApiError, type ConfigMap, type Secret } from '@gardener-ts/controller-runtime';
import type { Shoot } from '@gardener-ts/api';
import { getReferencedObject, referencedObjectCopies } from './referenced-resources.js';

// A Shoot referencing a DNS provider secret and a config map, as users write spec.resources.
const shoot = {
  metadata: { name: 'demo', namespace: 'garden-dev' },
  spec: {
    resources: [
      { name: 'dns-credentials', resourceRef: { apiVersion: 'v1', kind: 'Secret', name: 'route53' } },
      { name: 'audit', resourceRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'audit-policy' } },
    ],
  },
} as unknown as Shoot;

describe('referenced resources', () => {
  it('copies only referenced objects, named ref-<name>, without their metadata', () => {
    const sources: (Secret | ConfigMap)[] = [
      {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        metadata: { name: 'route53', namespace: 'garden-dev', uid: 'u1', labels: { a: 'b' } },
        data: { key: 'c2VjcmV0' },
      },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'audit-policy', namespace: 'garden-dev' },
        data: { 'policy.yaml': 'rules: []' },
      },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'unrelated', namespace: 'garden-dev' }, data: {} },
    ];
    expect(referencedObjectCopies(shoot, sources, 'shoot--dev--demo')).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        metadata: { name: 'ref-route53', namespace: 'shoot--dev--demo' },
        data: { key: 'c2VjcmV0' },
      },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'ref-audit-policy', namespace: 'shoot--dev--demo' },
        data: { 'policy.yaml': 'rules: []' },
      },
    ]);
  });

  it('reads the copy by the name the Shoot gives the reference, and says what is missing', async () => {
    const reads: string[] = [];
    const reader = {
      get: async (kind: { kind: string }, key: { namespace?: string; name: string }) => {
        reads.push(`${kind.kind} ${key.namespace}/${key.name}`);
        if (key.name === 'ref-route53')
          return { kind: 'Secret', metadata: { name: key.name }, data: { key: 'c2VjcmV0' } };
        throw new ApiError(404, 'NotFound', 'not found');
      },
    };
    const secret = await getReferencedObject(reader as never, 'shoot--dev--demo', shoot, 'dns-credentials');
    expect(secret.data).toEqual({ key: 'c2VjcmV0' });
    expect(reads).toEqual(['Secret shoot--dev--demo/ref-route53']);
    await expect(getReferencedObject(reader as never, 'shoot--dev--demo', shoot, 'audit')).rejects.toThrow(
      'has not been copied',
    );
    await expect(getReferencedObject(reader as never, 'shoot--dev--demo', shoot, 'nope')).rejects.toThrow(
      'no spec.resources entry named "nope"',
    );
  });
});
