// A throwaway etcd (Debian `etcd-server`) for the benchmarks, on a random local port, data under `dir/etcd`.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export async function startEtcd(dir: string): Promise<{ proc: ChildProcess; url: string }> {
  const port = 23790 + Math.floor(Math.random() * 5000);
  const url = `http://127.0.0.1:${port}`;
  const peer = `http://127.0.0.1:${port + 1}`;
  const proc = spawn(
    'etcd',
    [
      '--data-dir',
      join(dir, 'etcd'),
      '--listen-client-urls',
      url,
      '--advertise-client-urls',
      url,
      '--listen-peer-urls',
      peer,
      '--initial-advertise-peer-urls',
      peer,
      '--initial-cluster',
      `default=${peer}`,
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) return { proc, url };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('etcd did not start');
}
