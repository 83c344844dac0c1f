import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createLogger } from '@gardener-ts/logging';
import {
  BootstrapTokenFilePath,
  KubeletBootstrapKubeconfigPath,
  KubeletClientCertificatePath,
  KubeletKubeconfigPath,
  kubeletBootstrapKubeconfig,
  localKubeletProgram,
  writeKubeletBootstrapKubeconfig,
} from './kubelet.js';

const log = createLogger({ name: 'test', level: 'silent' });
const apiServer = { server: 'https://api.shoot.local:443', caBundle: Buffer.from('ca').toString('base64') };
let root: string;
const at = (path: string) => join(root, path);
async function writeNodeFile(path: string, content: string) {
  await mkdir(dirname(at(path)), { recursive: true });
  await writeFile(at(path), content);
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'machine-kubelet-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('the kubelet bootstrap kubeconfig', () => {
  it('is the API server, its CA and the bootstrap token', () => {
    expect(parse(kubeletBootstrapKubeconfig(apiServer, 'abcdef.0123456789abcdef\n'))).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'kubelet-bootstrap',
          cluster: { server: apiServer.server, 'certificate-authority-data': apiServer.caBundle },
        },
      ],
      contexts: [{ name: 'kubelet-bootstrap', context: { cluster: 'kubelet-bootstrap', user: 'kubelet-bootstrap' } }],
      'current-context': 'kubelet-bootstrap',
      users: [{ name: 'kubelet-bootstrap', user: { token: 'abcdef.0123456789abcdef' } }],
    });
  });

  it('is written below the root from the bootstrap token file, readable by the owner only', async () => {
    expect(await writeKubeletBootstrapKubeconfig(root, apiServer, log)).toBe(false); // no token yet
    await writeNodeFile(BootstrapTokenFilePath, 'abcdef.0123456789abcdef');
    expect(await writeKubeletBootstrapKubeconfig(root, apiServer, log)).toBe(true);
    const written = at(KubeletBootstrapKubeconfigPath);
    expect(parse(await readFile(written, 'utf8')).users[0].user.token).toBe('abcdef.0123456789abcdef');
    expect((await stat(written)).mode & 0o777).toBe(0o600);
  });

  it('is not written once the kubelet has its own credentials', async () => {
    await writeNodeFile(BootstrapTokenFilePath, 'abcdef.0123456789abcdef');
    for (const credentials of [KubeletKubeconfigPath, KubeletClientCertificatePath]) {
      await writeNodeFile(credentials, 'x');
      expect(await writeKubeletBootstrapKubeconfig(root, apiServer, log)).toBe(false);
      await rm(at(credentials));
    }
    await expect(stat(at(KubeletBootstrapKubeconfigPath))).rejects.toThrow();
  });
});

describe('/opt/bin/kubelet on a local machine', () => {
  it("runs gardener-local kubelet for the machine's root with the unit's arguments, the machine's ports and kube-proxy's Service table", () => {
    const launch = localKubeletProgram(
      { node: '/usr/bin/node', nodeFlags: ['--max-semi-space-size=1'], cli: '/w/dist/tools/gardener-local/cli.js' },
      () => ({ healthzPort: 31248 }),
    )(['--config=/var/lib/kubelet/config/kubelet', '--v=2'], {
      rootDir: '/machines/m0',
      unit: 'kubelet.service',
      env: {},
    });
    expect(launch).toEqual({
      command: '/usr/bin/node',
      args: [
        '--max-semi-space-size=1',
        '/w/dist/tools/gardener-local/cli.js',
        'kubelet',
        '--rootfs=/machines/m0',
        '--config=/var/lib/kubelet/config/kubelet',
        '--v=2',
        '--port=0',
        '--healthz-port=31248',
        '--services-file=/var/lib/kube-proxy/services.json',
      ],
    });
  });

  it('runs the same arguments inside the machine process when it has an in-process kubelet, until the unit stops it', async () => {
    const runs: { args: string[]; signal: AbortSignal }[] = [];
    const launch = localKubeletProgram(
      {
        node: '/usr/bin/node',
        cli: '/w/dist/tools/gardener-local/cli.js',
        podCIDR: '127.42.255.0/24',
        inProcess: (args, signal) => {
          runs.push({ args, signal });
          return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        },
      },
      () => ({ healthzPort: 31248 }),
    )(['--config=/var/lib/kubelet/config/kubelet'], { rootDir: '/machines/m0', unit: 'kubelet.service', env: {} });
    expect('run' in launch).toBe(true);
    const stop = new AbortController();
    const running = (launch as { run: (signal: AbortSignal) => Promise<void> }).run(stop.signal);
    expect(runs.map((r) => r.args)).toEqual([
      [
        '--rootfs=/machines/m0',
        '--config=/var/lib/kubelet/config/kubelet',
        '--port=0',
        '--healthz-port=31248',
        '--services-file=/var/lib/kube-proxy/services.json',
        '--pod-cidr=127.42.255.0/24',
      ],
    ]);
    stop.abort();
    await running;
    expect(runs[0]!.signal.aborted).toBe(true);
  });
});
