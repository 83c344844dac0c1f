import { describe, expect, it } from 'vitest';
import { resolveTarget, unprivilegedPort, type MachineAddresses } from './targets.js';

const machines: MachineAddresses[] = [
  { names: ['machine-shoot--local--local-local-abc12-x1', 'machine-a'], addresses: ['127.42.0.7'] },
  { names: ['machine-b'], addresses: ['127.42.0.8', 'fd00::8'] },
];

describe('resolveTarget', () => {
  it("resolves a machine's address, Pod/Node name or hostname to its address on the SSH port", () => {
    expect(resolveTarget(machines, '127.42.0.7', 22)).toEqual({ host: '127.42.0.7', port: 22, fallbackPort: 2222 });
    expect(resolveTarget(machines, '::ffff:127.42.0.8', 22)).toEqual({
      host: '127.42.0.8',
      port: 22,
      fallbackPort: 2222,
    });
    expect(resolveTarget(machines, '[fd00::8]', 22)).toEqual({ host: 'fd00::8', port: 22, fallbackPort: 2222 });
    expect(resolveTarget(machines, 'MACHINE-A', 22)).toEqual({ host: '127.42.0.7', port: 22, fallbackPort: 2222 });
    expect(resolveTarget(machines, 'machine-b.shoot--local--local.', 22)).toEqual({
      host: '127.42.0.8',
      port: 22,
      fallbackPort: 2222,
    });
  });

  it('refuses other addresses, names and ports', () => {
    expect(resolveTarget(machines, '127.42.0.9', 22)).toBeUndefined();
    expect(resolveTarget(machines, 'etcd-main-0', 22)).toBeUndefined();
    expect(resolveTarget(machines, '127.42.0.7', 2379)).toBeUndefined();
    expect(resolveTarget(machines, '127.42.0.7', 2379, [22, 2379])).toEqual({ host: '127.42.0.7', port: 2379 });
    expect(resolveTarget([], '127.42.0.7', 22)).toBeUndefined();
  });

  it('names the unprivileged port a machine without root serves a privileged port on', () => {
    expect(unprivilegedPort(22)).toBe(2222);
    expect(unprivilegedPort(1023)).toBe(3223);
    expect(unprivilegedPort(1024)).toBeUndefined();
    expect(unprivilegedPort(0)).toBeUndefined();
    expect(resolveTarget(machines, '127.42.0.7', 2379, [2379])).not.toHaveProperty('fallbackPort');
  });
});
