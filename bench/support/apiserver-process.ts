// The built `gardener-local apiserver` in its own process, as benchmarks run it: memory storage, any free port.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'tools', 'gardener-local', 'cli.js');

export interface ApiServerProcess {
  kubeconfig: string;
  stop(): Promise<void>;
}

export async function startApiServerProcess(dir: string): Promise<ApiServerProcess> {
  const proc = spawn(
    process.execPath,
    [CLI, 'apiserver', '--data-dir', dir, '--port', '0', '--storage', 'memory', '--log-level', 'error'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/ready at \S+/.test(out)) resolve();
    });
    proc.once('exit', (code) =>
      reject(new Error(`apiserver exited with ${code} (build it: npx nx build gardener-local)`)),
    );
  });
  return {
    kubeconfig: join(dir, 'kubeconfig'),
    stop: () =>
      new Promise((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}
