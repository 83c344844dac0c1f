// Mount paths for programs that share one filesystem: a container's `volumeMounts` become a table from the path the
// Pod asked for to the directory the volume lives in on this machine. Programs get the table as JSON in
// GARDENER_LOCAL_MOUNTS, and absolute paths under a mount path in their command, args and env values are rewritten.
import type * as k8s from '@kubernetes/client-node';
import { assertResolvesWithin, confinedJoin } from './confined-path.js';

export const MOUNTS_ENV = 'GARDENER_LOCAL_MOUNTS';

export interface Mount {
  /** The path in the Pod spec, e.g. `/etc/config`. */
  mountPath: string;
  /** Where it is on this machine. */
  hostPath: string;
  /** The volume's directory (`hostPath` is below it when the mount has a subPath). */
  volumeDir?: string;
  readOnly: boolean;
}

/**
 * The mounts of a container. A `subPath` must stay inside its volume (relative, no `..` out of it); throws a
 * PathEscapeError otherwise, as kube's kubelet refuses such a subPath.
 */
export function containerMounts(container: k8s.V1Container, volumeDirs: Map<string, string>): Mount[] {
  return (container.volumeMounts ?? []).map((m) => {
    const dir = volumeDirs.get(m.name);
    if (!dir)
      throw new Error(`container ${container.name}: volumeMount ${JSON.stringify(m.name)} names no volume of the pod`);
    if (!m.mountPath.startsWith('/'))
      throw new Error(`container ${container.name}: mountPath ${JSON.stringify(m.mountPath)} must be absolute`);
    return {
      mountPath: trimSlash(m.mountPath),
      hostPath: m.subPath ? confinedJoin(dir, [m.subPath], { allowRoot: true }) : dir,
      volumeDir: dir,
      readOnly: !!m.readOnly,
    };
  });
}

/** Checks that every subPath mount still lies inside its volume once symlinks on disk are followed. */
export async function assertMountsConfined(mounts: Mount[]): Promise<void> {
  for (const m of mounts)
    if (m.volumeDir && m.hostPath !== m.volumeDir) await assertResolvesWithin(m.volumeDir, m.hostPath);
}

/** `{ "/etc/config": "/data/pods/<uid>/volumes/config", ... }` */
export function mountsJson(mounts: Mount[]): string {
  return JSON.stringify(Object.fromEntries(mounts.map((m) => [m.mountPath, m.hostPath])));
}

/**
 * A path as a container sees it, on this machine: for programs without the pod preload (hostNetwork Pods) that are
 * handed paths of the Pod spec, by the mount table the kubelet gives every container (GARDENER_LOCAL_MOUNTS).
 */
export function containerPath(path: string, env: NodeJS.ProcessEnv = process.env): string {
  let table: Record<string, string>;
  try {
    table = JSON.parse(env[MOUNTS_ENV] ?? '{}') as Record<string, string>;
  } catch {
    return path;
  }
  const mounts = Object.entries(table).map(([mountPath, hostPath]) => ({ mountPath, hostPath, readOnly: false }));
  return rewriteMountPaths(path, mounts);
}

const BOUNDARY = `=:,;\\s"'`;

/**
 * Replaces mount paths in `value` where they start a path: at the beginning or after one of `= : , ;`, a space or a
 * quote, and followed by `/`, the end or one of those characters. The longest mount path wins.
 */
export function rewriteMountPaths(value: string, mounts: Mount[]): string {
  const candidates = mounts.filter((m) => m.mountPath !== '').sort((a, b) => b.mountPath.length - a.mountPath.length);
  if (candidates.length === 0) return value;
  const alternatives = candidates.map((m) => m.mountPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const pattern = new RegExp(`(^|[${BOUNDARY}])(${alternatives})(?=$|[/${BOUNDARY}])`, 'g');
  return value.replace(
    pattern,
    (_whole, before: string, path: string) => before + candidates.find((m) => m.mountPath === path)!.hostPath,
  );
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}
