// The built-in image map: gardener-ts's own images run their built bundles; the upstream kube-apiserver runs the local
// API server; etcd runs the Debian etcd binary.
import { join } from 'node:path';
import { ImageMap, type ImageMapEntry } from './image-map.js';
import { translateKubeApiServerArgs } from './kube-apiserver-flags.js';

export const ETCD_BINARY = '/usr/bin/etcd';

// Where Gardener pulls these images from: upstream registries and the Gardener project's Artifact Registry.
const KUBE_APISERVER_REPOSITORIES = [
  'registry.k8s.io/kube-apiserver',
  'k8s.gcr.io/kube-apiserver',
  'europe-docker.pkg.dev/gardener-project/releases/hyperkube/kube-apiserver',
  'europe-docker.pkg.dev/gardener-project/public/hyperkube/kube-apiserver',
];
const ETCD_REPOSITORIES = [
  'registry.k8s.io/etcd',
  'quay.io/coreos/etcd',
  'gcr.io/etcd-development/etcd',
  'europe-docker.pkg.dev/gardener-project/releases/gardener/etcd',
  'europe-docker.pkg.dev/gardener-project/public/gardener/etcd',
];

export interface BuiltinImageMapOptions {
  /** The gardener-ts workspace whose `dist/` holds the built apps and tools. */
  workspace: string;
  /** The Node.js binary that runs them; the kubelet's own by default. */
  node?: string;
}

export function builtinImageMap({ workspace, node = process.execPath }: BuiltinImageMapOptions): ImageMap {
  const localApiServer: Omit<ImageMapEntry, 'image'> = {
    command: [node, join(workspace, 'dist/tools/gardener-local/cli.js'), 'apiserver'],
    binaries: ['kube-apiserver'],
    translateArgs: translateKubeApiServerArgs,
  };
  const etcd: Omit<ImageMapEntry, 'image'> = { command: [ETCD_BINARY], binaries: ['etcd'] };
  return new ImageMap([
    { prefix: 'gardener-ts/', command: [node, join(workspace, 'dist/apps/${suffix}/main.js')] },
    ...KUBE_APISERVER_REPOSITORIES.map((image) => ({ image, ...localApiServer })),
    ...ETCD_REPOSITORIES.map((image) => ({ image, ...etcd })),
  ]);
}
