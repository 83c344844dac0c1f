// Everything a container run needs before its process starts: the program from the image map, its environment,
// mount paths and working directory. Failures carry the waiting reason the container status shows; a command naming
// no program of the image fails as a missing binary does (MissingBinaryError). Directories the kubelet makes for the
// container stay inside the pod directory or the mount they belong to.
import { mkdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type * as k8s from '@kubernetes/client-node';
import type { Logger } from '@gardener-ts/logging';
import type { ImageMap } from '../../images/image-map.js';
import { execArgv, hostPrograms, programArgv } from '../../images/program.js';
import { assertResolvesWithin, confinedJoin } from '../volumes/confined-path.js';
import {
  assertMountsConfined,
  containerMounts,
  mountsJson,
  MOUNTS_ENV,
  rewriteMountPaths,
  type Mount,
} from '../volumes/mounts.js';
import type { ContainerSetup } from './container-state.js';
import { podNetworkEnv } from '../../network/pod-network.js';
import { containerEnv, expandReferences } from './env.js';
import { HOST_IP } from './field-path.js';
import type { ObjectReader } from './object-reader.js';

export class StartError extends Error {
  constructor(
    readonly reason: 'ErrImagePull' | 'CreateContainerConfigError',
    message: string,
  ) {
    super(message);
  }
}

export interface SetupContext {
  pod: k8s.V1Pod;
  podDir: string;
  container: k8s.V1Container;
  volumeDirs: Map<string, string>;
  imageMap: ImageMap;
  reader: ObjectReader;
  allocatable: Record<string, string>;
  /** Variables every container gets first (PATH, KUBERNETES_SERVICE_HOST, ...). */
  baseEnv: Record<string, string>;
  /** The /24 of addresses the Pod was given for the Pods of the node it runs (see PodIPs), if any. */
  podRange?: string;
  log: Logger;
}

/**
 * `<pod dir>/containers/<name>`: `root` is the default working directory, `state` the stand-ins' data dir. Throws a
 * PathEscapeError for a name that would leave `containers/`.
 */
export function containerDir(podDir: string, name: string): string {
  return confinedJoin(join(podDir, 'containers'), [name]);
}

/**
 * Prepares one run of a container. Throws a StartError with the waiting reason when its image or configuration is
 * not usable, and a MissingBinaryError when its command names no program of the image.
 */
export async function prepareContainer(ctx: SetupContext): Promise<ContainerSetup> {
  const { container, pod } = ctx;
  const image = container.image ?? '';
  const resolved = image ? ctx.imageMap.resolve(image) : undefined;
  if (!resolved) {
    throw new StartError(
      'ErrImagePull',
      `image "${image}" is not in the image map: no local program is known for it (add an entry to the image map file)`,
    );
  }
  let env: Record<string, string>;
  let mounts;
  const podIP = pod.status?.podIP;
  const own = { ...ctx.baseEnv, HOSTNAME: pod.metadata?.name ?? '', ...resolved.env };
  // A Pod with its own address gets it, and Node.js programs the preload that binds wildcard listens to it (and
  // reaches Services by name and ClusterIP).
  const base: Record<string, string> =
    podIP && podIP !== HOST_IP ? podNetworkEnv(podIP, own, pod.metadata?.namespace, ctx.podRange) : own;
  let dir: string;
  try {
    dir = await assertResolvesWithin(ctx.podDir, containerDir(ctx.podDir, container.name));
    mounts = containerMounts(container, ctx.volumeDirs);
    await assertMountsConfined(mounts);
    env = keepPodNetworkPreload(
      await containerEnv({ pod, container, reader: ctx.reader, allocatable: ctx.allocatable }, base),
      base,
    );
  } catch (err) {
    throw new StartError('CreateContainerConfigError', (err as Error).message);
  }
  const stateDir = join(dir, 'state');
  // Only what the Pod spec wrote is in the Pod's view of the filesystem: the image map's program and the kubelet's
  // own variables are host paths already.
  const fromSpec = (s: string) =>
    rewriteMountPaths(
      expandReferences(s, (name) => env[name]),
      mounts,
    );
  // An image of host programs finds them on the container's PATH (the host's unless the Pod sets its own).
  const path = env.PATH === undefined || env.PATH === base.PATH ? env.PATH : rewriteMountPaths(env.PATH, mounts);
  const programs = hostPrograms(path ?? '');
  const argv = programArgv(
    resolved,
    { command: container.command?.map(fromSpec), args: container.args?.map(fromSpec) },
    {
      stateDir,
      ignored: (flag) =>
        ctx.log.info({ container: container.name, flag }, 'Argument not supported by the local stand-in, ignored'),
    },
    programs,
  );
  for (const [k, v] of Object.entries(env)) if (base[k] !== v) env[k] = rewriteMountPaths(v, mounts);
  env[MOUNTS_ENV] = mountsJson(mounts);
  const root = join(dir, 'root');
  let cwd = root;
  try {
    if (container.workingDir) cwd = await workingDir(container.workingDir, mounts, root);
  } catch (err) {
    throw new StartError(
      'CreateContainerConfigError',
      `workingDir ${JSON.stringify(container.workingDir)}: ${(err as Error).message}`,
    );
  }
  await mkdir(cwd, { recursive: true });
  await mkdir(stateDir, { recursive: true });
  return {
    argv,
    env,
    cwd,
    imageID: `local://${resolved.command[0] ?? argv[0]}`,
    exec: (command) => execArgv(resolved, command, programs),
  };
}

/**
 * A workingDir is a path in the container's filesystem: `..` stops at its root, as in a container. Under a mount
 * path it is inside that mount's directory, anywhere else inside the container's root directory.
 */
async function workingDir(path: string, mounts: Mount[], root: string): Promise<string> {
  const clean = posix.resolve('/', path);
  const mount = mounts
    .filter((m) => clean === m.mountPath || clean.startsWith(m.mountPath === '/' ? '/' : `${m.mountPath}/`))
    .sort((a, b) => b.mountPath.length - a.mountPath.length)[0];
  const base = mount ? mount.hostPath : root;
  const rest = mount ? posix.relative(mount.mountPath, clean) : clean.slice(1);
  return assertResolvesWithin(base, rest ? confinedJoin(base, [rest]) : base);
}

/**
 * A container that sets NODE_OPTIONS itself (`--max-old-space-size`, `--cpu-prof`) keeps the pod network preload of
 * `base` after its own options: without it a Node.js program would lose its Pod address and Service names.
 */
export function keepPodNetworkPreload(
  env: Record<string, string>,
  base: Record<string, string>,
): Record<string, string> {
  const preload = base.NODE_OPTIONS?.split(' ').find((option) => option.startsWith('--import='));
  if (!preload || env.NODE_OPTIONS === undefined || env.NODE_OPTIONS.split(' ').includes(preload)) return env;
  return { ...env, NODE_OPTIONS: [env.NODE_OPTIONS, preload].filter(Boolean).join(' ') };
}
