// The program line a container runs: the image map's entrypoint combined with the container's command/args as
// Kubernetes combines them (neither: entrypoint + cmd; args only: entrypoint + args; command: command + args). A
// command (of a container, an exec probe or `kubectl exec`) may only name a program the image map declares for the
// image (`binaries`): in a container runtime a command outside the image does not exist, and here it would be any
// program of the host.
import { basename } from 'node:path';
import type { ImageMapEntry, ResolvedImage, TranslationContext } from './image-map.js';

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
 * image.
 */
export function programArgv(image: ResolvedImage, container: ContainerCommand, context: TranslationContext): string[] {
  const command = container.command;
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
export function execArgv(image: ResolvedImage, command: string[]): string[] {
  const binary = imageBinary(image.entry, command[0] ?? '');
  if (!binary) throw new MissingBinaryError(command[0] ?? '');
  return binary.standIn ? [...image.command, ...command.slice(1)] : [binary.path, ...command.slice(1)];
}

function standIn(image: ResolvedImage, args: string[], context: TranslationContext): string[] {
  const { translateArgs } = image.entry;
  const userArgs = args.length ? args : image.args;
  return [...image.command, ...(translateArgs ? translateArgs(userArgs, context) : userArgs)];
}
