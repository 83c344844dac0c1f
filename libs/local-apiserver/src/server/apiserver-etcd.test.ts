// The whole API server on etcd (through the watch cache): writes, reads right after them, lists, resourceVersion=0,
// watches, and a restart of the server on the same etcd.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
        const created = await send('POST', path, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { i: String(i) } }));
        expect(created.status).toBe(201);
        const got = await send('GET', `${path}/cm-${i}`);
        expect(got.status).toBe(200);
        expect(got.json().metadata.resourceVersion).toBe(created.json().metadata.resourceVersion);
        const patched = await send('PATCH', `${path}/cm-${i}`, JSON.stringify({ data: { i: 'changed' } }), { 'content-type': 'application/merge-patch+json' });
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
      while (!watch.events.some((e) => e.type === 'DELETED') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
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
});
