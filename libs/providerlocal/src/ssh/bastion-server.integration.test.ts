// The bastion's SSH path end to end in-process: the bastion server on a loopback port, ssh2's client as the user
// (no /usr/bin/ssh needed), a TCP echo server as the machine behind it.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, utils, type ClientChannel, type ConnectConfig } from 'ssh2';
import { authorizedKeysFromUserData } from './authorized-keys.js';
import { generateHostKey } from './auth.js';
import { BastionServer, type BastionAccess } from './bastion-server.js';
import { resolveTarget } from './targets.js';

const userKey = utils.generateKeyPairSync('ed25519');
const strangerKey = utils.generateKeyPairSync('ed25519');
// The user data as gardenlet writes it for a Bastion (the user's key for the user `gardener`).
const userData = [
  '#!/bin/bash -eu',
  'id gardener || useradd gardener -mU',
  'mkdir -p /home/gardener/.ssh',
  `echo "${userKey.public.trim()}" > /home/gardener/.ssh/authorized_keys`,
  'systemctl start sshd || systemctl start ssh',
].join('\n');

let echo: net.Server;
let echoPort: number;
let bastion: BastionServer;
let access: BastionAccess;

beforeAll(async () => {
  echo = net.createServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoPort = (echo.address() as net.AddressInfo).port;
  access = { keys: authorizedKeysFromUserData(userData), ingress: [{ ipBlock: { cidr: '127.0.0.1/32' } }] };
  bastion = await BastionServer.listen(
    {
      hostKeys: [generateHostKey()],
      access: () => access,
      // The shoot has one machine, `machine-a`, whose "sshd" is the echo server.
      resolveTarget: (host, port) =>
        resolveTarget([{ names: ['machine-a'], addresses: ['127.0.0.1'] }], host, port, [echoPort]),
    },
    0,
    '127.0.0.1',
  );
});

afterAll(async () => {
  await bastion?.close();
  await new Promise((resolve) => echo?.close(resolve));
});

/** Connects to the bastion; resolves once logged in, rejects when the connection fails or ends before that. */
function connect(config: Partial<ConnectConfig>): Promise<Client> {
  const { address, port } = bastion.address();
  return new Promise((resolve, reject) => {
    const client = new Client();
    client.once('ready', () => resolve(client));
    client.once('error', reject);
    client.once('close', () => reject(new Error('connection closed before login')));
    client.connect({ host: address, port, username: 'gardener', readyTimeout: 5_000, ...config });
  });
}

function forward(client: Client, host: string, port: number): Promise<ClientChannel> {
  return new Promise((resolve, reject) =>
    client.forwardOut('127.0.0.1', 40000, host, port, (err, channel) => (err ? reject(err) : resolve(channel))),
  );
}

describe('the bastion SSH server', () => {
  it('lets the authorized key in and forwards to a machine by name (ssh -J)', async () => {
    const client = await connect({ privateKey: userKey.private });
    try {
      const channel = await forward(client, 'machine-a', echoPort);
      const reply = new Promise<string>((resolve) => channel.once('data', (data: Buffer) => resolve(data.toString())));
      channel.write('hello node');
      expect(await reply).toBe('hello node');
      channel.end();
    } finally {
      client.end();
    }
  });

  it('refuses an unknown key, and the right key for another user', async () => {
    await expect(connect({ privateKey: strangerKey.private })).rejects.toMatchObject({
      level: 'client-authentication',
    });
    await expect(connect({ privateKey: userKey.private, username: 'root' })).rejects.toMatchObject({
      level: 'client-authentication',
    });
  });

  it('refuses password authentication', async () => {
    await expect(connect({ password: 'gardener' })).rejects.toMatchObject({ level: 'client-authentication' });
  });

  it('drops connections from outside the ingress ranges before any SSH exchange', async () => {
    const { address, port } = bastion.address();
    const sock = net.connect({ host: address, port, localAddress: '127.0.0.2' });
    await expect(connect({ privateKey: userKey.private, sock })).rejects.toThrow();
    // Let in again once the Bastion's ingress names that address.
    const before = access;
    access = {
      ...access,
      ingress: [...access.ingress, { ipBlock: { cidr: '127.0.0.0/30', except: ['127.0.0.3/32'] } }],
    };
    try {
      const again = net.connect({ host: address, port, localAddress: '127.0.0.2' });
      (await connect({ privateKey: userKey.private, sock: again })).end();
    } finally {
      access = before;
    }
  });

  it('forwards only to the machines on the allowed port', async () => {
    const client = await connect({ privateKey: userKey.private });
    try {
      await expect(forward(client, 'etcd-main-0', echoPort)).rejects.toThrow();
      await expect(forward(client, '127.0.0.1', echoPort + 1 === 65536 ? 1 : echoPort + 1)).rejects.toThrow();
      const channel = await forward(client, '127.0.0.1', echoPort);
      channel.end();
    } finally {
      client.end();
    }
  });

  it('has no shell, no exec and no remote forwarding', async () => {
    const client = await connect({ privateKey: userKey.private });
    try {
      await expect(
        new Promise((resolve, reject) => client.shell((err, stream) => (err ? reject(err) : resolve(stream)))),
      ).rejects.toThrow();
      await expect(
        new Promise((resolve, reject) => client.exec('id', (err, stream) => (err ? reject(err) : resolve(stream)))),
      ).rejects.toThrow();
      await expect(
        new Promise((resolve, reject) =>
          client.forwardIn('127.0.0.1', 0, (err, port) => (err ? reject(err) : resolve(port))),
        ),
      ).rejects.toThrow();
    } finally {
      client.end();
    }
  });
});
