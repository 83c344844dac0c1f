// What an exec request runs: the command in a running container's environment and working directory, in its own
// process group so everything it starts can be killed with it. Only a program of the container's image runs; any
// other command fails to start as a missing binary does in a container.
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { PodWorker } from '../pods/pod-worker.js';
import { HttpError } from './responses.js';

export function spawnInContainer(
  worker: PodWorker,
  containerName: string,
  command: string[],
  stdin: boolean,
): ChildProcess {
  if (command.length === 0) throw new HttpError(400, 'you must specify at least one command for the container');
  const container = worker.container(containerName);
  if (!container) throw new HttpError(400, `container ${containerName} is not valid for pod ${worker.name}`);
  if (!container.running || !container.setup)
    throw new HttpError(400, `container ${containerName} is not running in pod ${worker.name}`);
  const { env, cwd } = container.setup;
  let argv: string[];
  try {
    argv = container.setup.exec(command);
  } catch (err) {
    return notStarted(err as Error);
  }
  return spawn(argv[0], argv.slice(1), {
    env,
    cwd,
    detached: true,
    stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
}

// A child that never started: it reports `error` as spawn does for a program that does not exist.
function notStarted(err: Error): ChildProcess {
  const child = new EventEmitter() as ChildProcess;
  queueMicrotask(() => child.emit('error', err));
  return child;
}

/** Resolves once the process is running, or with the error that kept it from starting. */
export function spawned(child: ChildProcess): Promise<Error | undefined> {
  return new Promise((done) => {
    child.once('spawn', () => done(undefined));
    child.once('error', done);
  });
}
