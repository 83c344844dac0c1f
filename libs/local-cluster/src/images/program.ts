// The program line a container runs: the image map's entrypoint combined with the container's command/args as
// Kubernetes combines them (neither: entrypoint + cmd; args only: entrypoint + args; command: command + args). A
// command (of a container, an exec probe or `kubectl exec`) may only name a program the image map declares for the
// image (`binaries`): in a container runtime a command outside the image does not exist, and here it would be any
// program of the host. An image of host programs (`command: container`, the shell images) runs the host program its
// command names, found on the container's PATH.
import { accessSync, constants, statSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import { CONTAINER_COMMAND, type ImageMapEntry, type ResolvedImage, type TranslationContext } from './image-map.js';

export interface ContainerCommand {
  command?: string[];
  args?: string[];
}

/** A command naming no program of the image; fails as a missing binary does in a container runtime. */
export class MissingBinaryError extends Error {
  /** What a container runtime's process exits with when its program is not found. */
  readonly exitCode = 127;

  constructor(readonly program: string) {
    super(
      program.includes('/')
        ? `exec: ${JSON.stringify(program)}: stat ${program}: no such file or directory`
        : `exec: ${JSON.stringify(program)}: executable file not found in $PATH`,
    );
  }
}

/** The host program a command's first word names, or undefined when the host has none by that name. */
export type ProgramLookup = (word: string) => string | undefined;

/**
 * Host programs as a `container` image finds them: an absolute path that is an executable file runs as it is (a mount
 * path is the volume's directory by now); otherwise the base name is looked up in the absolute directories of
 * `path` (a PATH value), so `/bin/sh` of an image is whichever `sh` the host has. A relative path with a slash
 * (`./run.sh`) is left to the working directory.
 */
export function hostPrograms(path: string): ProgramLookup {
  const dirs = path.split(':').filter((dir) => isAbsolute(dir));
  return (word) => {
    if (!word || word.endsWith('/')) return undefined;
    if (word.includes('/') && !isAbsolute(word)) return word;
    if (isAbsolute(word) && isExecutableFile(word)) return word;
    const name = basename(word);
    return dirs.map((dir) => join(dir, name)).find(isExecutableFile);
  };
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** What a command's first word names: the mapped program (a stand-in for an upstream binary) or a host program. */
export type ImageBinary = { standIn: true } | { standIn: false; path: string };

/** The image's program that `word` names, matched by base name; undefined when the image has none by that name. */
export function imageBinary(entry: ImageMapEntry, word: string): ImageBinary | undefined {
  const name = basename(word);
  const { binaries } = entry;
  if (!binaries || !name || word.endsWith('/')) return undefined;
  if (Array.isArray(binaries)) return binaries.includes(name) ? { standIn: true } : undefined;
  if (!Object.hasOwn(binaries, name)) return undefined;
  const program = binaries[name];
  return program === true ? { standIn: true } : { standIn: false, path: program };
}

/**
 * The argv of a container run. Throws a MissingBinaryError when the container's `command` names no program of the
 * image. `programs` finds the host programs of a `container` image (the kubelet's PATH by default).
 */
export function programArgv(
  image: ResolvedImage,
  container: ContainerCommand,
  context: TranslationContext,
  programs: ProgramLookup = hostPrograms(process.env.PATH ?? ''),
): string[] {
  const command = container.command;
  if (image.entry.command === CONTAINER_COMMAND) {
    // No entrypoint: the command and args, else the args alone, else the image's cmd, start with the program.
    const words = command?.length
      ? [...command, ...(container.args ?? [])]
      : container.args?.length
        ? container.args
        : image.args;
    return hostArgv(words, programs);
  }
  if (command?.length) {
    const binary = imageBinary(image.entry, command[0]);
    if (!binary) throw new MissingBinaryError(command[0]);
    // `command: [kube-apiserver, ...]` names the upstream binary: run the stand-in with the rest as its arguments.
    if (binary.standIn) return standIn(image, [...command.slice(1), ...(container.args ?? [])], context);
    return [binary.path, ...command.slice(1), ...(container.args ?? [])];
  }
  return standIn(image, container.args ?? [], context);
}

/** The argv of a command run in a running container (exec probe, `kubectl exec`); throws a MissingBinaryError. */
export function execArgv(
  image: ResolvedImage,
  command: string[],
  programs: ProgramLookup = hostPrograms(process.env.PATH ?? ''),
): string[] {
  if (image.entry.command === CONTAINER_COMMAND) return hostArgv(command, programs);
  const binary = imageBinary(image.entry, command[0] ?? '');
  if (!binary) throw new MissingBinaryError(command[0] ?? '');
  return binary.standIn ? [...image.command, ...command.slice(1)] : [binary.path, ...command.slice(1)];
}

function standIn(image: ResolvedImage, args: string[], context: TranslationContext): string[] {
  const { translateArgs } = image.entry;
  const userArgs = args.length ? args : image.args;
  return [...image.command, ...(translateArgs ? translateArgs(userArgs, context) : userArgs)];
}

function hostArgv(words: string[], programs: ProgramLookup): string[] {
  const program = programs(words[0] ?? '');
  if (!program) throw new MissingBinaryError(words[0] ?? '');
  return [program, ...words.slice(1)];
}
