// The image map: which local program runs for an image reference. Entries match a reference exactly (`image`) or by
// repository prefix (`prefix`); an exact match beats any prefix, a longer prefix beats a shorter one. An entry runs
// either a fixed program (the image's entrypoint) or, with `command: container`, the program the container names
// (shell images: `sh`, `sleep`, ... of the host).
import { readFile } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { parse } from 'yaml';
import { parseImageReference } from './image-ref.js';

/** Rewrites the arguments a Pod passes to an upstream program into the ones its local stand-in understands. */
export type ArgsTranslator = (args: string[], context: TranslationContext) => string[];

export interface TranslationContext {
  /** A directory the program may keep its state in (per container, kept across restarts). */
  stateDir: string;
  /** Called once per argument the stand-in does not understand and drops. */
  ignored(flag: string): void;
}

export interface ImageMapEntry {
  /** A reference matched exactly; without a tag or digest it matches every tag and digest of the repository. */
  image?: string;
  /** A reference prefix such as `registry.k8s.io/` or `gardener-ts/`. */
  prefix?: string;
  /**
   * The program and its fixed arguments: the image's entrypoint. `${suffix}` is the repository after the prefix.
   * `container` (`CONTAINER_COMMAND`): the image has no entrypoint of its own; the first word of the container's
   * `command`, else of its `args`, else of the entry's `args` names a program of the host, found on the container's
   * PATH (an image of host programs such as busybox or alpine).
   */
  command: string[] | typeof CONTAINER_COMMAND;
  /** Default arguments: the image's cmd (for a `container` entry its default command, e.g. `[sh]`). */
  args?: string[];
  env?: Record<string, string>;
  /**
   * The programs the image holds, the only ones a container `command`, an exec probe or `kubectl exec` may name
   * (a container of a real runtime can only run what its image has). Matched by the base name of the first word.
   * - a list (`[kube-apiserver]`): names of the upstream binary that the mapped program stands in for; such a
   *   command runs the mapped program instead, with the rest of the command and the args as arguments;
   * - a map (`{ sh: /bin/sh, kube-apiserver: true }`): a host program path for each name, or `true` for a stand-in
   *   name as in the list form.
   */
  binaries?: string[] | Record<string, string | true>;
  /** Built-in entries only: argument translation for a stand-in that speaks a different flag dialect. */
  translateArgs?: ArgsTranslator;
}

/** The `command` of an entry whose containers run the host program their own command names. */
export const CONTAINER_COMMAND = 'container' as const;

export interface ResolvedImage {
  entry: ImageMapEntry;
  /** The entrypoint; empty for a `container` entry. */
  command: string[];
  args: string[];
  env: Record<string, string>;
}

export class ImageMap {
  constructor(readonly entries: readonly ImageMapEntry[] = []) {
    entries.forEach((entry, i) => validateEntry(entry, `images[${i}]`));
  }

  /** Parses the YAML (or JSON) file format `{ images: [...] }`. */
  static parse(text: string, source = 'image map'): ImageMap {
    let doc: unknown;
    try {
      doc = parse(text);
    } catch (err) {
      throw new Error(`${source}: not valid YAML: ${(err as Error).message}`);
    }
    if (doc === null || doc === undefined) return new ImageMap();
    const images = (doc as { images?: unknown }).images;
    if (typeof doc !== 'object' || !Array.isArray(images))
      throw new Error(`${source}: expected an object with a list "images"`);
    try {
      return new ImageMap(images as ImageMapEntry[]);
    } catch (err) {
      throw new Error(`${source}: ${(err as Error).message}`);
    }
  }

  static async load(path: string): Promise<ImageMap> {
    return ImageMap.parse(await readFile(path, 'utf8'), path);
  }

  /** A map whose entries win over this one's when both match equally well. */
  overriddenBy(other: ImageMap): ImageMap {
    return new ImageMap([...other.entries, ...this.entries]);
  }

  resolve(image: string): ResolvedImage | undefined {
    const ref = parseImageReference(image);
    let best: { entry: ImageMapEntry; rank: number; suffix: string } | undefined;
    for (const entry of this.entries) {
      const match = matchEntry(entry, image, ref.repository);
      if (match && (!best || match.rank > best.rank)) best = { entry, ...match };
    }
    if (!best) return undefined;
    const fill = (s: string) => s.replaceAll('${suffix}', best.suffix);
    return {
      entry: best.entry,
      command: best.entry.command === CONTAINER_COMMAND ? [] : best.entry.command.map(fill),
      args: (best.entry.args ?? []).map(fill),
      env: Object.fromEntries(Object.entries(best.entry.env ?? {}).map(([k, v]) => [k, fill(v)])),
    };
  }
}

// Ranks: an exact reference (with tag) > an exact repository > prefixes by length. Prefix ranks stay below 1e6.
function matchEntry(
  entry: ImageMapEntry,
  image: string,
  repository: string,
): { rank: number; suffix: string } | undefined {
  if (entry.image !== undefined) {
    if (entry.image === image) return { rank: 2e6, suffix: '' };
    const wanted = parseImageReference(entry.image);
    if (!wanted.tag && !wanted.digest && wanted.repository === repository) return { rank: 1e6, suffix: '' };
    return undefined;
  }
  const prefix = entry.prefix!;
  if (!image.startsWith(prefix)) return undefined;
  return { rank: prefix.length, suffix: repository.startsWith(prefix) ? repository.slice(prefix.length) : '' };
}

function validateEntry(entry: ImageMapEntry, path: string): void {
  if (typeof entry !== 'object' || entry === null) throw new Error(`${path}: expected an object`);
  const hasImage = typeof entry.image === 'string' && entry.image !== '';
  const hasPrefix = typeof entry.prefix === 'string' && entry.prefix !== '';
  if (hasImage === hasPrefix) throw new Error(`${path}: needs exactly one of "image" or "prefix"`);
  if (entry.command === CONTAINER_COMMAND) {
    if (entry.binaries !== undefined)
      throw new Error(
        `${path}: "binaries" does not go with command "${CONTAINER_COMMAND}" (its programs are the host's)`,
      );
  } else if (!isStringList(entry.command) || entry.command.length === 0) {
    throw new Error(`${path}.command: expected a non-empty list of strings or "${CONTAINER_COMMAND}"`);
  }
  if (entry.args !== undefined && !isStringList(entry.args))
    throw new Error(`${path}.args: expected a list of strings`);
  if (entry.binaries !== undefined) validateBinaries(entry.binaries, `${path}.binaries`);
  if (entry.env !== undefined) {
    if (typeof entry.env !== 'object' || entry.env === null || Array.isArray(entry.env))
      throw new Error(`${path}.env: expected a map of strings`);
    for (const [k, v] of Object.entries(entry.env))
      if (typeof v !== 'string') throw new Error(`${path}.env.${k}: expected a string`);
  }
}

function validateBinaries(binaries: unknown, path: string): void {
  if (Array.isArray(binaries)) {
    if (!isStringList(binaries) || binaries.some((b) => b === '' || b.includes('/')))
      throw new Error(`${path}: expected a list of program names`);
    return;
  }
  if (typeof binaries !== 'object' || binaries === null)
    throw new Error(`${path}: expected a list of names or a map from names to programs`);
  for (const [name, program] of Object.entries(binaries)) {
    if (name === '' || name.includes('/'))
      throw new Error(`${path}: ${JSON.stringify(name)} is not a program name (no "/")`);
    if (program !== true && (typeof program !== 'string' || !isAbsolute(program))) {
      throw new Error(`${path}.${name}: expected an absolute program path or true (the mapped program)`);
    }
  }
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}
