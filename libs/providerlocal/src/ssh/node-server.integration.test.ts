// A local machine's SSH server in-process: ssh2's client logs in with the key of the node's authorized_keys file and
// runs commands and a shell in the node's root directory.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, utils, type ClientChannel } from 'ssh2';
import { generateHostKey } from './auth.js';
import { NodeSSHServer, readNodeAuthorizedKeys, sessionEnv } from './node-server.js';

const nodeKey = utils.generateKeyPairSync('ed25519');
const otherKey = utils.generateKeyPairSync('ed25519');
let rootDir: string;
let server: NodeSSHServer;

beforeAll(async () => {
  rootDir = await mkdtemp(join(tmpdir(), 'node-ssh-'));
  await mkdir(join(rootDir, 'home/gardener/.ssh'), { recursive: true });
  await writeFile(
    join(rootDir, 'home/gardener/.ssh/authorized_keys'),
    `# the shoot's ssh-keypair\n${nodeKey.public}\n`,
  );
  server = await NodeSSHServer.listen({ hostKeys: [generateHostKey()], rootDir }, 0, '127.0.0.1');
});

afterAll(async () => {
  await server?.close();
  await rm(rootDir, { recursive: true, force: true });
});

function connect(privateKey: string, username = 'gardener'): Promise<Client> {
  const { address, port } = server.address();
  return new Promise((resolve, reject) => {
    const client = new Client();
    client.once('ready', () => resolve(client));
    client.once('error', reject);
    client.connect({ host: address, port, username, privateKey, readyTimeout: 5_000 });
  });
}

/** Collects a channel's stdout, stderr and exit code. */
function outcome(channel: ClientChannel): Promise<{ stdout: string; stderr: string; code: number | undefined }> {
  let stdout = '';
  let stderr = '';
  let code: number | undefined;
  channel.on('data', (d: Buffer) => (stdout += d.toString()));
  channel.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  channel.on('exit', (c: number) => (code = c));
  return new Promise((resolve) => channel.on('close', () => resolve({ stdout, stderr, code })));
}

describe('the node SSH server', () => {
  it('reads the authorized_keys files of the node users', async () => {
    const keys = await readNodeAuthorizedKeys(rootDir);
    expect(keys).toEqual([expect.objectContaining({ user: 'gardener', type: 'ssh-ed25519' })]);
    expect(sessionEnv({ rootDir }, 'gardener', { LANG: 'C.UTF-8', EVIL: '1' })).toMatchObject({
      HOME: join(rootDir, 'home/gardener'),
      USER: 'gardener',
      LANG: 'C.UTF-8',
    });
    expect(sessionEnv({ rootDir }, 'root')).not.toHaveProperty('EVIL');
  });

  it('runs a command in the node root directory with its exit code and stderr', async () => {
    const client = await connect(nodeKey.private);
    try {
      const channel = await new Promise<ClientChannel>((resolve, reject) =>
        client.exec('pwd; echo "$USER" >&2; exit 3', (err, c) => (err ? reject(err) : resolve(c))),
      );
      const { stdout, stderr, code } = await outcome(channel);
      expect(stdout.trim()).toBe(rootDir);
      expect(stderr.trim()).toBe('gardener');
      expect(code).toBe(3);
    } finally {
      client.end();
    }
  });

  it('gives a shell that reads commands from the channel', async () => {
    const client = await connect(nodeKey.private);
    try {
      const channel = await new Promise<ClientChannel>((resolve, reject) =>
        client.shell((err, c) => (err ? reject(err) : resolve(c))),
      );
      const result = outcome(channel);
      channel.end('echo "hello from $(basename "$MACHINE_ROOT_DIR")"\nexit 0\n');
      expect((await result).stdout).toContain(`hello from ${rootDir.split('/').pop()}`);
    } finally {
      client.end();
    }
  });

  it('refuses keys that are not authorized, and the key for another user', async () => {
    await expect(connect(otherKey.private)).rejects.toMatchObject({ level: 'client-authentication' });
    await expect(connect(nodeKey.private, 'root')).rejects.toMatchObject({ level: 'client-authentication' });
  });
});
