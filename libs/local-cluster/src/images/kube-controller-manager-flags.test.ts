import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinImageMap } from './builtin.js';
import type { TranslationContext } from './image-map.js';
import {
  KUBE_CONTROLLER_MANAGER_CONTROLLERS,
  selectKubeControllers,
  translateKubeControllerManagerArgs,
} from './kube-controller-manager-flags.js';
import { programArgv } from './program.js';

const context = (ignored: string[] = []): TranslationContext => ({
  stateDir: '/state',
  ignored: (f) => ignored.push(f),
});

// The arguments Gardener's kube-controller-manager Deployment of a shoot with workers passes
// (pkg/component/kubernetes/controllermanager), as the gardenlet renders them.
const gardenerArgs = [
  '--allocate-node-cidrs=true',
  '--cluster-cidr=10.3.0.0/16',
  '--authentication-kubeconfig=/var/run/secrets/gardener.cloud/shoot/generic-kubeconfig/kubeconfig',
  '--authorization-kubeconfig=/var/run/secrets/gardener.cloud/shoot/generic-kubeconfig/kubeconfig',
  '--kubeconfig=/var/run/secrets/gardener.cloud/shoot/generic-kubeconfig/kubeconfig',
  '--cluster-name=shoot--local--local',
  '--cluster-signing-duration=720h',
  '--cluster-signing-kube-apiserver-client-cert-file=/srv/kubernetes/ca-client/ca.crt',
  '--cluster-signing-kube-apiserver-client-key-file=/srv/kubernetes/ca-client/ca.key',
  '--cluster-signing-kubelet-client-cert-file=/srv/kubernetes/ca-client/ca.crt',
  '--cluster-signing-kubelet-client-key-file=/srv/kubernetes/ca-client/ca.key',
  '--cluster-signing-kubelet-serving-cert-file=/srv/kubernetes/ca-kubelet/ca.crt',
  '--cluster-signing-kubelet-serving-key-file=/srv/kubernetes/ca-kubelet/ca.key',
  '--controllers=*,bootstrapsigner,tokencleaner',
  '--leader-elect=true',
  '--node-monitor-grace-period=40s',
  '--root-ca-file=/srv/kubernetes/ca/bundle.crt',
  '--secure-port=10257',
  '--service-account-private-key-file=/srv/kubernetes/service-account-key/id_rsa',
  '--service-cluster-ip-range=10.4.0.0/16',
  '--tls-cert-file=/var/lib/kube-controller-manager-server/tls.crt',
  '--tls-private-key-file=/var/lib/kube-controller-manager-server/tls.key',
  '--use-service-account-credentials=true',
  '--v=2',
];

describe('translateKubeControllerManagerArgs', () => {
  it("runs Gardener's shoot kube-controller-manager as `gardener-local controller-manager`, reporting the rest", () => {
    const ignored: string[] = [];
    const image = builtinImageMap({ workspace: '/ws', node: '/node', nodeFlags: [] }).resolve(
      'registry.k8s.io/kube-controller-manager:v1.33.0',
    )!;
    const argv = programArgv(
      image,
      { command: ['/usr/local/bin/kube-controller-manager'], args: gardenerArgs },
      context(ignored),
    );
    const kubeconfig = '/var/run/secrets/gardener.cloud/shoot/generic-kubeconfig/kubeconfig';
    expect(argv).toEqual([
      '/node',
      '/ws/dist/tools/gardener-local/images/kube-controller-manager.js',
      '--kubeconfig',
      kubeconfig,
      '--cluster-signing-duration',
      '720h',
      '--cluster-signing-kube-apiserver-client-cert-file',
      '/srv/kubernetes/ca-client/ca.crt',
      '--cluster-signing-kube-apiserver-client-key-file',
      '/srv/kubernetes/ca-client/ca.key',
      '--cluster-signing-kubelet-client-cert-file',
      '/srv/kubernetes/ca-client/ca.crt',
      '--cluster-signing-kubelet-client-key-file',
      '/srv/kubernetes/ca-client/ca.key',
      '--cluster-signing-kubelet-serving-cert-file',
      '/srv/kubernetes/ca-kubelet/ca.crt',
      '--cluster-signing-kubelet-serving-key-file',
      '/srv/kubernetes/ca-kubelet/ca.key',
      '--controllers',
      KUBE_CONTROLLER_MANAGER_CONTROLLERS.join(','),
      '--leader-elect',
      '--node-monitor-grace-period',
      '40s',
      '--root-ca-file',
      '/srv/kubernetes/ca/bundle.crt',
      '--secure-port',
      '10257',
      '--tls-cert-file',
      '/var/lib/kube-controller-manager-server/tls.crt',
      '--tls-private-key-file',
      '/var/lib/kube-controller-manager-server/tls.key',
      '--use-service-account-credentials',
      '--log-level',
      'info',
    ]);
    expect(ignored).toEqual([
      '--allocate-node-cidrs',
      '--cluster-cidr',
      '--authentication-kubeconfig',
      '--authorization-kubeconfig',
      '--cluster-name',
      '--controllers=bootstrapsigner',
      '--controllers=tokencleaner',
      '--service-account-private-key-file',
      '--service-cluster-ip-range',
    ]);
  });

  it('passes the CA files of all signers through, but not the legacy-unknown signer the local signer lacks', () => {
    const ignored: string[] = [];
    const argv = translateKubeControllerManagerArgs(
      [
        '--cluster-signing-cert-file=/srv/kubernetes/ca/ca.crt',
        '--cluster-signing-key-file',
        '/srv/kubernetes/ca/ca.key',
        '--cluster-signing-legacy-unknown-cert-file=/srv/kubernetes/ca/ca.crt',
        '--cluster-signing-legacy-unknown-key-file=/srv/kubernetes/ca/ca.key',
      ],
      context(ignored),
    );
    expect(argv).toEqual([
      '--cluster-signing-cert-file',
      '/srv/kubernetes/ca/ca.crt',
      '--cluster-signing-key-file',
      '/srv/kubernetes/ca/ca.key',
    ]);
    expect(ignored).toEqual([
      '--cluster-signing-legacy-unknown-cert-file',
      '--cluster-signing-legacy-unknown-key-file',
    ]);
  });

  it('passes --root-ca-file through, in either spelling, and does not report it', () => {
    for (const args of [['--root-ca-file=/x'], ['--root-ca-file', '/x']]) {
      const ignored: string[] = [];
      expect(translateKubeControllerManagerArgs(args, context(ignored))).toEqual(['--root-ca-file', '/x']);
      expect(ignored).toEqual([]);
    }
    expect(() => translateKubeControllerManagerArgs(['--root-ca-file='], context())).toThrow(
      'kube-controller-manager flag --root-ca-file needs a value',
    );
  });

  it('maps the hyperkube mirrors the same way', () => {
    const map = builtinImageMap({ workspace: '/ws', node: '/node', nodeFlags: [] });
    for (const image of [
      'europe-docker.pkg.dev/gardener-project/releases/hyperkube/kube-controller-manager:v1.33.0',
      'europe-docker.pkg.dev/gardener-project/public/hyperkube/kube-controller-manager:v1.31.1',
    ])
      expect(map.resolve(image)?.command.at(-1), image).toBe(
        '/ws/dist/tools/gardener-local/images/kube-controller-manager.js',
      );
  });

  it('takes space-separated values and a bare boolean without eating the next flag', () => {
    const argv = translateKubeControllerManagerArgs(
      ['--kubeconfig', '/k', '--leader-elect', '--secure-port', '0', '--leader-elect=false', '-v', '4'],
      context(),
    );
    expect(argv).toEqual([
      '--kubeconfig',
      '/k',
      '--leader-elect',
      '--secure-port',
      '0',
      '--no-leader-elect',
      '--log-level',
      'debug',
    ]);
  });

  it('refuses a flag without its value and a boolean that is none', () => {
    expect(() => translateKubeControllerManagerArgs(['--kubeconfig='], context())).toThrow(
      'kube-controller-manager flag --kubeconfig needs a value',
    );
    expect(() => translateKubeControllerManagerArgs(['--leader-elect=maybe'], context())).toThrow(
      'kube-controller-manager flag --leader-elect: "maybe" is not a boolean',
    );
  });
});

describe('selectKubeControllers', () => {
  it("reads Gardener's workerless list: everything on by default but the node controllers", () => {
    expect(selectKubeControllers('*,bootstrapsigner,tokencleaner,-nodeipam,-nodelifecycle,-attachdetach')).toEqual({
      controllers: KUBE_CONTROLLER_MANAGER_CONTROLLERS.filter((c) => c !== 'nodelifecycle'),
      unknown: ['bootstrapsigner', 'tokencleaner', '-nodeipam', '-attachdetach'],
    });
  });

  it('takes kube names and their aliases; without * only the named ones', () => {
    expect(selectKubeControllers('replicaset-controller,deployment,endpoint,taint-eviction-controller')).toEqual({
      controllers: ['replicaset', 'deployment', 'endpoints', 'tainteviction'],
      unknown: [],
    });
    expect(selectKubeControllers('constructor,scheduler').controllers).toEqual([]);
    expect(selectKubeControllers('root-ca-certificate-publisher-controller')).toEqual({
      controllers: ['root-ca-cert-publisher'],
      unknown: [],
    });
    expect(selectKubeControllers('*,-root-ca-cert-publisher').controllers).not.toContain('root-ca-cert-publisher');
    expect(selectKubeControllers('*').controllers).toContain('root-ca-cert-publisher');
  });

  const kubeNames = fc.constantFrom(
    'deployment',
    'replicaset-controller',
    'job',
    'cronjob-controller',
    'statefulset',
    'daemonset-controller',
    'endpoint',
    'endpointslice',
    'disruption',
    'nodelifecycle',
    'taint-eviction-controller',
  );

  it('is a set operation: order does not matter and an explicit -name always wins', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            kubeNames,
            kubeNames.map((n) => `-${n}`),
            fc.constant('*'),
          ),
          { maxLength: 12 },
        ),
        fc.array(kubeNames, { maxLength: 4 }),
        (words, disabled) => {
          const list = [...words, ...disabled.map((n) => `-${n}`)];
          const selected = selectKubeControllers(list.join(',')).controllers;
          expect(selectKubeControllers([...list].reverse().join(',')).controllers).toEqual(selected);
          for (const name of disabled) {
            const ours = selectKubeControllers(name).controllers;
            expect(ours).toHaveLength(1);
            expect(selected).not.toContain(ours[0]);
          }
          if (list.includes('*') && !list.some((w) => w.startsWith('-'))) {
            expect(selected).toEqual(KUBE_CONTROLLER_MANAGER_CONTROLLERS);
          }
        },
      ),
    );
  });
});
