// The preload's mount table: a Node.js program in a pod reads and writes its volumes at the paths the Pod spec
// mounts them, as in a container (the in-cluster client's service account token above all).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { podNetworkEnv } from './pod-network.js';

const dir = mkdtempSync(join(tmpdir(), 'pod-mounts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runInPod(program: string, mounts: Record<string, string>): string {
  const env = podNetworkEnv('127.9.3.1', {
    PATH: process.env.PATH ?? '',
    GARDENER_LOCAL_MOUNTS: JSON.stringify(mounts),
  });
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', program], { env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout.trim();
}

describe('pod preload: mounts', () => {
  const token = join(dir, 'kube-api-access');
  mkdirSync(token);
  writeFileSync(join(token, 'token'), 'the-token');
  writeFileSync(join(token, 'namespace'), 'garden');
  const certs = join(dir, 'certs');
  mkdirSync(certs);

  it('reads the service account token where in-cluster clients look for it, in sync, callback and promise forms', () => {
    const program = `
      import fs, { readFileSync, existsSync } from 'node:fs';
      import { readFile } from 'node:fs/promises';
      const base = '/var/run/secrets/kubernetes.io/serviceaccount';
      const cb = await new Promise((ok, ko) => fs.readFile(base + '/namespace', 'utf8', (e, d) => (e ? ko(e) : ok(d))));
      console.log([existsSync(base + '/token'), readFileSync(base + '/token', 'utf8'), await readFile(base + '//token', 'utf8'), cb].join(' '));`;
    expect(runInPod(program, { '/var/run/secrets/kubernetes.io/serviceaccount': token })).toBe(
      'true the-token the-token garden',
    );
  });

  it('writes into a writable volume and leaves paths outside every mount alone', () => {
    const outside = join(dir, 'outside.txt');
    const program = `
      import { writeFileSync, mkdirSync, existsSync } from 'node:fs';
      mkdirSync('/etc/webhook/srv/sub', { recursive: true });
      writeFileSync('/etc/webhook/srv/sub/tls.crt', 'cert');
      writeFileSync(${JSON.stringify(outside)}, 'host');
      console.log(existsSync('/etc/webhook/srv-other'), existsSync('/etc/webhook'));`;
    expect(runInPod(program, { '/etc/webhook/srv': certs })).toBe('false false');
    expect(readFileSync(join(certs, 'sub/tls.crt'), 'utf8')).toBe('cert');
    expect(readFileSync(outside, 'utf8')).toBe('host');
    expect(existsSync('/etc/webhook/srv')).toBe(false);
  });

  it("leaves the program's own files alone when they lie under a mount path (a workspace under /tmp)", () => {
    const scratch = join(dir, 'scratch-program');
    mkdirSync(scratch);
    const program = join(dir, 'program.mjs');
    writeFileSync(
      program,
      "import { realpathSync } from 'node:fs'; console.log(realpathSync(process.argv[1]) === process.argv[1]);",
    );
    const env = podNetworkEnv('127.9.3.2', {
      PATH: process.env.PATH ?? '',
      GARDENER_LOCAL_MOUNTS: JSON.stringify({ '/tmp': scratch }),
    });
    const result = spawnSync(process.execPath, [program], { env, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('true');
  });

  it('leaves host paths the kubelet gave the program alone, even under a mount path such as /tmp', () => {
    const config = join(dir, 'config');
    mkdirSync(config);
    writeFileSync(join(config, 'config.yaml'), 'kind: X');
    const scratch = join(dir, 'scratch');
    mkdirSync(scratch);
    // The kubelet rewrote `--config /etc/config/config.yaml` to the volume's directory; the pod also mounts /tmp.
    const program = `import { readFileSync, writeFileSync } from 'node:fs'; writeFileSync('/tmp/x', 'scratch'); console.log(readFileSync(${JSON.stringify(join(config, 'config.yaml'))}, 'utf8'));`;
    expect(runInPod(program, { '/etc/config': config, '/tmp': scratch })).toBe('kind: X');
    expect(readFileSync(join(scratch, 'x'), 'utf8')).toBe('scratch');
  });
});
