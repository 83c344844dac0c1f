import { describe, expect, it } from 'vitest';
import { builtinImageMap } from './builtin.js';
import { translateKubeSchedulerArgs } from './kube-scheduler-flags.js';
import { programArgv } from './program.js';

describe('translateKubeSchedulerArgs', () => {
  it("runs Gardener's shoot kube-scheduler as `gardener-local scheduler`, reporting the rest", () => {
    const ignored: string[] = [];
    const kubeconfig = '/var/run/secrets/gardener.cloud/shoot/generic-kubeconfig/kubeconfig';
    const image = builtinImageMap({ workspace: '/ws', node: '/node', nodeFlags: [] }).resolve(
      'registry.k8s.io/kube-scheduler:v1.33.0',
    )!;
    // The container Gardener's kube-scheduler Deployment of a shoot has (pkg/component/kubernetes/scheduler).
    const argv = programArgv(
      image,
      {
        command: ['/usr/local/bin/kube-scheduler'],
        args: [
          '--config=/var/lib/kube-scheduler-config/config.yaml',
          `--authentication-kubeconfig=${kubeconfig}`,
          `--authorization-kubeconfig=${kubeconfig}`,
          '--client-ca-file=/var/lib/kube-scheduler-server/ca.crt',
          '--secure-port=10259',
          '--tls-cert-file=/var/lib/kube-scheduler-server/tls.crt',
          '--tls-private-key-file=/var/lib/kube-scheduler-server/tls.key',
          '--v=2',
        ],
      },
      { stateDir: '/state', ignored: (f) => ignored.push(f) },
    );
    expect(argv).toEqual([
      '/node',
      '/ws/dist/tools/gardener-local/images/kube-scheduler.js',
      '--config',
      '/var/lib/kube-scheduler-config/config.yaml',
      '--secure-port',
      '10259',
      '--tls-cert-file',
      '/var/lib/kube-scheduler-server/tls.crt',
      '--tls-private-key-file',
      '/var/lib/kube-scheduler-server/tls.key',
      '--log-level',
      'info',
    ]);
    expect(ignored).toEqual(['--authentication-kubeconfig', '--authorization-kubeconfig', '--client-ca-file']);
  });

  it('maps the hyperkube mirrors and a bare kube-scheduler command the same way', () => {
    const map = builtinImageMap({ workspace: '/ws', node: '/node', nodeFlags: [] });
    const image = map.resolve('europe-docker.pkg.dev/gardener-project/releases/hyperkube/kube-scheduler:v1.33.0')!;
    expect(
      programArgv(
        image,
        { command: ['kube-scheduler', '--kubeconfig', '/k', '--leader-elect=false'] },
        {
          stateDir: '/s',
          ignored: () => undefined,
        },
      ),
    ).toEqual([
      '/node',
      '/ws/dist/tools/gardener-local/images/kube-scheduler.js',
      '--kubeconfig',
      '/k',
      '--no-leader-elect',
    ]);
  });

  it('refuses --config without a value', () => {
    expect(() => translateKubeSchedulerArgs(['--config='], { stateDir: '/s', ignored: () => undefined })).toThrow(
      'kube-scheduler flag --config needs a value',
    );
  });
});
