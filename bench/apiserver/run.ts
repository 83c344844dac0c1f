// HTTP-level benchmark of the local API server: creates, gets, a list of 10,000 objects and watch delivery
// latency with 100 watchers, per storage backend. Run: npx tsx bench/apiserver/run.ts [memory file etcd]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalApiServer, type StorageKind } from '../../libs/local-apiserver/src/index.js';

const N = Number(process.env.BENCH_OBJECTS ?? 10_000);
const CONCURRENCY = 32;
const WATCHERS = 100;

function client(server: LocalApiServer) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY, ca: server.credentials.ca.certPem, cert: server.credentials.admin.certPem, key: server.credentials.admin.keyPem });
  return (method: string, path: string, body?: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${server.url}${path}`, { method, agent, headers: { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' } }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });
}

async function pool(count: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const start = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) await fn(next++);
  }));
  return performance.now() - start;
}

const percentile = (xs: number[], p: number) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function startEtcd(dir: string): Promise<{ proc: ChildProcess; url: string }> {
  const port = 23790 + Math.floor(Math.random() * 1000);
  const url = `http://127.0.0.1:${port}`;
  const proc = spawn('etcd', ['--data-dir', join(dir, 'etcd'), '--listen-client-urls', url, '--advertise-client-urls', url, '--listen-peer-urls', `http://127.0.0.1:${port + 1}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${port + 1}`, '--initial-cluster', `default=http://127.0.0.1:${port + 1}`], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) return { proc, url };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('etcd did not start');
}

async function bench(kind: StorageKind): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-apiserver-'));
  const etcd = kind === 'etcd' ? await startEtcd(dir) : undefined;
  const server = await LocalApiServer.start({ storage: kind, dataDir: kind === 'file' ? dir : undefined, etcdServers: etcd ? [etcd.url] : undefined });
  const send = client(server);
  try {
    const body = (i: number) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, labels: { bench: 'yes' } }, data: { i: String(i) } });
    const createMs = await pool(N, async (i) => {
      const r = await send('POST', '/api/v1/namespaces/default/configmaps', body(i));
      if (r.status !== 201) throw new Error(`create ${r.status} ${r.body}`);
    });
    const getMs = await pool(N, async (i) => {
      const r = await send('GET', `/api/v1/namespaces/default/configmaps/cm-${i}`);
      if (r.status !== 200) throw new Error(`get ${r.status}`);
    });
    const listTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const r = await send('GET', '/api/v1/namespaces/default/configmaps');
      listTimes.push(performance.now() - t);
      if (JSON.parse(r.body).items.length !== N) throw new Error('list size');
    }
    // Watch delivery: 100 watchers, 200 updates, latency from write acknowledgement start to each delivery.
    const latencies: number[] = [];
    const sentAt = new Map<string, number>();
    const watchers = Array.from({ length: WATCHERS }, () => {
      const req = request(`${server.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${'' + 0}&fieldSelector=metadata.name%3Dcm-0`, { ca: server.credentials.ca.certPem, cert: server.credentials.admin.certPem, key: server.credentials.admin.keyPem }, (res) => {
        let buf = '';
        res.on('data', (d: Buffer) => {
          buf += d.toString();
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const event = JSON.parse(buf.slice(0, nl));
            buf = buf.slice(nl + 1);
            const t = sentAt.get(event.object?.data?.i);
            if (event.type === 'MODIFIED' && t !== undefined) latencies.push(performance.now() - t);
          }
        });
      });
      req.end();
      return req;
    });
    await new Promise((r) => setTimeout(r, 1000));
    for (let u = 0; u < 200; u++) {
      const value = `u${u}`;
      sentAt.set(value, performance.now());
      await send('PATCH', '/api/v1/namespaces/default/configmaps/cm-0', JSON.stringify({ data: { i: value } })).catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 1000));
    watchers.forEach((w) => w.destroy());
    return {
      backend: kind,
      'creates/s (32 conc.)': (N / (createMs / 1000)).toFixed(0),
      'gets/s (32 conc.)': (N / (getMs / 1000)).toFixed(0),
      [`list ${N} median ms`]: percentile(listTimes, 50).toFixed(1),
      'watch p50 ms': latencies.length ? percentile(latencies, 50).toFixed(1) : 'n/a',
      'watch p99 ms': latencies.length ? percentile(latencies, 99).toFixed(1) : 'n/a',
      'watch events': String(latencies.length),
    };
  } finally {
    await server.stop();
    etcd?.proc.kill();
    await rm(dir, { recursive: true, force: true });
  }
}

const kinds = (process.argv.slice(2).length ? process.argv.slice(2) : ['memory', 'file', 'etcd']) as StorageKind[];
const rows: Record<string, string>[] = [];
for (const kind of kinds) rows.push(await bench(kind));
const headers = Object.keys(rows[0]);
console.log(`| ${headers.join(' | ')} |\n|${headers.map(() => '---').join('|')}|`);
for (const row of rows) console.log(`| ${headers.map((h) => row[h]).join(' | ')} |`);
