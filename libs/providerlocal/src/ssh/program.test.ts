import { describe, expect, it } from 'vitest';
import { parseBastionArgs, parseIngress } from './program.js';

describe('parseBastionArgs', () => {
  it("defaults to the Secret's files, port 22 and the Pod's namespace", () => {
    expect(parseBastionArgs([], { POD_NAMESPACE: 'shoot--local--local' })).toEqual({
      userDataFile: '/etc/bastion/userdata',
      ingressFile: '/etc/bastion/ingress',
      port: 22,
      targetPorts: [22],
      namespace: 'shoot--local--local',
    });
  });

  it('reads its flags and refuses bad ports and a missing namespace', () => {
    expect(
      parseBastionArgs(
        ['--port=2222', '--target-port=22', '--target-port', '2022', '--namespace=ns', '--host-key-file=/k'],
        {},
      ),
    ).toMatchObject({ port: 2222, targetPorts: [22, 2022], namespace: 'ns', hostKeyFile: '/k' });
    expect(() => parseBastionArgs(['--port=70000', '--namespace=ns'], {})).toThrow(/not a port/);
    expect(() => parseBastionArgs([], {})).toThrow(/namespace/);
    expect(() => parseBastionArgs(['--shell'], { POD_NAMESPACE: 'ns' })).toThrow();
  });
});

describe('parseIngress', () => {
  it("reads a Bastion's spec.ingress, skipping entries without a CIDR", () => {
    expect(
      parseIngress(JSON.stringify([{ ipBlock: { cidr: '1.2.3.4/32', except: ['x', 3] } }, { ipBlock: {} }, null])),
    ).toEqual([{ ipBlock: { cidr: '1.2.3.4/32', except: ['x'] } }]);
    expect(() => parseIngress('{}')).toThrow(/JSON list/);
  });
});
