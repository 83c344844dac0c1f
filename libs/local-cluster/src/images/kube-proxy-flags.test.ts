import { describe, expect, it } from 'vitest';
import { builtinImageMap } from './builtin.js';
import { programArgv } from './program.js';

describe('translateKubeProxyArgs', () => {
  it("runs Gardener's shoot kube-proxy as `gardener-local proxy` publishing the node's Service table", () => {
    const ignored: string[] = [];
    const image = builtinImageMap({ workspace: '/ws', node: '/node', nodeFlags: [] }).resolve(
      'registry.k8s.io/kube-proxy:v1.33.0',
    )!;
    // The container of Gardener's kube-proxy DaemonSet (pkg/component/kubernetes/proxy).
    const argv = programArgv(
      image,
      { command: ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy-config/config.yaml', '--v=2'] },
      { stateDir: '/state', ignored: (f) => ignored.push(f) },
    );
    expect(argv).toEqual([
      '/node',
      '/ws/dist/tools/gardener-local/images/kube-proxy.js',
      '--config',
      '/var/lib/kube-proxy-config/config.yaml',
      '--log-level',
      'info',
      '--state-file',
      '/var/lib/kube-proxy/services.json',
    ]);
    expect(ignored).toEqual([]);
  });

  it('drops what the local proxy has no counterpart for, and says so', () => {
    const ignored: string[] = [];
    const image = builtinImageMap({ workspace: '/ws', node: '/node', nodeFlags: [] }).resolve(
      'registry.k8s.io/kube-proxy:v1.33.0',
    )!;
    const argv = programArgv(
      image,
      {
        command: [
          'kube-proxy',
          '--kubeconfig=/k',
          '--proxy-mode=ipvs',
          '--masquerade-all',
          '--cluster-cidr',
          '10.0.0.0/8',
        ],
      },
      { stateDir: '/state', ignored: (f) => ignored.push(f) },
    );
    expect(argv.slice(2)).toEqual(['--kubeconfig', '/k', '--state-file', '/var/lib/kube-proxy/services.json']);
    expect(ignored).toEqual(['--proxy-mode', '--masquerade-all', '--cluster-cidr']);
  });
});
