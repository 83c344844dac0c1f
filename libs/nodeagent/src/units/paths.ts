// Node paths below a machine's root directory: every absolute path an OperatingSystemConfig names (`/etc/...`,
// `/var/lib/kubelet/...`) is written below the root, and a path that would leave it (`..`) is refused.
import { isAbsolute, join, relative, resolve } from 'node:path';

/** The local path of `nodeAbsolute` (an absolute path on the node) below `rootDir`; throws for paths that escape. */
export function nodePath(rootDir: string, nodeAbsolute: string): string {
  if (!isAbsolute(nodeAbsolute)) throw new Error(`node path ${JSON.stringify(nodeAbsolute)} is not absolute`);
  const root = resolve(rootDir);
  const local = resolve(join(root, nodeAbsolute));
  const rel = relative(root, local);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new Error(`node path ${JSON.stringify(nodeAbsolute)} leaves the machine's root directory`);
  }
  return local;
}
