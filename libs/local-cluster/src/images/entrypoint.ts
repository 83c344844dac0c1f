// How a container's command/args combine with an image's entrypoint/cmd (the Kubernetes rule):
// - neither command nor args: the image's entrypoint followed by its cmd;
// - args only: the image's entrypoint followed by the container's args;
// - command (with or without args): the container's command and args; the image's entrypoint and cmd are ignored.

export interface Entrypoint {
  command: string[];
  args: string[];
}

export function containerArgv(image: Entrypoint, container: { command?: string[]; args?: string[] }): string[] {
  if (container.command?.length) return [...container.command, ...(container.args ?? [])];
  if (container.args?.length) return [...image.command, ...container.args];
  return [...image.command, ...image.args];
}
