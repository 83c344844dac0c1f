// The built-in image map: gardener-ts's own images run their built bundles; the upstream kube-apiserver runs the local
// API server, kube-controller-manager, kube-scheduler and kube-proxy the substrate's controller manager, scheduler and
// service proxy (each with its flags translated); etcd runs the Debian etcd binary; etcd-druid's etcd-backup-restore
// image runs `gardener-local etcdbrctl` (its snapshots and restores, same commands and flags); NATS runs the Debian
// nats-server binary; the common shell images (busybox, alpine, debian, ubuntu) run the host programs their
// containers name (`sh`, `sleep`, ...), as images with no program of their own.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTAINER_COMMAND, ImageMap, type ImageMapEntry } from './image-map.js';
import { translateKubeApiServerArgs } from './kube-apiserver-flags.js';
import { translateKubeControllerManagerArgs } from './kube-controller-manager-flags.js';
import { translateKubeProxyArgs } from './kube-proxy-flags.js';
import { translateKubeSchedulerArgs } from './kube-scheduler-flags.js';

export const ETCD_BINARY = '/usr/bin/etcd';
/** Debian's nats-server package installs into /usr/sbin. */
export const NATS_SERVER_BINARY =
  ['/usr/sbin/nats-server', '/usr/bin/nats-server'].find((p) => existsSync(p)) ?? '/usr/sbin/nats-server';

// Where Gardener pulls these images from: upstream registries and the Gardener project's Artifact Registry.
const KUBE_APISERVER_REPOSITORIES = [
  'registry.k8s.io/kube-apiserver',
  'k8s.gcr.io/kube-apiserver',
  'europe-docker.pkg.dev/gardener-project/releases/hyperkube/kube-apiserver',
  'europe-docker.pkg.dev/gardener-project/public/hyperkube/kube-apiserver',
];
const KUBE_CONTROLLER_MANAGER_REPOSITORIES = [
  'registry.k8s.io/kube-controller-manager',
  'k8s.gcr.io/kube-controller-manager',
  'europe-docker.pkg.dev/gardener-project/releases/hyperkube/kube-controller-manager',
  'europe-docker.pkg.dev/gardener-project/public/hyperkube/kube-controller-manager',
];
const KUBE_SCHEDULER_REPOSITORIES = [
  'registry.k8s.io/kube-scheduler',
  'k8s.gcr.io/kube-scheduler',
  'europe-docker.pkg.dev/gardener-project/releases/hyperkube/kube-scheduler',
  'europe-docker.pkg.dev/gardener-project/public/hyperkube/kube-scheduler',
];
const KUBE_PROXY_REPOSITORIES = [
  'registry.k8s.io/kube-proxy',
  'k8s.gcr.io/kube-proxy',
  'europe-docker.pkg.dev/gardener-project/releases/hyperkube/kube-proxy',
  'europe-docker.pkg.dev/gardener-project/public/hyperkube/kube-proxy',
];
const ETCD_REPOSITORIES = [
  'registry.k8s.io/etcd',
  'quay.io/coreos/etcd',
  'gcr.io/etcd-development/etcd',
  'europe-docker.pkg.dev/gardener-project/releases/gardener/etcd',
  'europe-docker.pkg.dev/gardener-project/public/gardener/etcd',
];
// etcd-druid's etcd-backup-restore image (its image vector's `etcd-backup-restore`).
const ETCD_BACKUP_RESTORE_REPOSITORIES = [
  'europe-docker.pkg.dev/gardener-project/releases/gardener/etcdbrctl',
  'europe-docker.pkg.dev/gardener-project/public/gardener/etcdbrctl',
];
// Machine images: ours, and Gardener's provider-local node image (the CloudProfile's `machineImages[local]` providerConfig).
const MACHINE_IMAGES = ['gardener-ts/machine', 'local-skaffold/gardener-extension-provider-local/node'];
// provider-local's bastion Pods (its Bastion actuator's image): the bastion program bundled with provider-local.
const BASTION_IMAGES = ['gardener-ts/bastion'];
// The official NATS image, as Docker Hub names it with and without its registry.
const NATS_REPOSITORIES = dockerHub('nats');
// Shell images and their default command (the image's cmd, run when a container sets neither command nor args): as
// Docker Hub names them, Gardener's mirror (provider-local's `local-ext-shoot-after-worker` runs its alpine) and the
// Kubernetes e2e busybox that Gardener's testing guidelines recommend.
const GARDENER_MIRROR = 'europe-docker.pkg.dev/gardener-project/releases/3rd';
const SHELL_IMAGES: { repositories: string[]; cmd: string[] }[] = [
  {
    repositories: [...dockerHub('busybox'), `${GARDENER_MIRROR}/busybox`, 'registry.k8s.io/e2e-test-images/busybox'],
    cmd: ['sh'],
  },
  { repositories: [...dockerHub('alpine'), `${GARDENER_MIRROR}/alpine`], cmd: ['/bin/sh'] },
  { repositories: dockerHub('debian'), cmd: ['bash'] },
  { repositories: dockerHub('ubuntu'), cmd: ['/bin/bash'] },
];

/** An official Docker Hub image under the names it goes by, with and without its registry. */
function dockerHub(name: string): string[] {
  return [name, `docker.io/library/${name}`, `docker.io/${name}`, `library/${name}`];
}

export interface BuiltinImageMapOptions {
  /** The gardener-ts workspace whose `dist/` holds the built apps and tools. */
  workspace: string;
  /** The Node.js binary that runs them; the kubelet's own by default. */
  node?: string;
  /** V8 flags the binary runs them with; NODE_FLAGS by default. */
  nodeFlags?: readonly string[];
}

/**
 * V8 flags of every Node.js program the image map starts. `--max-semi-space-size=1` (MiB) caps the young generation
 * at 3 MiB instead of V8's 16–32 MiB semi-spaces: the components are many small processes whose young generation is
 * mostly garbage at any moment, so the cap saves 10–50 MiB of resident memory per process (the shoot's
 * kube-apiserver: 105 → 78 MiB PSS) at no measured cost in the shoot's create time (bench/shoot, bench/RESULTS.md).
 * `--v8-pool-size=1` keeps one V8 worker thread instead of Node's four (with {@link NODE_ENV}'s two malloc arenas:
 * 5182 → 5023 MiB PSS for ten shoots, bench/shoots); `--single-threaded` saved nothing and slowed the create.
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1', '--v8-pool-size=1'];

/** Where Debian (and other distributions) install jemalloc's shared library. */
const JEMALLOC_PATHS = [
  '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2',
  '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2',
  '/usr/lib64/libjemalloc.so.2',
  '/usr/lib/libjemalloc.so.2',
];

/**
 * The environment that loads jemalloc into a Node.js program, when the machine has it (bootstrap.sh installs Debian's
 * libjemalloc2); none otherwise. glibc's malloc keeps what V8 frees in the middle of its heap: the memory V8 parses and
 * compiles a bundle in stays resident, about 10 MiB for a 2 MB bundle. jemalloc gives free pages back: a background
 * thread purges them after a second (`dirty_decay_ms`, without the start-up cost of purging at once), one arena and no
 * thread caches since the components allocate off the V8 heap from one thread. The shoot's kube-scheduler: 35 → 28 MiB
 * of anonymous memory after start (bench/RESULTS.md, stop 36).
 */
export function jemallocEnv(paths: readonly string[] = JEMALLOC_PATHS): Record<string, string> {
  const library = paths.find((path) => existsSync(path));
  if (!library) return {};
  return {
    LD_PRELOAD: library,
    MALLOC_CONF: 'narenas:1,tcache:false,dirty_decay_ms:1000,muzzy_decay_ms:0,background_thread:true',
  };
}

/**
 * The environment of every Node.js program the image map starts. Node's compile cache, shared by all of them (keyed
 * by the source's hash): a component's bundle is compiled once per build, not once per Pod start (less CPU and memory
 * at start). jemalloc where the machine has it ({@link jemallocEnv}); for glibc's malloc otherwise
 * `MALLOC_ARENA_MAX=2`: glibc gives each thread that allocates its own arena (up to 8 per core), whose freed pages
 * stay resident; the components allocate little off the V8 heap, so two arenas serve them.
 */
export const NODE_ENV: Readonly<Record<string, string>> = {
  NODE_COMPILE_CACHE: join(tmpdir(), 'node-compile-cache'),
  MALLOC_ARENA_MAX: '2',
  ...jemallocEnv(),
};

export function builtinImageMap({
  workspace,
  node: nodeBinary = process.execPath,
  nodeFlags = NODE_FLAGS,
}: BuiltinImageMapOptions): ImageMap {
  const node = [nodeBinary, ...nodeFlags];
  // Each upstream image runs its own program of tools/gardener-local (src/images), what `gardener-local <command>`
  // runs, bundled alone.
  const program = (name: string) => join(workspace, `dist/tools/gardener-local/images/${name}.js`);
  const env = { ...NODE_ENV };
  const localApiServer: Omit<ImageMapEntry, 'image'> = {
    command: [...node, program('kube-apiserver')],
    env,
    binaries: ['kube-apiserver'],
    translateArgs: translateKubeApiServerArgs,
  };
  const localControllerManager: Omit<ImageMapEntry, 'image'> = {
    command: [...node, program('kube-controller-manager')],
    env,
    binaries: ['kube-controller-manager'],
    translateArgs: translateKubeControllerManagerArgs,
  };
  const localScheduler: Omit<ImageMapEntry, 'image'> = {
    command: [...node, program('kube-scheduler')],
    env,
    binaries: ['kube-scheduler'],
    translateArgs: translateKubeSchedulerArgs,
  };
  const localProxy: Omit<ImageMapEntry, 'image'> = {
    command: [...node, program('kube-proxy')],
    env,
    binaries: ['kube-proxy'],
    translateArgs: translateKubeProxyArgs,
  };
  const etcd: Omit<ImageMapEntry, 'image'> = { command: [ETCD_BINARY], binaries: ['etcd'] };
  const etcdBackupRestore: Omit<ImageMapEntry, 'image'> = {
    command: [...node, program('etcdbrctl')],
    env,
    binaries: ['etcdbrctl'],
  };
  const nats: Omit<ImageMapEntry, 'image'> = { command: [NATS_SERVER_BINARY], binaries: ['nats-server'] };
  return new ImageMap([
    { prefix: 'gardener-ts/', command: [...node, join(workspace, 'dist/apps/${suffix}/main.js')], env },
    // provider-local's machine Pods: the machine program bundled with node-agent — under our name, and under the node
    // image Gardener's provider-local CloudProfile names for its machine image `local`.
    ...MACHINE_IMAGES.map((image) => ({
      image,
      command: [...node, join(workspace, 'dist/apps/node-agent/machine.js')],
      env,
    })),
    ...BASTION_IMAGES.map((image) => ({
      image,
      command: [...node, join(workspace, 'dist/apps/provider-local/bastion.js')],
      env,
    })),
    ...KUBE_APISERVER_REPOSITORIES.map((image) => ({ image, ...localApiServer })),
    ...KUBE_CONTROLLER_MANAGER_REPOSITORIES.map((image) => ({ image, ...localControllerManager })),
    ...KUBE_SCHEDULER_REPOSITORIES.map((image) => ({ image, ...localScheduler })),
    ...KUBE_PROXY_REPOSITORIES.map((image) => ({ image, ...localProxy })),
    ...ETCD_REPOSITORIES.map((image) => ({ image, ...etcd })),
    ...ETCD_BACKUP_RESTORE_REPOSITORIES.map((image) => ({ image, ...etcdBackupRestore })),
    ...NATS_REPOSITORIES.map((image) => ({ image, ...nats })),
    ...SHELL_IMAGES.flatMap(({ repositories, cmd }) =>
      repositories.map((image) => ({ image, command: CONTAINER_COMMAND, args: cmd })),
    ),
  ]);
}
