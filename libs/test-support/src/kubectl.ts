// The real kubectl (v1.35, unpacked at install time) against a test cluster.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { workspaceRoot } from './workspace.js';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function kubectlBinary(): string {
  return join(workspaceRoot(), 'tools', 'k8s-binaries', 'vendor', 'kubectl');
}

/** Runs kubectl with the given kubeconfig; resolves with exit code and output (never rejects on failure). */
export function runKubectl(
  kubeconfig: string,
  args: string[],
  options: { input?: string; timeoutMs?: number } = {},
): Promise<KubectlResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(kubectlBinary(), ['--kubeconfig', kubeconfig, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, KUBECACHEDIR: join(kubeconfig + '.cache') },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Like runKubectl, but throws with kubectl's stderr when it fails. */
export async function kubectl(
  kubeconfig: string,
  args: string[],
  options: { input?: string; timeoutMs?: number } = {},
): Promise<string> {
  const result = await runKubectl(kubeconfig, args, options);
  if (result.code !== 0)
    throw new Error(`kubectl ${args.join(' ')} failed (${result.code}):\n${result.stderr}${result.stdout}`);
  return result.stdout;
}
