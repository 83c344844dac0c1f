// HTTP-level benchmark of the local API server as users run it (`gardener-local apiserver`, its own process):
// creates, gets, a list of 10,000 objects, watch delivery latency with 100 watchers and the server's memory,
// per storage backend; plus raw etcd puts from this process as the floor for the etcd backend.
// Run: npx nx build gardener-local && npx tsx bench/apiserver/run.ts [memory file etcd]
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { startEtcd } from '../support/etcd.js';

type StorageKind = 'memory' | 'file' | 'etcd';

interface ServerProcess {
  url: string;
  pid: number;
  credentials: { ca: string; cert: string; key: string };
  stop(): Promise<void>;
}

/** The built CLI; BENCH_CLI points at another build (compare.ts runs a before and an after build side by side). */
const CLI = process.env.BENCH_CLI ?? join(import.meta.dirname, '..', '..', 'dist', 'tools', 'gardener-local', 'cli.js');

async function startServer(dir: string, kind: StorageKind, etcdUrl?: string): Promise<ServerProcess> {
  await writeFile(join(dir, 'tokens'), `${WRK_TOKEN},bench,1,"system:masters"\n`);
  const args = [
    CLI,
    'apiserver',
    '--data-dir',
    dir,
    '--port',
    '0',
    '--storage',
    kind,
    '--log-level',
    'error',
    '--token-auth-file',
    join(dir, 'tokens'),
  ];
  if (etcdUrl) args.push('--etcd-servers', etcdUrl);
  const nodeFlags = process.env.BENCH_SERVER_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  const proc = spawn(process.execPath, [...nodeFlags, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready at (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    proc.once('exit', (code) => reject(new Error(`apiserver exited with ${code}`)));
  });
  const pki = join(dir, 'pki');
  return {
    url,
    pid: proc.pid!,
    credentials: {
      ca: await readFile(join(pki, 'ca.crt'), 'utf8'),
      cert: await readFile(join(pki, 'admin.crt'), 'utf8'),
      key: await readFile(join(pki, 'admin.key'), 'utf8'),
    },
    stop: () =>
      new Promise((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

const WRK_TOKEN = 'bench-token';

/** Requests/s that wrk (a C load generator, 1 thread, 32 connections, 10 s) gets, when wrk is installed. */
function wrk(url: string, script?: string): string {
  const args = [
    '-t1',
    '-c32',
    '-d10s',
    '-H',
    `Authorization: Bearer ${WRK_TOKEN}`,
    ...(script ? ['-s', script] : []),
    url,
  ];
  try {
    const out = execFileSync('wrk', args, { encoding: 'utf8' });
    if (/Non-2xx/.test(out)) throw new Error(`wrk saw errors:\n${out}`);
    return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0).toFixed(0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'no wrk';
    throw err;
  }
}

async function rssMiB(pid: number): Promise<string> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return (kb / 1024).toFixed(0);
}

async function rawEtcdPuts(url: string): Promise<string> {
  const client = new Etcd3({ hosts: url });
  const value = JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'x', labels: { bench: 'yes' } },
    data: { i: '0' },
  });
  const ms = await pool(N, (i) => client.put(`/bench/raw/${i}`).value(value).exec());
  client.close();
  return (N / (ms / 1000)).toFixed(0);
}

const N = Number(process.env.BENCH_OBJECTS ?? 10_000);
const CONCURRENCY = 32;
const WATCHERS = 100;

function client(server: ServerProcess) {
  const agent = new Agent({
    keepAlive: true,
    maxSockets: CONCURRENCY,
    ca: server.credentials.ca,
    cert: server.credentials.cert,
    key: server.credentials.key,
  });
  return (method: string, path: string, body?: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${server.url}${path}`,
        {
          method,
          agent,
          headers: { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}

async function pool(count: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await fn(next++);
    }),
  );
  return performance.now() - start;
}

const percentile = (xs: number[], p: number) =>
  xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function bench(kind: StorageKind): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-apiserver-'));
  const etcd = kind === 'etcd' ? await startEtcd(dir) : undefined;
  const server = await startServer(dir, kind, etcd?.url);
  const send = client(server);
  try {
    const body = (i: number) =>
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}`, labels: { bench: 'yes' } },
        data: { i: String(i) },
      });
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
    // Like informers: list (here one item, for the resourceVersion), then watch from that resourceVersion.
    const listRv = JSON.parse((await send('GET', '/api/v1/namespaces/default/configmaps?limit=1')).body).metadata
      .resourceVersion;
    let established = 0;
    const watchers = Array.from({ length: WATCHERS }, () => {
      const req = request(
        `${server.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${listRv}&fieldSelector=metadata.name%3Dcm-0`,
        { ca: server.credentials.ca, cert: server.credentials.cert, key: server.credentials.key },
        (res) => {
          established++;
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
        },
      );
      req.end();
      return req;
    });
    while (established < WATCHERS) await new Promise((r) => setTimeout(r, 50));
    for (let u = 0; u < 200; u++) {
      const value = `u${u}`;
      sentAt.set(value, performance.now());
      await send('PATCH', '/api/v1/namespaces/default/configmaps/cm-0', JSON.stringify({ data: { i: value } })).catch(
        () => undefined,
      );
    }
    await new Promise((r) => setTimeout(r, 1000));
    watchers.forEach((w) => w.destroy());
    const rss = await rssMiB(server.pid);
    const wrkGets = wrk(`${server.url}/api/v1/namespaces/default/configmaps/cm-1`);
    const wrkCreates = wrk(server.url, join(import.meta.dirname, 'create.lua'));
    const floor = etcd ? await rawEtcdPuts(etcd.url) : '';
    return {
      backend: kind,
      'creates/s (32 conc.)': (N / (createMs / 1000)).toFixed(0),
      'gets/s (32 conc.)': (N / (getMs / 1000)).toFixed(0),
      [`list ${N} median ms`]: percentile(listTimes, 50).toFixed(1),
      'watch p50 ms': latencies.length ? percentile(latencies, 50).toFixed(1) : 'n/a',
      'watch p99 ms': latencies.length ? percentile(latencies, 99).toFixed(1) : 'n/a',
      'watch events': String(latencies.length),
      'server RSS MiB': rss,
      'wrk gets/s': wrkGets,
      'wrk creates/s': wrkCreates,
      'raw etcd puts/s (32 conc.)': floor || '–',
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
