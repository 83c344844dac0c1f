import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client, utils } from 'ssh2';
import { HostKeyPath, listenWithUnprivilegedFallback, nodeHostKey, sshdPort, sshdProgram } from './sshd.js';

describe('sshdPort', () => {
  it("reads sshd's port flags, 22 without", () => {
    expect(sshdPort(['-D', '-e'])).toBe(22);
    expect(sshdPort(['-D', '-p', '2222'])).toBe(2222);
    expect(sshdPort(['-p2022'])).toBe(2022);
    expect(sshdPort(['-o', 'Port=2200'])).toBe(2200);
    expect(sshdPort(['-o', 'PermitRootLogin=no'])).toBe(22);
    expect(() => sshdPort(['-p', 'ssh'])).toThrow(/bad port/);
  });
});

describe('listenWithUnprivilegedFallback', () => {
  const refusing = (code: string, below = 1024) => {
    const tried: number[] = [];
    const listen = (port: number) => {
      tried.push(port);
      return port < below
        ? Promise.reject(Object.assign(new Error(`listen ${code}`), { code }))
        : Promise.resolve(`listening on ${port}`);
    };
    return { tried, listen };
  };

  it('moves a privileged port it may not bind (no root) to its unprivileged port', async () => {
    const { tried, listen } = refusing('EACCES');
    await expect(listenWithUnprivilegedFallback(listen, 22)).resolves.toBe('listening on 2222');
    expect(tried).toEqual([22, 2222]);
  });

  it('keeps other failures, unprivileged ports and a disabled fallback as they are', async () => {
    await expect(listenWithUnprivilegedFallback(refusing('EADDRINUSE').listen, 22)).rejects.toThrow(/EADDRINUSE/);
    await expect(listenWithUnprivilegedFallback(refusing('EACCES', 5000).listen, 2022)).rejects.toThrow(/EACCES/);
    await expect(listenWithUnprivilegedFallback(refusing('EACCES').listen, 22, false)).rejects.toThrow(/EACCES/);
    const { tried, listen } = refusing('EACCES');
    await expect(listenWithUnprivilegedFallback(listen, 2022)).resolves.toBe('listening on 2022');
    expect(tried).toEqual([2022]);
  });
});

describe('the machine sshd program', () => {
  it('keeps the host key of the node, serves logins while the unit runs, and stops with it', async () => {
    const rootDir = await mkdtemp(join(tmpdir(), 'sshd-'));
    try {
      const key = utils.generateKeyPairSync('ed25519');
      await mkdir(join(rootDir, 'root/.ssh'), { recursive: true });
      await writeFile(join(rootDir, 'root/.ssh/authorized_keys'), key.public);

      let listening: (address: { port: number }) => void = () => undefined;
      const address = new Promise<{ port: number }>((resolve) => (listening = resolve));
      const stop = new AbortController();
      const running = sshdProgram({ onListening: listening, host: '127.0.0.1' })(['-D', '-p', '0'], { rootDir }).run(
        stop.signal,
      );
      const { port } = await address;

      const hostKey = await readFile(join(rootDir, HostKeyPath), 'utf8');
      expect((await stat(join(rootDir, HostKeyPath))).mode & 0o777).toBe(0o600);
      expect(await nodeHostKey(rootDir)).toBe(hostKey);

      const output = await new Promise<string>((resolve, reject) => {
        const client = new Client();
        client.once('error', reject);
        client.once('ready', () =>
          client.exec('echo "$USER@$(pwd)"', (err, channel) => {
            if (err) return reject(err);
            let out = '';
            channel.on('data', (d: Buffer) => (out += d.toString()));
            channel.on('close', () => {
              client.end();
              resolve(out.trim());
            });
          }),
        );
        client.connect({ host: '127.0.0.1', port, username: 'root', privateKey: key.private });
      });
      expect(output).toBe(`root@${rootDir}`);

      stop.abort();
      await running;
      await expect(
        new Promise((resolve, reject) => {
          const client = new Client();
          client.once('error', reject);
          client.once('ready', () => resolve(undefined));
          client.connect({ host: '127.0.0.1', port, username: 'root', privateKey: key.private, readyTimeout: 2_000 });
        }),
      ).rejects.toThrow();
    } finally {
      await rm(rootDir, { recursive: true, force: true });
    }
  });
});
