// POST|GET /exec/<namespace>/<pod>/<container>?command=...&command=...&stdin=&stdout=1&stderr=1
// Runs the command non-interactively with the container's environment and working directory; with stdin=1 the
// request body is its standard input. The response streams frames (exec-stream.ts); a client that goes away kills
// the command.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PodWorker } from '../pods/pod-worker.js';
import { exitCodeOf, signalGroup } from '../runtime/process-group.js';
import { encodeFrame, EXEC_CONTENT_TYPE, ExecChannel, exitStatus } from './exec-stream.js';
import { spawned, spawnInContainer } from './exec-target.js';
import { flag } from './logs-handler.js';

export async function serveExec(
  worker: PodWorker,
  containerName: string,
  query: URLSearchParams,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const command = query.getAll('command');
  const stdin = flag(query, 'stdin');
  const stdout = query.has('stdout') ? flag(query, 'stdout') : true;
  const stderr = query.has('stderr') ? flag(query, 'stderr') : true;
  const child = spawnInContainer(worker, containerName, command, stdin);
  const failed = await spawned(child);
  res.writeHead(200, { 'Content-Type': EXEC_CONTENT_TYPE, 'Cache-Control': 'no-store' });
  if (failed) {
    res.end(
      encodeFrame(ExecChannel.Error, JSON.stringify(exitStatus(126, `failed to run ${command[0]}: ${failed.message}`))),
    );
    return;
  }
  const pid = child.pid!;
  if (stdin) req.pipe(child.stdin!);
  else req.resume();
  child.stdout!.on('data', (chunk: Buffer) => stdout && res.write(encodeFrame(ExecChannel.Stdout, chunk)));
  child.stderr!.on('data', (chunk: Buffer) => stderr && res.write(encodeFrame(ExecChannel.Stderr, chunk)));
  const onClose = () => signalGroup(pid, 'SIGKILL');
  res.once('close', onClose);
  const exitCode = await new Promise<number>((done) =>
    child.once('close', (code, signal) => done(exitCodeOf(code, signal))),
  );
  res.off('close', onClose);
  signalGroup(pid, 'SIGKILL');
  res.end(encodeFrame(ExecChannel.Error, JSON.stringify(exitStatus(exitCode))));
}
