import { createServer, connect, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TcpForwarder } from './tcp-forwarder.js';

let live: Server;
let livePort: number;
let deadPort: number;

/** Connects to the forwarder; what the backend says, or the error code. */
function ask(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => (text += d));
    socket.on('end', () => resolve(text));
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
}

beforeAll(async () => {
  live = createServer((socket) => socket.end('live'));
  await new Promise<void>((resolve) => live.listen(0, '127.0.0.1', resolve));
  livePort = (live.address() as AddressInfo).port;
  // A port nothing listens on: a backend whose process just ended.
  const dead = createServer();
  await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
  deadPort = (dead.address() as AddressInfo).port;
  await new Promise((resolve) => dead.close(resolve));
});
afterAll(() => live.close());

describe('TCP forwarder', () => {
  it('moves a client whose affinity endpoint refuses to the next endpoint, and keeps it there', async () => {
    const forwarder = await TcpForwarder.listen('127.0.0.1', 0);
    // The dead endpoint comes first: the client's first connection gets it, is refused, and goes on.
    forwarder.setBackends(
      [
        { host: '127.0.0.1', port: deadPort },
        { host: '127.0.0.1', port: livePort },
      ],
      60_000,
    );
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await ask(forwarder.port));
    expect(answers).toEqual(['live', 'live', 'live', 'live']);
    await forwarder.close();
  });

  it('resets connections when no endpoint accepts', async () => {
    const forwarder = await TcpForwarder.listen('127.0.0.1', 0);
    forwarder.setBackends([{ host: '127.0.0.1', port: deadPort }]);
    expect(await ask(forwarder.port)).toBe('ECONNRESET');
    await forwarder.close();
  });
});
