import { createSocket, type Socket } from 'node:dgram';
import { waitFor } from '@gardener-ts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UdpForwarder } from './udp-forwarder.js';

const backends: Socket[] = [];
const ports: number[] = [];

/**
 * Sends `text` (from a fresh client socket unless given) until its answer comes (UDP may drop); the answer. A late
 * answer to an earlier resend is skipped.
 */
async function ask(port: number, text: string, client = createSocket('udp4')): Promise<string> {
  let onMessage: (m: Buffer) => void = () => undefined;
  const answer = new Promise<string>((resolve) => {
    onMessage = (m) => m.toString().endsWith(`:${text}`) && resolve(m.toString());
    client.on('message', onMessage);
  });
  const timer = setInterval(() => client.send(text, port, '127.0.0.1'), 200);
  client.send(text, port, '127.0.0.1');
  try {
    return await answer;
  } finally {
    clearInterval(timer);
    client.off('message', onMessage);
  }
}

beforeAll(async () => {
  for (const id of ['a', 'b']) {
    const socket = createSocket('udp4');
    socket.on('message', (m, from) => socket.send(`${id}:${m.toString()}`, from.port, from.address));
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    backends.push(socket);
    ports.push(socket.address().port);
  }
});
afterAll(() => backends.forEach((s) => s.close()));

describe('UDP forwarder', () => {
  it('sends each client flow to one backend, round robin across flows, and answers from the listening port', async () => {
    const forwarder = await UdpForwarder.listen('127.0.0.1', 0);
    forwarder.setBackends(ports.map((port) => ({ host: '127.0.0.1', port })));
    const client = createSocket('udp4');
    const first = await ask(forwarder.port, 'one', client);
    const second = await ask(forwarder.port, 'two', client);
    expect(first.split(':')[0]).toBe(second.split(':')[0]);
    const other = await ask(forwarder.port, 'three');
    expect(new Set([first[0], other[0]])).toEqual(new Set(['a', 'b']));
    expect(other).toMatch(/:three$/);
    client.close();
    await forwarder.close();
  });

  it('ends idle flows after their timeout and moves flows off a backend that left', async () => {
    const forwarder = await UdpForwarder.listen('127.0.0.1', 0, { unrepliedMs: 300, repliedMs: 300 });
    forwarder.setBackends([{ host: '127.0.0.1', port: ports[0] }]);
    const client = createSocket('udp4');
    expect(await ask(forwarder.port, 'x', client)).toBe('a:x');
    expect(forwarder.flowCount).toBe(1);
    await waitFor('the idle flow to end', () => (forwarder.flowCount === 0 ? true : undefined));
    expect(await ask(forwarder.port, 'y', client)).toBe('a:y');
    forwarder.setBackends([{ host: '127.0.0.1', port: ports[1] }]);
    expect(forwarder.flowCount).toBe(0);
    expect(await ask(forwarder.port, 'z', client)).toBe('b:z');
    client.close();
    await forwarder.close();
  });

  it('drops datagrams without a ready backend', async () => {
    const forwarder = await UdpForwarder.listen('127.0.0.1', 0);
    const client = createSocket('udp4');
    const answered = ask(forwarder.port, 'lost', client);
    await new Promise((r) => setTimeout(r, 300));
    expect(forwarder.flowCount).toBe(0);
    // Once a backend is ready the client's retries get through.
    forwarder.setBackends([{ host: '127.0.0.1', port: ports[0] }]);
    expect(await answered).toBe('a:lost');
    client.close();
    await forwarder.close();
  });
});
