import { describe, expect, it } from 'vitest';
import { createLogger } from '@gardener-ts/logging';
import type { Client, NodeObject } from '@gardener-ts/controller-runtime';
import type { UnitManager } from '../../units/runner.js';
import { isOwnNodeAskingForRestart } from './add.js';
import { NodeReconciler, RestartSystemdServicesAnnotation, unitsToRestart } from './reconciler.js';

const log = createLogger({ name: 'test', level: 'fatal' });

describe('unitsToRestart', () => {
  it('reads the comma-separated list as Gardener writes it', () => {
    expect(unitsToRestart('containerd, kubelet.service,,')).toEqual(['containerd.service', 'kubelet.service']);
  });
});

describe('NodeReconciler', () => {
  it('restarts the named units, also after a failing one, and removes the annotation', async () => {
    const node: NodeObject = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'machine-0', annotations: { [RestartSystemdServicesAnnotation]: 'containerd,kubelet' } },
    };
    const restarted: string[] = [];
    const patches: unknown[] = [];
    const units = {
      restart: async (name: string) => {
        restarted.push(name);
        if (name === 'containerd.service') throw new Error('Unit containerd.service not found.');
      },
    } as unknown as UnitManager;
    const client = {
      get: async () => structuredClone(node),
      patch: async (_k: unknown, _key: unknown, patch: unknown) => {
        patches.push(patch);
        return node;
      },
    } as unknown as Pick<Client, 'get' | 'patch'>;
    await new NodeReconciler({ client, units }).reconcile({ namespace: '', name: 'machine-0' }, { log });
    expect(restarted).toEqual(['containerd.service', 'kubelet.service']);
    expect(patches).toEqual([
      { type: 'merge', patch: { metadata: { annotations: { [RestartSystemdServicesAnnotation]: null } } } },
    ]);
  });

  it('reacts only to its own Node carrying the annotation', () => {
    const p = isOwnNodeAskingForRestart('machine-0');
    const with_ = { metadata: { name: 'machine-0', annotations: { [RestartSystemdServicesAnnotation]: 'kubelet' } } };
    expect(p({ type: 'update', oldObject: {}, object: with_ })).toBe(true);
    expect(p({ type: 'update', oldObject: {}, object: { metadata: { name: 'machine-0' } } })).toBe(false);
    expect(p({ type: 'create', object: { ...with_, metadata: { ...with_.metadata, name: 'machine-1' } } })).toBe(false);
  });
});
