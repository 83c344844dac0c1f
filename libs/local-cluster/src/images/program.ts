// The program line a container runs: the image map's entrypoint combined with the container's command/args.
import { basename } from 'node:path';
import { containerArgv } from './entrypoint.js';
import type { ResolvedImage, TranslationContext } from './image-map.js';

export interface ContainerCommand {
  command?: string[];
  args?: string[];
}

export function programArgv(image: ResolvedImage, container: ContainerCommand, context: TranslationContext): string[] {
  const { binaries = [], translateArgs } = image.entry;
  let command = container.command;
  let args = container.args;
  // `command: [kube-apiserver, ...]` names the upstream binary: run the stand-in with the rest as its arguments.
  if (command?.length && binaries.includes(basename(command[0]))) {
    args = [...command.slice(1), ...(args ?? [])];
    command = undefined;
  }
  if (command?.length) return containerArgv(image, { command, args });
  const userArgs = args?.length ? args : image.args;
  return [...image.command, ...(translateArgs ? translateArgs(userArgs, context) : userArgs)];
}
