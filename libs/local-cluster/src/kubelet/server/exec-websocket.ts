// `kubectl exec` over WebSocket (v5/v4.channel.k8s.io, see streaming/remote-command.ts): an upgrade request to
// /exec/<namespace>/<pod>/<container> runs the command like the framed exec does, with stdin from the client.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { serveRemoteCommand } from '../../streaming/remote-command.js';
import type { PodWorker } from '../pods/pod-worker.js';
import { exitCodeOf, signalGroup } from '../runtime/process-group.js';
import { spawned, spawnInContainer } from './exec-target.js';

export function serveExecWebSocket(
  worker: PodWorker,
  containerName: string,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): void {
  serveRemoteCommand(req, socket, head, (request, session) => {
    void (async () => {
      let child;
      try {
        child = spawnInContainer(worker, containerName, request.command, !!session.stdin);
      } catch (err) {
        return session.finish(err as Error);
      }
      const failed = await spawned(child);
      if (failed) return session.finish(new Error(`failed to run ${request.command[0]}: ${failed.message}`));
      const pid = child.pid!;
      session.onAbort(() => signalGroup(pid, 'SIGKILL'));
      if (session.stdin) session.stdin.pipe(child.stdin!);
      if (request.stdout) child.stdout!.pipe(session.stdout);
      else child.stdout!.resume();
      if (request.stderr) child.stderr!.pipe(session.stderr);
      else child.stderr!.resume();
      child.once('close', (code, signal) => {
        signalGroup(pid, 'SIGKILL');
        session.finish(exitCodeOf(code, signal));
      });
    })();
  });
}
