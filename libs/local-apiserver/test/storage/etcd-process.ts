// Starts a throwaway etcd on free loopback ports with a temporary data directory (for tests and the bench).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EtcdProcess {
  endpoint: string;
  stop(): Promise<void>;
}

export const ETCD_MISSING =
  'The etcd binary is not on PATH: the etcd storage tests need a real etcd. Run `bash tools/scripts/bootstrap.sh` (it installs the Debian package etcd-server).';

export async function startEtcd(): Promise<EtcdProcess> {
  if (spawnSync('etcd', ['--version']).error) throw new Error(ETCD_MISSING);
  const dir = await mkdtemp(join(tmpdir(), 'etcd-'));
  const [client, peer] = await freePorts(2);
  const endpoint = `http://127.0.0.1:${client}`;
  const peerUrl = `http://127.0.0.1:${peer}`;
  const child = spawn(
    'etcd',
    [
      '--name=default',
      `--data-dir=${join(dir, 'data')}`,
      `--listen-client-urls=${endpoint}`,
      `--advertise-client-urls=${endpoint}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=default=${peerUrl}`,
      '--log-level=error',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const stop = async () => {
    await exited(child, 'SIGTERM');
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await healthy(endpoint, child, () => output);
  } catch (err) {
    await stop();
    throw err;
  }
  return { endpoint, stop };
}

async function healthy(endpoint: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`etcd exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${endpoint}/health`);
      if (res.ok && ((await res.json()) as { health?: string }).health === 'true') return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`etcd at ${endpoint} did not become healthy within 15 s:\n${output()}`);
}

function exited(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/**
 * Loopback ports that were free a moment ago. (@gardener-ts/testing has a freePort, but that package depends on
 * this one, so its tests cannot import it without a cycle.)
 */
async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer().listen(0, '127.0.0.1'));
  await Promise.all(servers.map((server) => once(server, 'listening')));
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}
