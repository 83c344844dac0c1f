import { copyFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';
import { appBuild } from '../../tsup.shared.js';

const from = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The CLI is split at its commands' dynamic imports (cli.ts): each command loads only its own chunks. Its `clean`
// leaves images/ to the second build.
const cli = appBuild('gardener-local', { cli: 'src/cli.ts' }, '../../dist/tools/gardener-local', ['etcd3']) as Options;

// The local images' programs (src/images), each bundled alone: esbuild's code splitting gives a chunk every module
// any command reaches through a library's index, whether that command uses it or not; a bundle of its own keeps only
// what its program runs (the kube-scheduler 2.2 MB instead of the 5.4 MB of chunks `cli.js scheduler` loads).
const images = appBuild(
  'gardener-local-images',
  Object.fromEntries(
    ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kube-proxy', 'etcdbrctl', 'kubelet'].map(
      (name) => [name, `src/images/${name}.ts`],
    ),
  ),
  '../../dist/tools/gardener-local/images',
  ['etcd3'],
) as Options;

const config: Options[] = [
  {
    ...cli,
    splitting: true,
    clean: ['!images/**'],
    // The kubelet gives Node.js pods a preload module by path (see local-cluster's pod-network.ts); it ships next to
    // the CLI, and images/kubelet.js (a shoot machine's kubelet) uses the same file one folder up. The preload takes
    // the folder three levels above it for the workspace, so it must not be copied into images/.
    onSuccess: () =>
      copyFile(
        from('../../libs/local-cluster/src/network/pod-network.mjs'),
        from('../../dist/tools/gardener-local/pod-network.mjs'),
      ),
  },
  images,
];
export default config;
