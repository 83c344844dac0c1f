// Messaging clients for tests: a fresh metrics registry each, fast reconnects, and their log lines kept for assertions.
import { Writable } from 'node:stream';
import { createLogger } from '@gardener-ts/logging';
import { Registry } from 'prom-client';
import { MessagingClient, type MessagingClientOptions } from '../src/index.js';

export interface TestClient {
  client: MessagingClient;
  registry: Registry;
  /** Log messages (the msg field) so far. */
  logged(): string[];
}

const started: MessagingClient[] = [];

export function testClient(servers: string, options: Partial<MessagingClientOptions> = {}): TestClient {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  const registry = new Registry();
  const client = new MessagingClient({
    servers,
    name: 'test',
    logger: createLogger({ name: 'messaging-test', level: 'debug', destination }),
    registry,
    reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
    connectTimeoutMs: 2000,
    ...options,
  }).start();
  started.push(client);
  return { client, registry, logged: () => lines.map((l) => (JSON.parse(l) as { msg: string }).msg) };
}

/** Closes every client a test started. */
export async function closeTestClients(): Promise<void> {
  await Promise.all(started.splice(0).map((c) => c.close()));
}
