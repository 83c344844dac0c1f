// Defence in depth for everything the kubelet writes or deletes for a Pod: a path built from Pod-controlled names
// (volume and container names, item paths, subPath, workingDir) must stay inside the directory it belongs to, both as
// written and after following the symlinks that exist on disk (a process of the Pod may have planted one). Anything
// else is refused with a PathEscapeError before a file is touched, as kube's kubelet refuses a subPath that leaves
// its volume.
import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A Pod-controlled path that would leave the directory it must stay in. */
export class PathEscapeError extends Error {
  constructor(
    readonly path: string,
    readonly root: string,
    why: string,
  ) {
    super(`path ${JSON.stringify(path)} ${why} ${root}`);
  }
}

/** Whether `path` is `root` or below it (both absolute and normalised). */
export function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * `root` joined with `parts` when the result stays inside `root` (as text: no `..` out of it, no absolute part);
 * throws a PathEscapeError otherwise. `root` itself counts as inside only with `allowRoot`.
 */
export function confinedJoin(root: string, parts: string[], { allowRoot = false } = {}): string {
  const base = resolve(root);
  for (const part of parts) {
    if (part.includes('\0')) throw new PathEscapeError(part, base, 'contains a NUL byte and cannot be under');
    if (isAbsolute(part)) throw new PathEscapeError(part, base, 'is absolute, it must be relative to');
  }
  const path = resolve(base, ...parts);
  if (!isWithin(base, path) || (!allowRoot && path === base)) throw new PathEscapeError(join(...parts), base, 'leaves');
  return path;
}

/**
 * Checks that `path` (inside `root` as text) is still inside `root` once the symlinks that exist on disk are
 * followed: the longest existing prefix of `path` is resolved and compared with the resolved `root`. Returns `path`.
 * When `root` does not exist yet nothing below it does either, and the check passes.
 */
export async function assertResolvesWithin(root: string, path: string): Promise<string> {
  const base = resolve(root);
  if (!isWithin(base, resolve(path))) throw new PathEscapeError(path, base, 'leaves');
  const realRoot = await realpathOrUndefined(base);
  if (realRoot === undefined) return path;
  let existing = resolve(path);
  let real = await realpathOrUndefined(existing);
  while (real === undefined && existing !== base) {
    existing = dirname(existing);
    real = await realpathOrUndefined(existing);
  }
  if (real !== undefined && !isWithin(realRoot, real))
    throw new PathEscapeError(path, base, 'resolves through a symlink to a place outside');
  return path;
}

async function realpathOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch {
    return undefined;
  }
}
