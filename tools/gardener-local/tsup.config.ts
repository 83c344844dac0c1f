import { copyFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';
import { appBuild } from '../../tsup.shared.js';

const build = appBuild(
  'gardener-local',
  { cli: 'src/cli.ts', 'kubelet-run': 'src/kubelet-run.ts' },
  '../../dist/tools/gardener-local',
  ['etcd3'],
) as Options;
const from = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The kubelet gives Node.js pods a preload module by path (see local-cluster's pod-network.ts); it ships next to the bundle.
// The CLI is split at its commands' dynamic imports (cli.ts): each command loads only its own chunks.
const config: Options = {
  ...build,
  splitting: true,
  onSuccess: () =>
    copyFile(
      from('../../libs/local-cluster/src/network/pod-network.mjs'),
      from('../../dist/tools/gardener-local/pod-network.mjs'),
    ),
};
export default config;
