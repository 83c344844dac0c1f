// Before/after comparison of two builds of `gardener-local apiserver` in ONE run, for a busy machine: every server
// (per build and backend) runs at once with the same objects, and the measurements alternate between them round by
// round, so that load from elsewhere hits all of them alike. Reports medians per server and the ratios.
//
// Build the two CLIs (e.g. the baseline from a clean tree, then the change) into separate directories:
//   (cd tools/gardener-local && npx tsup --out-dir ../../bench/apiserver/.build/before)   # on the baseline
//   (cd tools/gardener-local && npx tsup --out-dir ../../bench/apiserver/.build/after)    # with the change
// Run: npx tsx bench/apiserver/compare.ts [--rounds 5] [--seconds 5] [--objects 10000] [--backends memory,etcd]
// Needs wrk, the C HTTP load generator (`sudo apt-get install wrk`; not installed by the bootstrap, as no test uses it).
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startEtcd } from '../support/etcd.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '5' },
    objects: { type: 'string', default: '10000' },
    backends: { type: 'string', default: 'memory,etcd' },
    before: { type: 'string', default: join(import.meta.dirname, '.build', 'before', 'cli.js') },
    after: { type: 'string', default: join(import.meta.dirname, '.build', 'after', 'cli.js') },
  },
});
const ROUNDS = Number(args.rounds);
const N = Number(args.objects);
const TOKEN = 'bench-token';
const CONCURRENCY = 32;

interface Server {
  name: string;
  url: string;
  credentials: { ca: string; cert: string; key: string };
  stop(): Promise<void>;
}

async function startServer(name: string, cli: string, kind: string): Promise<Server> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-compare-'));
  const etcd = kind === 'etcd' ? await startEtcd(dir) : undefined;
  await writeFile(join(dir, 'tokens'), `${TOKEN},bench,1,"system:masters"\n`);
  const argv = [
    cli,
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
  if (etcd) argv.push('--etcd-servers', etcd.url);
  const proc = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready at (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    proc.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  const pki = join(dir, 'pki');
  return {
    name,
    url,
    credentials: {
      ca: await readFile(join(pki, 'ca.crt'), 'utf8'),
      cert: await readFile(join(pki, 'admin.crt'), 'utf8'),
      key: await readFile(join(pki, 'admin.key'), 'utf8'),
    },
    stop: async () => {
      await new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      });
      etcd?.proc.kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function client(server: Server) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY, ...server.credentials });
  return (method: string, path: string, body?: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${server.url}${path}`,
        { method, agent, headers: { 'content-type': 'application/json' } },
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

async function pool(count: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await fn(next++);
    }),
  );
}

/** wrk's gets/s of one object; async, so that two can run at the same time. */
function wrkGets(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(
      'wrk',
      ['-t1', '-c32', `-d${args.seconds}s`, '-H', `Authorization: Bearer ${TOKEN}`, url],
      { encoding: 'utf8' },
      (err, out) => {
        if (err) return reject(err);
        if (/Non-2xx/.test(out)) return reject(new Error(`wrk saw errors:\n${out}`));
        resolve(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0));
      },
    );
  });
}

const median = (xs: number[]) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const servers: Server[] = [];
const load: number[] = [loadavg()[0]];
try {
  for (const kind of args.backends.split(',')) {
    for (const build of ['before', 'after'] as const)
      servers.push(await startServer(`${kind} ${build}`, build === 'before' ? args.before : args.after, kind));
  }
  for (const server of servers) {
    const send = client(server);
    await pool(N, async (i) => {
      const body = JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}`, labels: { bench: 'yes' } },
        data: { i: String(i) },
      });
      const r = await send('POST', '/api/v1/namespaces/default/configmaps', body);
      if (r.status !== 201) throw new Error(`${server.name}: create ${r.status} ${r.body}`);
    });
  }
  const gets = new Map<string, number[]>(servers.map((s) => [s.name, []]));
  const lists = new Map<string, number[]>(servers.map((s) => [s.name, []]));
  /** Per-round ratios of two servers loaded at the same time. */
  const ratios = new Map<string, number[]>();
  const byName = new Map(servers.map((s) => [s.name, s]));
  const kinds = args.backends.split(',');
  // Pairs loaded at the same time: each build against the other per backend, and etcd against memory per build.
  const pairs: [string, string][] = kinds.map((k) => [`${k} after`, `${k} before`]);
  if (kinds.includes('etcd') && kinds.includes('memory'))
    pairs.push(['memory after', 'etcd after'], ['memory before', 'etcd before']);
  const url = (s: Server) => `${s.url}/api/v1/namespaces/default/configmaps/cm-1`;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [a, b] of pairs) {
      // Both at once: whatever else loads the machine then loads both alike, and the ratio is that of their costs.
      const [ga, gb] = await Promise.all([wrkGets(url(byName.get(a)!)), wrkGets(url(byName.get(b)!))]);
      if (a.endsWith('after') && b.endsWith('before')) {
        gets.get(a)!.push(ga);
        gets.get(b)!.push(gb);
      }
      const key = `${a} ÷ ${b}`;
      ratios.set(key, [...(ratios.get(key) ?? []), ga / gb]);
      load.push(loadavg()[0]);
    }
    // Lists one after another, alternating, the order rotated each round.
    for (let rep = 0; rep < 2; rep++) {
      const order = servers.map((_, i) => servers[(i + round + rep) % servers.length]);
      for (const server of order) {
        const send = client(server);
        const t = performance.now();
        const r = await send('GET', '/api/v1/namespaces/default/configmaps');
        lists.get(server.name)!.push(performance.now() - t);
        if (JSON.parse(r.body).items.length < N) throw new Error(`${server.name}: list size`);
      }
    }
  }
  console.log(
    `${ROUNDS} rounds; per round and pair, two wrk -t1 -c32 -d${args.seconds}s at the same time; ${N} ConfigMaps per server; 1-min load average ${Math.min(...load).toFixed(2)}–${Math.max(...load).toFixed(2)} (median ${median(load).toFixed(2)})\n`,
  );
  console.log(
    '| server | wrk gets/s, median (loaded together with the other build) | all rounds | list of N, median ms | all (ms) |\n|---|---:|---|---:|---|',
  );
  for (const s of servers) {
    const g = gets.get(s.name)!;
    const l = lists.get(s.name)!;
    console.log(
      `| ${s.name} | ${median(g).toFixed(0)} | ${g.map((x) => x.toFixed(0)).join(', ')} | ${median(l).toFixed(1)} | ${l.map((x) => x.toFixed(0)).join(', ')} |`,
    );
  }
  console.log('\n| pair, loaded at the same time | gets/s ratio, median | all rounds |\n|---|---:|---|');
  for (const [key, rs] of ratios)
    console.log(`| ${key} | ${median(rs).toFixed(2)} | ${rs.map((x) => x.toFixed(2)).join(', ')} |`);
  const m = (name: string) => median(lists.get(name) ?? [NaN]);
  console.log('');
  for (const kind of kinds)
    console.log(`${kind}: list time before ÷ after ${(m(`${kind} before`) / m(`${kind} after`)).toFixed(2)}×`);
  if (lists.has('etcd after') && lists.has('memory after')) {
    for (const build of ['before', 'after'])
      console.log(`${build}: list time etcd ÷ memory ${(m(`etcd ${build}`) / m(`memory ${build}`)).toFixed(2)}×`);
  }
} finally {
  for (const s of servers) await s.stop().catch(() => undefined);
}
