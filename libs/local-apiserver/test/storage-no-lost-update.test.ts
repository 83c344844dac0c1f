// No lost update over HTTP: concurrent clients doing what controllers and kubectl edit do — GET, change, PUT with the
// resourceVersion they read, again on 409 Conflict — against the API server on the durable file store. Every update
// a client saw acknowledged (200) is in the final object exactly once, and still there after a restart. Patches
// without a resourceVersion (what `kubectl patch`, controllers' status patches and server-side apply send) never
// answer 409: the server retries them against the latest object, as kube's GuaranteedUpdate does.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApiServer } from '../src/index.js';
import { rawClient } from './e2e/raw-client.js';

let dataDir: string;
let server: LocalApiServer;
let api: ReturnType<typeof rawClient>;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'storage-no-lost-update-'));
  server = await LocalApiServer.start({ dataDir });
  api = rawClient(server);
});
afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const path = (name: string) => `/api/v1/namespaces/default/configmaps/${name}`;

/** One client: appends `token` to data.tokens by optimistic concurrency; resolves once the server acknowledged it. */
async function appendToken(name: string, token: string): Promise<{ conflicts: number }> {
  for (let conflicts = 0; ; conflicts++) {
    const got = await api.send('GET', path(name));
    expect(got.status, got.body).toBe(200);
    const cm = got.json();
    const tokens = cm.data.tokens ? cm.data.tokens.split(',') : [];
    cm.data.tokens = [...tokens, token].join(',');
    const put = await api.send('PUT', path(name), JSON.stringify(cm));
    if (put.status === 200) return { conflicts };
    expect(put.status, put.body).toBe(409);
    expect(put.json()).toMatchObject({ reason: 'Conflict' });
    expect(put.json().message).toContain(
      'the object has been modified; please apply your changes to the latest version and try again',
    );
  }
}

describe('optimistic concurrency over HTTP', () => {
  let run = 0;
  it('loses no acknowledged update of concurrent get-modify-update writers, across a restart', async () => {
    let conflicts = 0;
    const finals = new Map<string, string[]>();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 6 }), fc.integer({ min: 1, max: 5 }), async (writers, updates) => {
        const name = `counter-${++run}`;
        const created = await api.send(
          'POST',
          '/api/v1/namespaces/default/configmaps',
          JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: {} }),
        );
        expect(created.status, created.body).toBe(201);
        const acknowledged: string[] = [];
        await Promise.all(
          Array.from({ length: writers }, async (_, w) => {
            for (let u = 0; u < updates; u++) {
              const token = `w${w}u${u}`;
              conflicts += (await appendToken(name, token)).conflicts;
              acknowledged.push(token);
            }
          }),
        );
        const final = (await api.send('GET', path(name))).json().data.tokens.split(',') as string[];
        expect([...final].sort()).toEqual([...acknowledged].sort());
        // Each writer's own updates in the order it made them.
        for (let w = 0; w < writers; w++)
          expect(final.filter((t) => t.startsWith(`w${w}u`))).toEqual(
            Array.from({ length: updates }, (_, u) => `w${w}u${u}`),
          );
        finals.set(name, final);
      }),
      { numRuns: 8 },
    );
    // The writers did race: some PUTs carried a stale resourceVersion and were refused.
    expect(conflicts).toBeGreaterThan(0);

    await server.stop();
    server = await LocalApiServer.start({ dataDir });
    api = rawClient(server);
    for (const [name, final] of finals)
      expect((await api.send('GET', path(name))).json().data.tokens.split(',')).toEqual(final);
  });

  it('never refuses concurrent patches without a resourceVersion, and keeps every one of them', async () => {
    const name = 'patched';
    const created = await api.send(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: {} }),
    );
    expect(created.status, created.body).toBe(201);
    const writers = 4;
    const patches = 25;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let p = 0; p < patches; p++) {
          const res = await api.send(
            'PATCH',
            path(name),
            JSON.stringify({ data: { [`w${w}p${p}`]: 'x', [`last-${w}`]: String(p) } }),
            { 'content-type': 'application/merge-patch+json' },
          );
          statuses.push(res.status);
        }
      }),
    );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const data = (await api.send('GET', path(name))).json().data as Record<string, string>;
    expect(Object.keys(data)).toHaveLength(writers * patches + writers);
    for (let w = 0; w < writers; w++) expect(data[`last-${w}`]).toBe(String(patches - 1));
  });
});
