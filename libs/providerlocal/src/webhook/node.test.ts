import { describe, expect, it } from 'vitest';
import type { AdmissionRequest, NodeObject } from '@gardener-ts/controller-runtime';
import { nodeMutator } from './node.js';

const node: NodeObject = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'machine-0' },
  status: {
    capacity: { cpu: '8', memory: '16Gi', pods: '110' },
    allocatable: { cpu: '7800m', memory: '15Gi', pods: '110' },
  },
};
const request = (over: Partial<AdmissionRequest<NodeObject>>): AdmissionRequest<NodeObject> =>
  ({
    uid: '1',
    kind: { group: '', version: 'v1', kind: 'Node' },
    resource: { group: '', version: 'v1', resource: 'nodes' },
    subResource: 'status',
    operation: 'UPDATE',
    object: node,
    ...over,
  }) as AdmissionRequest<NodeObject>;
const ctx = {} as Parameters<typeof nodeMutator>[1];

describe('nodeMutator', () => {
  it('reports 100 CPU and 100Gi of memory on status updates, keeping the other resources', async () => {
    const result = await nodeMutator(request({}), ctx);
    expect(result).toMatchObject({
      allowed: true,
      patched: {
        status: {
          capacity: { cpu: '100', memory: '100Gi', pods: '110' },
          allocatable: { cpu: '100', memory: '100Gi', pods: '110' },
        },
      },
    });
  });

  it('leaves nodes alone that report it already, and other requests', async () => {
    const done = (await nodeMutator(request({}), ctx)) as { patched: NodeObject };
    expect(await nodeMutator(request({ object: done.patched }), ctx)).toEqual({ allowed: true });
    expect(await nodeMutator(request({ subResource: undefined }), ctx)).toEqual({ allowed: true });
    expect(await nodeMutator(request({ operation: 'CREATE' }), ctx)).toEqual({ allowed: true });
  });
});
