// Writes the files of a configMap/secret/projected/downwardAPI volume: each file replaced atomically (write, rename),
// unchanged files left alone, files no longer in the set removed. Nothing is written or removed outside the volume's
// directory, also not through a symlink found in it.
import { chmod, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { assertResolvesWithin, confinedJoin, PathEscapeError } from './confined-path.js';

export interface VolumeFile {
  data: Buffer;
  mode: number;
}

export type FileSet = Map<string, VolumeFile>;

/**
 * Adds a file at `path` (relative, no `..` element, as kube validates item paths); throws a PathEscapeError for
 * any other path.
 */
export function addFile(files: FileSet, path: string, data: Buffer, mode: number): void {
  const clean = normalize(path);
  if (!path || clean.startsWith(sep) || path.split('/').includes('..') || clean === '.') {
    throw new PathEscapeError(path, 'the volume', 'must be relative without ".." and stay inside');
  }
  files.set(clean, { data, mode });
}

/** Makes `dir` hold exactly `files`. */
export async function writeFileSet(dir: string, files: FileSet): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [path, file] of files) {
    const target = await assertResolvesWithin(dir, confinedJoin(dir, [path]));
    await mkdir(dirname(target), { recursive: true });
    if (!(await sameContent(target, file))) {
      const temp = join(dirname(target), `.${process.pid}.tmp`);
      await writeFile(temp, file.data, { mode: file.mode });
      await chmod(temp, file.mode);
      await rename(temp, target);
    }
  }
  for (const existing of await listFiles(dir)) {
    if (!files.has(existing)) await rm(await assertResolvesWithin(dir, confinedJoin(dir, [existing])), { force: true });
  }
}

async function sameContent(path: string, file: VolumeFile): Promise<boolean> {
  try {
    const [content, info] = await Promise.all([readFile(path), stat(path)]);
    return content.equals(file.data) && (info.mode & 0o777) === file.mode;
  } catch {
    return false;
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
}
