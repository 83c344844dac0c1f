// Everything a container run needs before its process starts: the program from the image map, its environment,
// mount paths and working directory. Failures carry the waiting reason the container status shows.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type * as k8s from '@kubernetes/client-node';
import type { Logger } from '@gardener-ts/logging';
import type { ImageMap } from '../../images/image-map.js';
import { programArgv } from '../../images/program.js';
import { containerMounts, mountsJson, MOUNTS_ENV, rewriteMountPaths } from '../volumes/mounts.js';
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
  log: Logger;
}

/** `<pod dir>/containers/<name>`: `root` is the default working directory, `state` the stand-ins' data dir. */
export function containerDir(podDir: string, name: string): string {
  return join(podDir, 'containers', name);
}

export async function prepareContainer(ctx: SetupContext): Promise<ContainerSetup> {
  const { container, pod } = ctx;
  const image = container.image ?? '';
  const resolved = image ? ctx.imageMap.resolve(image) : undefined;
  if (!resolved) {
    throw new StartError('ErrImagePull', `image "${image}" is not in the image map: no local program is known for it (add an entry to the image map file)`);
  }
  let env: Record<string, string>;
  let mounts;
  const podIP = pod.status?.podIP;
  const own = { ...ctx.baseEnv, HOSTNAME: pod.metadata?.name ?? '', ...resolved.env };
  // A Pod with its own address gets it, and Node.js programs the preload that binds wildcard listens to it (and
  // reaches Services by name and ClusterIP).
  const base: Record<string, string> = podIP && podIP !== HOST_IP ? podNetworkEnv(podIP, own, pod.metadata?.namespace) : own;
  try {
    mounts = containerMounts(container, ctx.volumeDirs);
    env = await containerEnv({ pod, container, reader: ctx.reader, allocatable: ctx.allocatable }, base);
  } catch (err) {
    throw new StartError('CreateContainerConfigError', (err as Error).message);
  }
  const dir = containerDir(ctx.podDir, container.name);
  const stateDir = join(dir, 'state');
  // Only what the Pod spec wrote is in the Pod's view of the filesystem: the image map's program and the kubelet's
  // own variables are host paths already.
  const fromSpec = (s: string) => rewriteMountPaths(expandReferences(s, (name) => env[name]), mounts);
  const argv = programArgv(
    resolved,
    { command: container.command?.map(fromSpec), args: container.args?.map(fromSpec) },
    { stateDir, ignored: (flag) => ctx.log.info({ container: container.name, flag }, 'Argument not supported by the local stand-in, ignored') },
  );
  for (const [k, v] of Object.entries(env)) if (base[k] !== v) env[k] = rewriteMountPaths(v, mounts);
  env[MOUNTS_ENV] = mountsJson(mounts);
  const root = join(dir, 'root');
  const cwd = container.workingDir ? workingDir(container.workingDir, mounts, root) : root;
  await mkdir(cwd, { recursive: true });
  await mkdir(stateDir, { recursive: true });
  return { argv, env, cwd, imageID: `local://${resolved.command[0]}` };
}

// A workingDir under a mount path is that mount's directory; any other absolute path lives under the container's root.
function workingDir(path: string, mounts: Parameters<typeof rewriteMountPaths>[1], root: string): string {
  const mapped = rewriteMountPaths(path, mounts);
  return mapped !== path ? mapped : join(root, path);
}
