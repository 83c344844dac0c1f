import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeletOptions, loadKubeletConfiguration, parseKubeletCommandLine, parseKubeletFlags } from './cli-options.js';

describe('parseKubeletFlags', () => {
  it('turns flags into kubelet options with absolute paths and milliseconds', () => {
    const options = parseKubeletFlags([
      '--kubeconfig',
      '/k/config',
      '--node-name',
      'n1',
      '--data-dir',
      '/d',
      '--port',
      '0',
      '--node-labels',
      'a=b,c=d=e',
      '--lease-renew-seconds',
      '2',
      '--restart-backoff-seconds',
      '0.5',
      '--services-file',
      '/c/services.json',
    ]);
    expect(options).toMatchObject({
      kubeconfig: '/k/config',
      nodeName: 'n1',
      dataDir: '/d',
      port: 0,
      nodeLabels: { a: 'b', c: 'd=e' },
      leaseRenewMs: 2000,
      backoff: { baseMs: 500 },
      servicesFile: '/c/services.json',
    });
  });

  it('turns --rotate-server-certificates (or --server-tls-bootstrap) into serverTLSBootstrap', () => {
    const base = ['--kubeconfig', 'k', '--node-name', 'n', '--data-dir', 'd'];
    expect(parseKubeletFlags([...base, '--rotate-server-certificates']).serverTLSBootstrap).toBe(true);
    expect(parseKubeletFlags([...base, '--server-tls-bootstrap']).serverTLSBootstrap).toBe(true);
    expect(parseKubeletFlags(base).serverTLSBootstrap).toBeUndefined();
  });

  it("takes kube's container log rotation flags", () => {
    const base = ['--kubeconfig', 'k', '--node-name', 'n', '--data-dir', 'd'];
    expect(
      parseKubeletFlags([...base, '--container-log-max-size', '5Mi', '--container-log-max-files', '3']),
    ).toMatchObject({ containerLogMaxSize: '5Mi', containerLogMaxFiles: 3 });
    expect(() => parseKubeletFlags([...base, '--container-log-max-files', '1'])).toThrow(
      '--container-log-max-files must be an integer of at least 2',
    );
  });

  it('names the flag that is missing or wrong', () => {
    expect(() => parseKubeletFlags(['--node-name', 'n', '--data-dir', 'd'])).toThrow('--kubeconfig is required');
    expect(() =>
      parseKubeletFlags(['--kubeconfig', 'k', '--node-name', 'n', '--data-dir', 'd', '--port', 'x']),
    ).toThrow('--port must be a port number');
    expect(() =>
      parseKubeletFlags(['--kubeconfig', 'k', '--node-name', 'n', '--data-dir', 'd', '--node-labels', 'oops']),
    ).toThrow('expected key=value');
    expect(() => parseKubeletFlags(['--bogus'])).toThrow(/bogus/);
  });
});

// The kubelet unit Gardener renders for its nodes, as ExecStart arguments.
const gardenerFlags = [
  '--bootstrap-kubeconfig=/var/lib/kubelet/kubeconfig-bootstrap',
  '--config=/var/lib/kubelet/config/kubelet',
  '--kubeconfig=/var/lib/kubelet/kubeconfig-real',
  '--node-labels=worker.gardener.cloud/kubernetes-version=1.33.0',
  '--node-labels=worker.gardener.cloud/pool=worker,topology.kubernetes.io/zone=z1',
  '--container-runtime-endpoint=unix:///run/containerd/containerd.sock',
  '--runtime-cgroups=/system.slice/containerd.service',
  '--v=2',
];

describe("kube's kubelet command line", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'kubelet-flags-'));
    await mkdir(join(root, 'etc'));
    await writeFile(join(root, 'etc/hostname'), 'Machine-0\n');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("takes Gardener's kubelet unit flags below a machine's root: paths, node name, labels, ignored flags", () => {
    const line = parseKubeletCommandLine([`--rootfs=${root}`, ...gardenerFlags]);
    expect(line).toMatchObject({
      bootstrapKubeconfig: join(root, 'var/lib/kubelet/kubeconfig-bootstrap'),
      configFile: join(root, 'var/lib/kubelet/config/kubelet'),
      certDir: join(root, 'var/lib/kubelet/pki'),
      rootfs: root,
      ignored: [
        '--v=2',
        '--container-runtime-endpoint=unix:///run/containerd/containerd.sock',
        '--runtime-cgroups=/system.slice/containerd.service',
      ],
    });
    expect(line.options).toMatchObject({
      kubeconfig: join(root, 'var/lib/kubelet/kubeconfig-real'),
      // kube's default root dir and the machine's hostname, lower-cased as kube does
      dataDir: join(root, 'var/lib/kubelet'),
      nodeName: 'machine-0',
      nodeLabels: {
        'worker.gardener.cloud/kubernetes-version': '1.33.0',
        'worker.gardener.cloud/pool': 'worker',
        'topology.kubernetes.io/zone': 'z1',
      },
    });
  });

  it('takes --hostname-override, --root-dir, --cert-dir and --register-with-taints', () => {
    const { options, certDir } = parseKubeletCommandLine([
      '--kubeconfig=/k',
      '--hostname-override=node-a',
      '--root-dir=/r',
      '--cert-dir=/certs',
      '--register-with-taints=a=b:NoSchedule,c:NoExecute',
      '--register-with-taints=d=:PreferNoSchedule',
    ]);
    expect(options).toMatchObject({ nodeName: 'node-a', dataDir: '/r' });
    expect(certDir).toBe('/certs');
    expect(options.registerWithTaints).toEqual([
      { key: 'a', value: 'b', effect: 'NoSchedule' },
      { key: 'c', effect: 'NoExecute' },
      { key: 'd', effect: 'PreferNoSchedule' },
    ]);
    expect(() => parseKubeletCommandLine(['--kubeconfig=/k', '--root-dir=/r', '--register-with-taints=a=b'])).toThrow(
      'expected key=value:Effect',
    );
    expect(() => parseKubeletCommandLine(['--kubeconfig=/k'])).toThrow('--root-dir (or --data-dir) is required');
    // kube: --healthz-port=0 disables the healthz endpoint
    expect(parseKubeletCommandLine(['--kubeconfig=/k', '--root-dir=/r', '--healthz-port=0']).options.healthzPort).toBe(
      undefined,
    );
    expect(
      parseKubeletCommandLine(['--kubeconfig=/k', '--root-dir=/r', '--healthz-port=10248']).options.healthzPort,
    ).toBe(10248);
  });

  it('applies what a KubeletConfiguration sets, below the command line', async () => {
    await mkdir(join(root, 'var/lib/kubelet/config'), { recursive: true });
    await writeFile(
      join(root, 'var/lib/kubelet/config/kubelet'),
      `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication:
  x509: {clientCAFile: /var/lib/kubelet/ca.crt}
port: 10260
healthzPort: 10258
healthzBindAddress: 127.0.0.2
serverTLSBootstrap: true
containerLogMaxSize: 50Mi
containerLogMaxFiles: 3
nodeStatusUpdateFrequency: 10s
nodeStatusReportFrequency: 5m0s
nodeLeaseDurationSeconds: 40
podCIDR: 127.1.0.0/24
shutdownGracePeriod: 30s
registerWithTaints:
- {key: node.gardener.cloud/critical-components-not-ready, effect: NoSchedule}
failSwapOn: false
maxPods: 110
`,
    );
    const { options, ignored } = await kubeletOptions(
      parseKubeletCommandLine([`--rootfs=${root}`, ...gardenerFlags, '--port=10270']),
    );
    expect(options).toMatchObject({
      clientCaFile: join(root, 'var/lib/kubelet/ca.crt'),
      port: 10270, // the flag wins
      healthzPort: 10258,
      healthzBindAddress: '127.0.0.2',
      serverTLSBootstrap: true,
      containerLogMaxSize: '50Mi',
      containerLogMaxFiles: 3,
      nodeStatusUpdateMs: 10_000,
      nodeStatusReportMs: 300_000,
      leaseRenewMs: 10_000,
      podCIDR: '127.1.0.0/24',
      shutdownGraceMs: 30_000,
      registerWithTaints: [{ key: 'node.gardener.cloud/critical-components-not-ready', effect: 'NoSchedule' }],
      nodeName: 'machine-0',
    });
    expect(ignored).toEqual(
      expect.arrayContaining(['failSwapOn (KubeletConfiguration)', 'maxPods (KubeletConfiguration)']),
    );
  });

  it('resolves a relative clientCAFile from the file and names bad fields', async () => {
    const file = join(root, 'config.yaml');
    await writeFile(file, 'kind: KubeletConfiguration\nauthentication: {x509: {clientCAFile: pki/ca.crt}}\n');
    expect((await loadKubeletConfiguration(file)).options.clientCaFile).toBe(join(root, 'pki/ca.crt'));
    await writeFile(file, 'kind: KubeletConfiguration\nnodeStatusUpdateFrequency: soon\n');
    await expect(loadKubeletConfiguration(file)).rejects.toThrow('nodeStatusUpdateFrequency is not a duration: "soon"');
    await writeFile(file, 'kind: KubeletConfiguration\nregisterWithTaints: [{key: a, effect: Sometimes}]\n');
    await expect(loadKubeletConfiguration(file)).rejects.toThrow('registerWithTaints[0] needs a key and an effect');
    await writeFile(file, 'kind: KubeProxyConfiguration\n');
    await expect(loadKubeletConfiguration(file)).rejects.toThrow('expected KubeletConfiguration');
  });
});

describe('--node-labels and --register-with-taints (property)', () => {
  const key = fc.stringMatching(/^[a-z0-9]([a-z0-9.-]{0,20}[a-z0-9])?(\/[a-z0-9]([a-z0-9._-]{0,20}[a-z0-9])?)?$/);
  const value = fc.stringMatching(/^[A-Za-z0-9._-]{0,20}$/);
  const effect = fc.constantFrom('NoSchedule', 'PreferNoSchedule', 'NoExecute');

  it("reads back what kube's flag syntax writes, however the entries are split over repeated flags", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(key, value), { selector: ([k]) => k, maxLength: 6 }),
        fc.array(fc.record({ key, value, effect }), { maxLength: 6 }),
        fc.nat(6),
        (labels, taints, split) => {
          const flags = ['--kubeconfig=/k', '--root-dir=/r'];
          const labelTexts = labels.map(([k, v]) => `${k}=${v}`);
          const taintTexts = taints.map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`);
          for (const [flag, texts] of [
            ['--node-labels', labelTexts],
            ['--register-with-taints', taintTexts],
          ] as const) {
            const cut = Math.min(split, texts.length);
            for (const part of [texts.slice(0, cut), texts.slice(cut)])
              if (part.length) flags.push(`${flag}=${part.join(',')}`);
          }
          const { options } = parseKubeletCommandLine(flags);
          expect(options.nodeLabels ?? {}).toEqual(Object.fromEntries(labels));
          expect(options.registerWithTaints ?? []).toEqual(
            taints.map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect })),
          );
        },
      ),
    );
  });
});
