import { describe, expect, it } from 'vitest';
import { groupExtensionConditions, registrationFor, type ExtensionObject } from './extensions.js';

const worker: ExtensionObject = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'Worker',
  metadata: { name: 'local', namespace: 'shoot--local--local' },
  spec: { type: 'local' },
  status: {
    conditions: [
      { type: 'EveryNodeReady', status: 'False', message: 'machine pending' },
      { type: 'SystemComponentsHealthy', status: 'True' },
      { type: 'Ready', status: 'True' },
    ],
  },
};

describe('extension health conditions', () => {
  it('groups the conditions by the shoot condition they count for, with the heartbeat', () => {
    const grouped = groupExtensionConditions([worker], () => '2026-01-01T00:00:00Z');
    expect(grouped.everyNodeReady).toEqual([
      {
        condition: { type: 'EveryNodeReady', status: 'False', message: 'machine pending' },
        extensionType: 'Worker',
        extensionName: 'local',
        extensionNamespace: 'shoot--local--local',
        lastHeartbeatTime: '2026-01-01T00:00:00Z',
      },
    ]);
    expect(grouped.systemComponentsHealthy).toHaveLength(1);
    expect(grouped.controlPlaneHealthy).toHaveLength(0);
  });

  it('finds the ControllerRegistration serving a kind and type', () => {
    const reg = (name: string, kind: string, type: string) =>
      ({ metadata: { name }, spec: { resources: [{ kind, type }] } }) as never;
    const regs = [reg('networking-calico', 'Network', 'calico'), reg('provider-local', 'Worker', 'local')];
    expect(registrationFor(regs, 'Worker', 'local')).toBe(regs[1]);
    expect(registrationFor(regs, 'Worker', 'aws')).toBeUndefined();
  });
});
