// Messaging benchmark: protobuf envelope codec, publish → subscribe through a local nats-server, publishing while NATS
// is down, and flushing the outbox when it returns. Prints a markdown table.
//   npx tsx bench/messaging/run.ts [--count 50000]
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { createLogger } from '@gardener-ts/logging';
import { Registry } from 'prom-client';
import {
  MessagingClient,
  Publisher,
  decodeEnvelope,
  encodeEnvelope,
  subscribeEvents,
} from '../../libs/messaging/src/index.js';
import { waitFor } from '../../libs/test-support/src/wait.js';
import { freePort } from '../../libs/test-support/src/ports.js';

const { values } = parseArgs({ options: { count: { type: 'string', default: '50000' } } });
const COUNT = Number(values.count);
const shoot = { kind: 'Shoot', namespace: 'garden-dev', name: 'alpha', uid: '6f1c', generation: 12 };
const progress = (i: number) => ({
  type: 'LAST_OPERATION_TYPE_RECONCILE' as const,
  state: 'LAST_OPERATION_STATE_PROCESSING' as const,
  progress: i % 100,
  description: 'Deploying the Kubernetes API server',
  task: { id: 'Deploying Kubernetes API server', phase: 'TASK_PHASE_SUCCEEDED' as const, durationMillis: 8200 },
});
const perSecond = (count: number, startedMs: number) => Math.round(count / ((performance.now() - startedMs) / 1000));
const client = (servers: string) =>
  new MessagingClient({
    servers,
    name: 'bench',
    logger: createLogger({ name: 'bench', level: 'silent' }),
    registry: new Registry(),
    reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
    buffer: { maxMessages: COUNT, maxBytes: 256 * 1024 * 1024 },
  }).start();

const rows: [string, string][] = [];

// Codec alone.
const envelope = {
  metadata: {
    id: 'x',
    source: 'gardenlet',
    seed: 'seed-a',
    object: { kind: 'Shoot', namespace: 'garden-dev', name: 'alpha', uid: '6f1c' },
    generation: 12,
  },
  operationProgress: progress(1),
};
const bytes = encodeEnvelope(envelope);
let started = performance.now();
for (let i = 0; i < COUNT; i++) encodeEnvelope(envelope);
rows.push(['encode envelopes/s (checked against the schema)', String(perSecond(COUNT, started))]);
started = performance.now();
for (let i = 0; i < COUNT; i++) decodeEnvelope(bytes);
rows.push(['decode envelopes/s', String(perSecond(COUNT, started))]);
rows.push(['envelope size, bytes', String(bytes.length)]);

// nats-server on a fixed port, so it can come back on the same one. (The harness' startNatsServer lives in a package
// that imports vitest, which a plain script cannot load.) Clients wait for it themselves.
const port = await freePort();
let server: ChildProcess | undefined;
const nats = {
  url: `nats://127.0.0.1:${port}`,
  restart: () =>
    void (server = spawn(process.env.NATS_SERVER ?? 'nats-server', ['-a', '127.0.0.1', '-p', String(port)], {
      stdio: 'ignore',
    })),
  async halt() {
    const exited = once(server!, 'exit');
    server!.kill('SIGTERM');
    await exited;
  },
  stop: () => nats.halt(),
};
nats.restart();
try {
  // End to end: publisher and subscriber in this process, nats-server on the same cores.
  const receiver = client(nats.url);
  let received = 0;
  subscribeEvents(receiver, {}, () => void received++);
  await receiver.connection();
  await receiver.flush();
  const sender = client(nats.url);
  await sender.connection();
  const publisher = new Publisher(sender, { source: 'gardenlet', seed: 'seed-a' });
  started = performance.now();
  for (let i = 0; i < COUNT; i++) publisher.operationProgress(shoot, progress(i));
  const publishRate = perSecond(COUNT, started);
  await waitFor('every message', () => received === COUNT, { timeoutMs: 120_000, intervalMs: 5 });
  rows.push(['publish calls/s (connected)', String(publishRate)]);
  rows.push(['published and received/s, end to end', String(perSecond(COUNT, started))]);

  // NATS down: publishing goes to the outbox; then the outbox is flushed on reconnect.
  await nats.halt();
  await waitFor('the disconnect', () => !sender.connected);
  started = performance.now();
  for (let i = 0; i < COUNT; i++) publisher.operationProgress(shoot, progress(i));
  rows.push(['publish calls/s (NATS down, buffered)', String(perSecond(COUNT, started))]);
  nats.restart();
  started = performance.now();
  await waitFor('the reconnect', () => sender.connected, { timeoutMs: 30_000, intervalMs: 5 });
  rows.push(['reconnect after restart, ms', (performance.now() - started).toFixed(0)]);
  // The whole outbox reaches the server (the server acknowledged everything up to the flush).
  await waitFor('the outbox to drain', () => sender.buffered === 0, { timeoutMs: 30_000, intervalMs: 5 });
  await sender.flush();
  rows.push([
    `outbox of ${COUNT} delivered to the server after the restart, ms`,
    (performance.now() - started).toFixed(0),
  ]);
  await Promise.all([sender.close(), receiver.close()]);
} finally {
  await nats.stop();
}

console.log(
  `${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, Node ${process.version}, ${COUNT} messages\n`,
);
console.log('| measure | value |\n|---|---|');
for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
