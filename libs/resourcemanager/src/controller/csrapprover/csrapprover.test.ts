import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { canonicalIP, parseCertificateRequest } from './certificate-request.js';
import {
  approvalCondition,
  decideKubeletServing,
  decideNodeAgentClient,
  isFinal,
  type ApprovalLookups,
  type NodeAddresses,
  type NodeAgentLookups,
} from './rules.js';

/** A PEM certificate request made by openssl, as a kubelet would send it. */
function makeCSR(subject: string, sans: string[]): Buffer {
  const args = [
    'req',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    '/dev/null',
    '-subj',
    subject,
  ];
  if (sans.length > 0) args.push('-addext', `subjectAltName=${sans.join(',')}`);
  return execFileSync('openssl', args, { stdio: ['ignore', 'pipe', 'ignore'] });
}

describe('parseCertificateRequest', () => {
  it('reads CN, O and the DNS and IP SANs', () => {
    const info = parseCertificateRequest(
      makeCSR('/O=system:nodes/CN=system:node:worker-1', [
        'DNS:worker-1',
        'DNS:worker-1.local',
        'IP:10.0.0.5',
        'IP:fd00::1',
      ]),
    );
    expect(info).toEqual({
      commonName: 'system:node:worker-1',
      organizations: ['system:nodes'],
      dnsNames: ['worker-1', 'worker-1.local'],
      ipAddresses: ['10.0.0.5', 'fd00::1'],
    });
  });
  it('reads several organizations and no SANs', () => {
    const info = parseCertificateRequest(makeCSR('/O=a/O=b/CN=x', []));
    expect(info).toEqual({ commonName: 'x', organizations: ['a', 'b'], dnsNames: [], ipAddresses: [] });
  });
  it('reads IPv4-mapped IPv6 SANs as IPv4, as Go prints them', () => {
    expect(
      parseCertificateRequest(makeCSR('/CN=x', ['IP:::ffff:10.0.0.5', 'IP:2001:db8:0:0:0:0:0:1'])).ipAddresses,
    ).toEqual(['10.0.0.5', '2001:db8::1']);
  });
  it('reads a DER request as well as PEM', () => {
    const pem = makeCSR('/O=system:nodes/CN=system:node:worker-1', ['DNS:worker-1']).toString();
    const der = Buffer.from(pem.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
    expect(parseCertificateRequest(der)).toEqual(parseCertificateRequest(Buffer.from(pem)));
  });
  it('refuses what is not a certificate request', () => {
    expect(() =>
      parseCertificateRequest(Buffer.from('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')),
    ).toThrow();
    expect(() => parseCertificateRequest(Buffer.from('garbage'))).toThrow();
  });
  it('prints and parses IP addresses canonically', () => {
    expect(canonicalIP('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(canonicalIP('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(canonicalIP('fe80::1:0:0:1')).toBe('fe80::1:0:0:1');
    expect(canonicalIP('10.0.0.256')).toBe('10.0.0.256');
    expect(canonicalIP('host')).toBe('host');
  });
});

describe('kubelet-serving rules', () => {
  const node: NodeAddresses = {
    status: {
      addresses: [
        { type: 'Hostname', address: 'worker-1' },
        { type: 'InternalIP', address: '10.0.0.5' },
        { type: 'ExternalIP', address: '1.2.3.4' },
      ],
    },
  };
  const lookups = (over: Partial<ApprovalLookups> = {}): ApprovalLookups => ({
    machineNamespace: 'shoot--foo--bar',
    node: async (name) => (name === 'worker-1' ? node : undefined),
    machinesForNode: async () => 1,
    ...over,
  });
  const good = parseCertificateRequest(
    makeCSR('/O=system:nodes/CN=system:node:worker-1', ['DNS:worker-1', 'IP:10.0.0.5']),
  );
  const decide = (username: string, req = good, l = lookups()) => decideKubeletServing(username, req, l);

  it('approves when every rule holds', async () => {
    expect(await decide('system:node:worker-1')).toEqual({ approve: true, reason: 'all checks passed' });
  });
  it('denies a username without the system:node: prefix', async () => {
    expect(await decide('worker-1')).toEqual({
      approve: false,
      reason: 'username "worker-1" is not prefixed with "system:node:"',
    });
  });
  it('denies a request without DNS names or IP addresses', async () => {
    const req = { ...good, dnsNames: [], ipAddresses: [] };
    expect(await decide('system:node:worker-1', req)).toEqual({
      approve: false,
      reason: 'no DNS names or IP addresses in the SANs found',
    });
    // one kind of SAN is enough
    const ipOnly = parseCertificateRequest(makeCSR('/O=system:nodes/CN=system:node:worker-1', ['IP:10.0.0.5']));
    const nodeIPOnly: NodeAddresses = { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.5' }] } };
    expect((await decide('system:node:worker-1', ipOnly, lookups({ node: async () => nodeIPOnly }))).approve).toBe(
      true,
    );
  });
  it('denies a common name that is not the username', async () => {
    const req = { ...good, commonName: 'system:node:worker-2' };
    expect(await decide('system:node:worker-1', req)).toEqual({
      approve: false,
      reason: 'common name in CSR does not match username',
    });
  });
  it('denies an organization other than exactly system:nodes', async () => {
    for (const organizations of [[], ['system:masters'], ['system:nodes', 'system:masters']]) {
      expect(await decide('system:node:worker-1', { ...good, organizations })).toEqual({
        approve: false,
        reason: 'organization in CSR does not match nodes group',
      });
    }
  });
  it('denies when the Node does not exist', async () => {
    expect(await decide('system:node:worker-1', good, lookups({ node: async () => undefined }))).toEqual({
      approve: false,
      reason: 'could not find node object with name "worker-1"',
    });
  });
  it('denies unless exactly one Machine belongs to the node', async () => {
    for (const n of [0, 2]) {
      expect(await decide('system:node:worker-1', good, lookups({ machinesForNode: async () => n }))).toEqual({
        approve: false,
        reason: `Expected exactly one machine in namespace "shoot--foo--bar" for node "worker-1" but found ${n}`,
      });
    }
  });
  it('denies DNS names that differ from the Hostname addresses', async () => {
    for (const dnsNames of [['worker-1', 'evil.example.com'], ['other'], []]) {
      expect(await decide('system:node:worker-1', { ...good, dnsNames })).toEqual({
        approve: false,
        reason: 'DNS names in CSR do not match Hostname addresses in node object',
      });
    }
  });
  it('denies IP addresses that differ from the InternalIP addresses', async () => {
    for (const ipAddresses of [['10.0.0.5', '1.2.3.4'], ['1.2.3.4'], []]) {
      expect(await decide('system:node:worker-1', { ...good, ipAddresses })).toEqual({
        approve: false,
        reason: 'IP addresses in CSR do not match InternalIP addresses in node object',
      });
    }
  });
  it('compares IPv6 addresses by value', async () => {
    const v6node: NodeAddresses = {
      status: {
        addresses: [
          { type: 'Hostname', address: 'worker-1' },
          { type: 'InternalIP', address: 'FD00:0:0::5' },
        ],
      },
    };
    const req = { ...good, ipAddresses: ['fd00::5'] };
    expect((await decide('system:node:worker-1', req, lookups({ node: async () => v6node }))).approve).toBe(true);
  });
});

describe('gardener-node-agent client rules', () => {
  const machine = 'bar-worker-z1-x7k2p'; // openssl refuses common names over 64 characters
  const request = (cn: string) => parseCertificateRequest(makeCSR(`/O=gardener.cloud:node-agents/CN=${cn}`, []));
  const own = request(`gardener.cloud:node-agent:machine:${machine}`);
  const lookups = (over: Partial<NodeAgentLookups> = {}): NodeAgentLookups => ({
    machineNamespace: 'shoot--foo--bar',
    machine: async (name) => (name === machine ? { metadata: { labels: {} } } : undefined),
    nodeExists: async () => false,
    ...over,
  });

  it('has no opinion on client requests of others', async () => {
    expect(await decideNodeAgentClient('system:bootstrap:abcdef', request('alice'), lookups())).toBeUndefined();
  });
  it('approves a bootstrap token for a machine that has no Node yet', async () => {
    expect(await decideNodeAgentClient('system:bootstrap:abcdef', own, lookups())).toEqual({
      approve: true,
      reason: 'all checks passed',
    });
  });
  it('denies a bootstrap token once the machine has its Node', async () => {
    const bootstrapped = lookups({
      machine: async () => ({ metadata: { labels: { node: 'machine-0' } } }),
      nodeExists: async (name) => name === 'machine-0',
    });
    expect(await decideNodeAgentClient('system:bootstrap:abcdef', own, bootstrapped)).toEqual({
      approve: false,
      reason: `Cannot use bootstrap token since gardener-node-agent for machine "${machine}" is already bootstrapped`,
    });
  });
  it('denies a machine that does not exist, another node-agent and other users', async () => {
    const unknown = request('gardener.cloud:node-agent:machine:gone');
    expect(await decideNodeAgentClient('system:bootstrap:abcdef', unknown, lookups())).toMatchObject({
      approve: false,
      reason: 'machine "gone" does not exist',
    });
    expect(await decideNodeAgentClient('gardener.cloud:node-agent:machine:other', own, lookups())).toMatchObject({
      approve: false,
    });
    expect(await decideNodeAgentClient(`gardener.cloud:node-agent:machine:${machine}`, own, lookups())).toMatchObject({
      approve: true,
    });
    expect(await decideNodeAgentClient('bob', own, lookups())).toEqual({
      approve: false,
      reason: 'username "bob" is not allowed to create CSRs for a gardener-node-agent',
    });
  });
  it('says it is a gardener-node-agent certificate in the condition', () => {
    expect(approvalCondition({ approve: true, reason: 'ok' }, new Date(), 'gardener-node-agent').message).toBe(
      'Approving gardener-node-agent certificate CSR (ok)',
    );
  });
});

describe('conditions', () => {
  const now = new Date('2024-05-01T10:00:00.500Z');
  it("uses Gardener's reasons and messages", () => {
    expect(approvalCondition({ approve: true, reason: 'all checks passed' }, now)).toEqual({
      type: 'Approved',
      status: 'True',
      reason: 'RequestApproved',
      message: 'Approving kubelet server certificate CSR (all checks passed)',
      lastUpdateTime: '2024-05-01T10:00:00Z',
    });
    expect(approvalCondition({ approve: false, reason: 'x' }, now)).toMatchObject({
      type: 'Denied',
      reason: 'RequestDenied',
      message: 'Denying kubelet server certificate CSR (x)',
    });
  });
  it('leaves decided or issued requests alone', () => {
    expect(isFinal({})).toBe(false);
    expect(isFinal({ status: { conditions: [{ type: 'Approved' }] } })).toBe(true);
    expect(isFinal({ status: { conditions: [{ type: 'Denied' }] } })).toBe(true);
    expect(isFinal({ status: { certificate: 'abc' } })).toBe(true);
  });
});
