// The whole API server on etcd (through the watch cache): writes, reads right after them, lists, resourceVersion=0,
// watches, a restart of the server on the same etcd, lists at resourceVersion 0 and NotOlderThan, and watches from a
// revision etcd compacted.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EtcdStorage } from '../storage/etcd.js';
import { startEtcd, type EtcdProcess } from '../../test/storage/etcd-process.js';
import { openWatch, rawClient } from '../../test/e2e/raw-client.js';
import { LocalApiServer } from './apiserver.js';

describe('the API server on etcd with the watch cache', () => {
  let etcd: EtcdProcess | undefined;
  beforeAll(async () => {
    etcd = await startEtcd();
  });
  afterAll(async () => {
    await etcd?.stop();
  });

  it('reads its own writes at once, lists, watches, and keeps everything across a restart', async () => {
    let server = await LocalApiServer.start({ storage: 'etcd', etcdServers: [etcd!.endpoint] });
    try {
      let { send } = rawClient(server);
      const path = '/api/v1/namespaces/default/configmaps';
      const watch = openWatch(server, `${path}?watch=true`);
      for (let i = 0; i < 20; i++) {
        const created = await send(
          'POST',
          path,
          JSON.stringify({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `cm-${i}` },
            data: { i: String(i) },
          }),
        );
        expect(created.status).toBe(201);
        const got = await send('GET', `${path}/cm-${i}`);
        expect(got.status).toBe(200);
        expect(got.json().metadata.resourceVersion).toBe(created.json().metadata.resourceVersion);
        const patched = await send('PATCH', `${path}/cm-${i}`, JSON.stringify({ data: { i: 'changed' } }), {
          'content-type': 'application/merge-patch+json',
        });
        expect(patched.status).toBe(200);
        expect((await send('GET', `${path}/cm-${i}`)).json().data).toEqual({ i: 'changed' });
      }
      const list = (await send('GET', `${path}?labelSelector=`)).json();
      expect(list.items.filter((o: any) => o.metadata.name.startsWith('cm-'))).toHaveLength(20);
      const any = await send('GET', `${path}/cm-3?resourceVersion=0`);
      expect(any.status).toBe(200);
      expect(any.json().metadata.name).toBe('cm-3');
      expect((await send('DELETE', `${path}/cm-0`)).status).toBe(200);
      expect((await send('GET', `${path}/cm-0`)).status).toBe(404);
      const deadline = Date.now() + 5_000;
      while (!watch.events.some((e) => e.type === 'DELETED') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      watch.stop();
      const mine = watch.events.filter((e) => e.object.metadata?.name?.startsWith('cm-'));
      expect(mine.filter((e) => e.type === 'ADDED')).toHaveLength(20);
      expect(mine.filter((e) => e.type === 'MODIFIED')).toHaveLength(20);
      expect(mine.filter((e) => e.type === 'DELETED')).toHaveLength(1);
      // A restart on the same etcd: the new cache lists everything again.
      await server.stop();
      server = await LocalApiServer.start({ storage: 'etcd', etcdServers: [etcd!.endpoint] });
      ({ send } = rawClient(server));
      expect((await send('GET', `${path}/cm-1`)).json().data).toEqual({ i: 'changed' });
      expect((await send('GET', `${path}/cm-0`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('lists at resourceVersion 0 from the cache, and waits for a NotOlderThan resourceVersion or answers 504', async () => {
    const server = await LocalApiServer.start({ storage: 'etcd', etcdServers: [etcd!.endpoint] });
    try {
      const { send } = rawClient(server);
      const path = '/api/v1/namespaces/default/configmaps';
      const created = await send(
        'POST',
        path,
        JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rv-a' } }),
      );
      expect(created.status).toBe(201);
      const rv = Number(created.json().metadata.resourceVersion);
      const list = vi.spyOn(server.storage, 'list');
      const any = await send('GET', `${path}?resourceVersion=0`);
      expect(any.status).toBe(200);
      expect(any.json().items.map((o: any) => o.metadata.name)).toContain('rv-a');
      expect(list).toHaveBeenCalledWith(
        expect.objectContaining({ prefix: expect.stringContaining('configmaps'), consistent: false }),
      );
      list.mockRestore();
      // NotOlderThan a revision the cache has: at once, at that revision or later.
      const older = await send('GET', `${path}?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`);
      expect(older.status).toBe(200);
      expect(Number(older.json().metadata.resourceVersion)).toBeGreaterThanOrEqual(rv);
      // NotOlderThan the next revision: answered once a write makes it.
      const latest = Number((await send('GET', path)).json().metadata.resourceVersion);
      const waiting = send('GET', `${path}?resourceVersion=${latest + 1}&resourceVersionMatch=NotOlderThan`);
      const next = await send(
        'POST',
        path,
        JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rv-b' } }),
      );
      expect(next.status).toBe(201);
      const waited = await waiting;
      expect(waited.status).toBe(200);
      expect(Number(waited.json().metadata.resourceVersion)).toBeGreaterThanOrEqual(latest + 1);
      expect(waited.json().items.map((o: any) => o.metadata.name)).toContain('rv-b');
      // A revision nobody writes: kube's 504 after the cache's 3 s wait.
      const future = latest + 1_000_000;
      const tooLarge = await send('GET', `${path}?resourceVersion=${future}`);
      expect(tooLarge.status).toBe(504);
      const status = tooLarge.json();
      expect(status).toMatchObject({
        kind: 'Status',
        status: 'Failure',
        reason: 'Timeout',
        code: 504,
        details: {
          causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
          retryAfterSeconds: 1,
        },
      });
      expect(status.message).toMatch(new RegExp(`^Timeout: Too large resource version: ${future}, current: \\d+$`));
      expect((await send('GET', `${path}?resourceVersion=abc`)).status).toBe(400);
    } finally {
      vi.restoreAllMocks();
      await server.stop();
    }
  }, 60_000);

  it('answers 410 to a watch from a revision etcd compacted, and later watches still get their events', async () => {
    const other = new EtcdStorage({ endpoints: [etcd!.endpoint] });
    await other.open();
    let server = await LocalApiServer.start({ storage: 'etcd', etcdServers: [etcd!.endpoint] });
    try {
      let { send } = rawClient(server);
      const path = '/api/v1/namespaces/default/configmaps';
      const first = await send(
        'POST',
        path,
        JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'compact-a' } }),
      );
      const old = Number(first.json().metadata.resourceVersion);
      for (const v of ['2', '3']) {
        await send('PATCH', `${path}/compact-a`, JSON.stringify({ data: { v } }), {
          'content-type': 'application/merge-patch+json',
        });
      }
      // A new server's cache starts at its list, so watches from before go to etcd; etcd compacts by itself (to its
      // current revision, at least two past `old`: a watch from `old` starts at `old + 1`, which is then gone).
      await server.stop();
      await other.compact(await other.currentRevision());
      server = await LocalApiServer.start({ storage: 'etcd', etcdServers: [etcd!.endpoint] });
      ({ send } = rawClient(server));
      const expired = openWatch(server, `${path}?watch=true&resourceVersion=${old}`);
      const deadline = Date.now() + 10_000;
      while (expired.events.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expired.stop();
      expect(expired.events).toHaveLength(1);
      expect(expired.events[0]).toMatchObject({
        type: 'ERROR',
        object: { kind: 'Status', code: 410, reason: 'Expired' },
      });
      expect(expired.events[0].object.message).toMatch(/^too old resource version: /);
      const watch = openWatch(server, `${path}?watch=true`);
      const again = openWatch(server, `${path}?watch=true&resourceVersion=${old}`);
      // Give both watches time to start: the first only sees writes after it started.
      const started = Date.now() + 10_000;
      while (again.events.length === 0 && Date.now() < started) await new Promise((r) => setTimeout(r, 10));
      expect(again.events[0]).toMatchObject({ type: 'ERROR', object: { code: 410 } });
      expect(
        (
          await send(
            'POST',
            path,
            JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'compact-b' } }),
          )
        ).status,
      ).toBe(201);
      const until = Date.now() + 10_000;
      while (!watch.events.some((e) => e.object.metadata?.name === 'compact-b') && Date.now() < until)
        await new Promise((r) => setTimeout(r, 10));
      watch.stop();
      again.stop();
      expect(watch.events.filter((e) => e.object.metadata?.name === 'compact-b').map((e) => e.type)).toEqual(['ADDED']);
      expect((await send('GET', `${path}/compact-b`)).status).toBe(200);
    } finally {
      await server.stop();
      await other.close();
    }
  }, 60_000);
});
