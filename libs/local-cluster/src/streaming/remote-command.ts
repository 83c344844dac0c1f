// The kubelet's side of `kubectl exec` / `attach` over WebSocket: Kubernetes' channel protocol (`v5.channel.k8s.io`, and
// `v4.channel.k8s.io` for older clients). Each binary message starts with a channel byte — 0 stdin, 1 stdout, 2 stderr,
// 3 error (a metav1.Status once the command ends), 4 terminal resize; v5 adds channel 255 for control messages, of
// which the client's "close stdin" ([255, 0]) matters here. The API server pipes the upgraded connection through.
import type { IncomingMessage } from 'node:http';
import { PassThrough, Writable, type Readable } from 'node:stream';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

export const REMOTE_COMMAND_PROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io'] as const;

const STDIN = 0;
const STDOUT = 1;
const STDERR = 2;
const ERROR = 3;
const RESIZE = 4;
const CONTROL = 255;

export interface RemoteCommandRequest {
  command: string[];
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

/** The query of an exec request: repeated `command`, and `stdin`/`stdout`/`stderr`/`tty` flags (`true` or `1`). */
export function parseRemoteCommandQuery(query: URLSearchParams): RemoteCommandRequest {
  const flag = (name: string) => ['true', '1'].includes(query.get(name) ?? '');
  return {
    command: query.getAll('command'),
    stdin: flag('stdin'),
    stdout: flag('stdout'),
    stderr: flag('stderr'),
    tty: flag('tty'),
  };
}

export interface RemoteCommandSession {
  /** The client's stdin, when it asked for one; ends when the client closes it. */
  stdin?: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Ends the session: an exit code (0 is success) or an error that kept the command from running. */
  finish(result: number | Error): void;
  /** Fires when the client goes away before the command ended (the command should be stopped). */
  onAbort(listener: () => void): void;
}

const wss = new WebSocketServer({
  noServer: true,
  handleProtocols: (offered) => REMOTE_COMMAND_PROTOCOLS.find((p) => offered.has(p)) ?? false,
});

/**
 * Completes the WebSocket upgrade of an exec request and hands the streams to `run`. A client that offers none of
 * the supported protocols gets a 400 before any upgrade, as kubelets answer.
 */
export function serveRemoteCommand(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  run: (request: RemoteCommandRequest, session: RemoteCommandSession) => void,
): void {
  const offered = String(req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim());
  if (!REMOTE_COMMAND_PROTOCOLS.some((p) => offered.includes(p))) {
    const message = `unsupported streaming protocol: offered [${offered.join(', ')}], supported [${REMOTE_COMMAND_PROTOCOLS.join(', ')}]`;
    socket.end(
      `HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(message)}\r\nconnection: close\r\n\r\n${message}`,
    );
    return;
  }
  const request = parseRemoteCommandQuery(new URL(req.url ?? '/', 'https://kubelet').searchParams);
  wss.handleUpgrade(req, socket, head, (ws) => run(request, openSession(ws, request)));
}

function openSession(ws: WebSocket, request: RemoteCommandRequest): RemoteCommandSession {
  const v5 = ws.protocol === 'v5.channel.k8s.io';
  const stdin = request.stdin ? new PassThrough() : undefined;
  const abortListeners: (() => void)[] = [];
  let finished = false;

  const send = (channel: number, data: Buffer) => {
    if (ws.readyState === ws.OPEN) ws.send(Buffer.concat([Buffer.from([channel]), data]));
  };
  const channelWriter = (channel: number) =>
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        send(channel, chunk);
        callback();
      },
    });

  // Every channel the client asked for announces itself with an empty frame, as Kubernetes' stream server does.
  if (request.stdin) send(STDIN, Buffer.alloc(0));
  if (request.stdout) send(STDOUT, Buffer.alloc(0));
  if (request.stderr) send(STDERR, Buffer.alloc(0));
  send(ERROR, Buffer.alloc(0));

  ws.on('message', (data: Buffer, isBinary) => {
    const frame = isBinary ? data : Buffer.from(data);
    if (frame.length === 0) return;
    const channel = frame[0];
    if (channel === STDIN && stdin && !stdin.writableEnded) stdin.write(frame.subarray(1));
    else if (channel === CONTROL && v5 && frame[1] === STDIN) stdin?.end();
    else if (channel === RESIZE) return; // No terminals: programs run on pipes, so a resize changes nothing.
  });
  ws.on('close', () => {
    stdin?.end();
    if (!finished) for (const listener of abortListeners) listener();
  });

  return {
    stdin,
    stdout: channelWriter(STDOUT),
    stderr: channelWriter(STDERR),
    onAbort: (listener) => abortListeners.push(listener),
    finish(result) {
      if (finished) return;
      finished = true;
      send(ERROR, Buffer.from(JSON.stringify(exitStatus(result))));
      ws.close(1000);
    },
  };
}

/** The Status written on the error channel; kubectl exits with the code of a NonZeroExitCode failure. */
export function exitStatus(result: number | Error): Record<string, unknown> {
  if (result === 0) return { metadata: {}, status: 'Success' };
  if (result instanceof Error)
    return { metadata: {}, status: 'Failure', message: result.message, reason: 'InternalError', code: 500 };
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: exit status ${result}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(result) }] },
  };
}
