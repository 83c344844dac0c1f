// Helpers of the CLI's whole-cluster tests: run `gardener-local cluster`, find a test program's processes, and reach
// a Service through the proxy's published local port.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { workspaceRoot } from '@gardener-ts/testing';

export const run = promisify(execFile);
export const cli = join(workspaceRoot(), 'dist', 'tools', 'gardener-local', 'cli.js');

/** `gardener-local cluster <args> --data-dir <clusters>`; resolves to stdout. */
export async function clusterCommand(clusters: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [cli, 'cluster', ...args, '--data-dir', clusters], {
    timeout: 60_000,
  });
  return stdout;
}

/** Pids of live processes whose command line names `program` (a path unique to the test's directory). */
export async function pidsOf(program: string): Promise<number[]> {
  const { stdout } = await run('ps', ['-eo', 'pid=,stat=,args=']);
  return stdout
    .split('\n')
    .filter((line) => line.includes(program) && !/^\s*\d+\s+Z/.test(line))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

/** The URL of a Service's first port on this machine, from the cluster's services.json. */
export async function serviceUrlIn(
  clusters: string,
  cluster: string,
  service: string,
  namespace = 'default',
): Promise<string> {
  const state = JSON.parse(await readFile(join(clusters, cluster, 'services.json'), 'utf8')) as {
    services: { namespace: string; name: string; host: string; ports: { localPort: number }[] }[];
  };
  const entry = state.services.find((s) => s.namespace === namespace && s.name === service);
  if (!entry) throw new Error(`service ${namespace}/${service} has no local port yet`);
  return `http://${entry.host}:${entry.ports[0].localPort}/`;
}

/** One GET on a new connection (the service proxy balances connections, not requests). */
export function get(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { agent: false, timeout: 2_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
  });
}
