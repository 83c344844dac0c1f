// SSH into a shoot's node through its Bastion, in-process: the shoot's `ssh-keypair` generated as the gardenlet does
// (RSA 4096, secrets manager), the gardenlet's reconcile OperatingSystemConfig with its public key, applied to a local
// machine as gardener-node-agent applies it (planOSC/applyPlan on the machine's unit runner, whose `/usr/sbin/sshd`
// is the machine program's: the node SSH server on the node's address), provider-local's bastion server in front of
// it. ssh2's client logs in to the bastion with the user's own key, opens a `direct-tcpip` channel to the node by
// name on port 22 (`ssh -J`), logs in to the node as `gardener` with the shoot's private key and runs a command.
// Disabling SSH access stops sshd on the node. A node that serves SSH on the unprivileged port (a machine without
// root) is reached through the bastion all the same.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, utils, type ClientChannel, type ConnectConfig } from 'ssh2';
import { parse } from 'yaml';
import type { CloudProfile, Seed, Shoot, extensionsv1alpha1 } from '@gardener-ts/api';
import {
  renderNodeAgentOSCSecret,
  renderOperatingSystemConfigs,
  type ShootValues,
} from '@gardener-ts/gardenlet-controllers';
import { createLogger } from '@gardener-ts/logging';
import { LocalMachine, applyPlan, nodeConfigFromOSC, parseOSC, planOSC, type NodeConfig } from '@gardener-ts/nodeagent';
import {
  BastionServer,
  NodeSSHServer,
  authorizedKeysFromUserData,
  generateHostKey,
  machineSSHPrograms,
  resolveTarget,
  type MachineAddresses,
} from '@gardener-ts/providerlocal/ssh';
import { generateData } from '@gardener-ts/secrets-manager';
import { workspaceRoot } from '@gardener-ts/testing';

type OSC = extensionsv1alpha1.OperatingSystemConfig;
const namespace = 'shoot--local--local';
const log = createLogger({ name: 'ssh-bastion', level: 'warn' });
const example = <T>(file: string): T =>
  parse(readFileSync(join(workspaceRoot(), 'deploy/gardener/examples/local', file), 'utf8')) as T;
// Two loopback addresses of their own, as machine Pods have.
const octet = () => 2 + Math.floor(Math.random() * 250);
const nodeIP = `127.${octet()}.${octet()}.${octet()}`;
const rootlessNodeIP = `127.${octet()}.${octet()}.${octet()}`;
const nodeName = 'machine-shoot--local--local-local-z1-5b8c4-x7k2p';
const rootlessNodeName = 'machine-shoot--local--local-local-z1-5b8c4-r00tl';

function exampleValues(mutate?: (shoot: Shoot) => void): ShootValues {
  const shoot = example<Shoot>('shoot.yaml');
  shoot.spec.kubernetes.version = '1.33.0';
  mutate?.(shoot);
  const networks = { pods: '10.1.0.0/16', services: '10.2.0.0/16', shootDefaults: { services: '10.4.0.0/16' } };
  const seed = { metadata: { name: 'local' }, spec: { networks } } as unknown as Seed;
  return { shoot, seed, cloudProfile: example<CloudProfile>('cloudprofile.yaml'), namespace };
}

/**
 * The node's share of the pool's reconcile OSC as node-agent reads it from its Secret: every file, and the units this
 * test machine runs (it has no kubelet and no shoot API server; node-agent's and the kubelet's units are left out).
 */
function nodeConfig(values: ShootValues, sshPublicKeys: string[]): NodeConfig {
  const [, original] = renderOperatingSystemConfigs(values, {
    now: new Date().toISOString(),
    apiServerURL: 'https://127.0.0.1:1',
    caBundle: 'CA',
    sshPublicKeys,
  }) as [OSC, OSC];
  const secret = renderNodeAgentOSCSecret(original, 'gardener-node-agent-local', 'local') as {
    data: Record<string, string>;
  };
  const config = nodeConfigFromOSC(parseOSC(Buffer.from(secret.data['osc.yaml']!, 'base64').toString('utf8')));
  return { ...config, units: config.units.filter((u) => u.name === 'sshd.service') };
}

let rootDir: string;
let machine: LocalMachine;
let applied: NodeConfig;
let sshd: Promise<{ address: string; port: number }>;
let bastion: BastionServer;
let rootlessNode: NodeSSHServer;
let shootKey: { private: string; public: string };
const userKey = utils.generateKeyPairSync('ed25519');

beforeAll(async () => {
  // The shoot's ssh-keypair as the gardenlet's secrets manager generates it (`id_rsa`, `id_rsa.pub`).
  const data = await generateData(
    { kind: 'rsa', name: 'ssh-keypair', bits: 4096, usedForSSH: true },
    { now: new Date() },
  );
  shootKey = { private: data['id_rsa']!.toString(), public: data['id_rsa.pub']!.toString() };

  rootDir = await mkdtemp(join(tmpdir(), 'ssh-bastion-'));
  let listening: (address: { address: string; port: number }) => void = () => undefined;
  sshd = new Promise((resolve) => (listening = resolve));
  machine = new LocalMachine({
    rootDir,
    nodeName,
    log,
    programs: machineSSHPrograms({ host: nodeIP, log, onListening: (a) => listening(a) }),
  });
  await machine.boot();
  applied = nodeConfig(exampleValues(), [shootKey.public]);
  await applyPlan(planOSC(undefined, applied), { rootDir, units: machine.units });

  // A machine without root: its sshd serves on 2222 (what the machine's sshd does when it may not bind 22).
  rootlessNode = await NodeSSHServer.listen({ hostKeys: [generateHostKey()], rootDir }, 2222, rootlessNodeIP);

  // The Bastion's user data as the gardenlet renders it: the user's key for the user `gardener`.
  const userData = [
    '#!/bin/bash -eu',
    'id gardener || useradd gardener -mU',
    'mkdir -p /home/gardener/.ssh',
    `echo "${userKey.public.trim()}" > /home/gardener/.ssh/authorized_keys`,
  ].join('\n');
  const machines: MachineAddresses[] = [
    { names: [nodeName], addresses: [nodeIP] },
    { names: [rootlessNodeName], addresses: [rootlessNodeIP] },
  ];
  bastion = await BastionServer.listen(
    {
      hostKeys: [generateHostKey()],
      access: () => ({ keys: authorizedKeysFromUserData(userData), ingress: [{ ipBlock: { cidr: '127.0.0.0/8' } }] }),
      resolveTarget: (host, port) => resolveTarget(machines, host, port),
      log,
    },
    0,
    '127.0.0.1',
  );
}, 60_000);

afterAll(async () => {
  await bastion?.close();
  await rootlessNode?.close();
  await machine?.shutdown();
  if (rootDir) await rm(rootDir, { recursive: true, force: true });
});

function login(config: ConnectConfig): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    client.once('ready', () => resolve(client));
    client.once('error', reject);
    client.connect({ readyTimeout: 10_000, ...config });
  });
}

function forward(client: Client, host: string, port: number): Promise<ClientChannel> {
  return new Promise((resolve, reject) =>
    client.forwardOut('127.0.0.1', 40000, host, port, (err, channel) => (err ? reject(err) : resolve(channel))),
  );
}

function exec(client: Client, command: string): Promise<{ stdout: string; code: number | undefined }> {
  return new Promise((resolve, reject) =>
    client.exec(command, (err, channel) => {
      if (err) return reject(err);
      let stdout = '';
      let code: number | undefined;
      channel.on('data', (d: Buffer) => (stdout += d.toString()));
      channel.on('exit', (c: number) => (code = c));
      channel.on('close', () => resolve({ stdout, code }));
    }),
  );
}

/** `ssh -J gardener@bastion gardener@<host>` with the shoot's key, running `command`. */
async function sshThroughBastion(host: string, command: string, privateKey = shootKey.private) {
  const { address, port } = bastion.address();
  const jump = await login({ host: address, port, username: 'gardener', privateKey: userKey.private });
  try {
    const node = await login({ sock: await forward(jump, host, 22), username: 'gardener', privateKey });
    try {
      return await exec(node, command);
    } finally {
      node.end();
    }
  } finally {
    jump.end();
  }
}

describe('SSH to a shoot node through its bastion', () => {
  it("puts the shoot's public key on the node and runs sshd on the node's address, port 22 or (no root) 2222", async () => {
    expect(machine.units.status('sshd.service')).toMatchObject({ activeState: 'active', enabled: true });
    const { address, port } = await sshd;
    expect(address).toBe(nodeIP);
    expect([22, 2222]).toContain(port);
    const keys = readFileSync(join(rootDir, 'home/gardener/.ssh/authorized_keys'), 'utf8');
    expect(keys).toBe(shootKey.public.trim());
  });

  it("logs in to the node by name with the shoot's ssh-keypair and runs a command", async () => {
    await expect(sshThroughBastion(nodeName, 'echo ok; cat etc/hostname')).resolves.toEqual({
      stdout: `ok\n${nodeName}\n`,
      code: 0,
    });
  });

  it('refuses a key the node does not authorize', async () => {
    await expect(sshThroughBastion(nodeIP, 'true', userKey.private)).rejects.toMatchObject({
      level: 'client-authentication',
    });
  });

  it('reaches a node without root on its unprivileged port when asked for port 22', async () => {
    const node = await sshThroughBastion(rootlessNodeName, 'echo ok');
    expect(node.code).toBe(0);
    expect(node.stdout.split('\n')[0]).toBe('ok');
  });

  it('stops sshd when the shoot disables SSH access', async () => {
    const next = nodeConfig(
      exampleValues((s) => (s.spec.provider.workersSettings = { sshAccess: { enabled: false } })),
      [],
    );
    await applyPlan(planOSC(applied, next), { rootDir, units: machine.units });
    expect(machine.units.status('sshd.service').activeState).toBe('inactive');
    expect(existsSync(join(rootDir, 'home/gardener/.ssh/authorized_keys'))).toBe(false);
    await expect(sshThroughBastion(nodeName, 'true')).rejects.toThrow();
  });
});
