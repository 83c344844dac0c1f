// Benchmark of whole local clusters as users run them (`gardener-local cluster up|down`): time from `up` to ready,
// cold and warm; Pods started per second; the memory of an idle cluster; how many idle Pods one machine holds.
// Every cluster runs as its own detached supervisor process (API server, controller manager, process kubelet, service
// proxy); Pods are local processes. This script talks to the API server directly (HTTPS with the kubeconfig's client
// certificate) so that polling costs little next to what it measures.
// Run: npx nx build gardener-local && npx tsx bench/local-cluster/run.ts [--parts startup,pods,memory,churn,capacity]
//      [--runs 5] [--pod-runs 3] [--max-pods 1000] [--churn-cycles 8]
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';

const execFileAsync = promisify(execFile);

const { values: flags } = parseArgs({
  options: {
    parts: { type: 'string', default: 'startup,pods,memory,churn,capacity' },
    runs: { type: 'string', default: '5' },
    'pod-runs': { type: 'string', default: '3' },
    'max-pods': { type: 'string', default: '1000' },
    'churn-cycles': { type: 'string', default: '8' },
  },
});
const PARTS = new Set(flags.parts.split(','));
const STARTUP_RUNS = Number(flags.runs);
const POD_RUNS = Number(flags['pod-runs']);
const MAX_PODS = Number(flags['max-pods']);
const PODS = 50;
/** Pods per cluster in the capacity test: the kubelet announces 110 Pods per node (the upstream default). */
const PODS_PER_CLUSTER = 100;
const READY_LIMIT_MS = 60_000;
const MEM_FLOOR = 0.25;
const NODE_VARIANT_MAX = 200;
const CHURN_CYCLES = Number(flags['churn-cycles']);

const BUILT_CLI = join(import.meta.dirname, '..', '..', 'dist', 'tools', 'gardener-local');

type Variant = 'node' | 'sleep';
const IMAGES: Record<Variant, string> = { node: 'bench.local/idle-node:v1', sleep: 'bench.local/sleep:v1' };

// ---------------------------------------------------------------------------------------------------------------------
// Small helpers: statistics, /proc, time.

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : '–');
const stats = (xs: number[], digits = 0) =>
  xs.length ? `${fmt(median(xs), digits)} (${fmt(Math.min(...xs), digits)}–${fmt(Math.max(...xs), digits)})` : '–';
const mib = (kib: number) => kib / 1024;
const log = (msg: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

async function procField(pid: number, file: string, field: string): Promise<number> {
  try {
    const text = await readFile(`/proc/${pid}/${file}`, 'utf8');
    return Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  } catch {
    return 0; // the process is gone
  }
}
const rssKiB = (pid: number) => procField(pid, 'status', 'VmRSS');
const pssKiB = (pid: number) => procField(pid, 'smaps_rollup', 'Pss');

async function memInfo(): Promise<{ totalKiB: number; availableKiB: number }> {
  const text = await readFile('/proc/meminfo', 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { totalKiB: field('MemTotal'), availableKiB: field('MemAvailable') };
}

/** Parent of every live process, from /proc/PID/stat (the command name may hold spaces and parentheses). */
async function parents(): Promise<Map<number, number>> {
  const result = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = await readFile(`/proc/${entry}/stat`, 'utf8');
      const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
      if (rest[0] !== 'Z') result.set(Number(entry), Number(rest[1]));
    } catch {
      // gone meanwhile
    }
  }
  return result;
}

async function descendants(pid: number): Promise<number[]> {
  const children = new Map<number, number[]>();
  for (const [child, parent] of await parents()) children.set(parent, [...(children.get(parent) ?? []), child]);
  const result: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length) {
    const next = queue.shift()!;
    result.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return result;
}

/** CPU seconds (user + system) a process used so far. */
async function cpuSeconds(pid: number): Promise<number> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'utf8');
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / 100; // utime, stime in clock ticks (CLK_TCK 100 on Linux)
  } catch {
    return 0;
  }
}

/** Memory of a process and everything below it: RSS sums count shared pages (the node binary) once per process. */
async function treeMemory(pid: number): Promise<{
  supervisorRssKiB: number;
  supervisorPssKiB: number;
  children: number;
  treeRssKiB: number;
  treePssKiB: number;
}> {
  const below = await descendants(pid);
  const supervisorRssKiB = await rssKiB(pid);
  const supervisorPssKiB = await pssKiB(pid);
  let treeRssKiB = supervisorRssKiB;
  let treePssKiB = supervisorPssKiB;
  for (const child of below) {
    treeRssKiB += await rssKiB(child);
    treePssKiB += await pssKiB(child);
  }
  return { supervisorRssKiB, supervisorPssKiB, children: below.length, treeRssKiB, treePssKiB };
}

/** Pids and command lines of live processes whose command line contains `needle`. */
async function processesWith(needle: string): Promise<{ pid: number; args: string }[]> {
  const { stdout } = await execFileAsync('ps', ['-eo', 'pid=,stat=,args='], { maxBuffer: 64 * 2 ** 20 });
  return stdout
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter(
      (m): m is RegExpExecArray =>
        m !== null && !m[2].startsWith('Z') && m[3].includes(needle) && Number(m[1]) !== process.pid,
    )
    .map((m) => ({ pid: Number(m[1]), args: m[3] }));
}

/**
 * How busy the machine is besides this benchmark: every second, the CPU time of every process from /proc, split into
 * ours (this script and every process whose command line holds the work directory: CLI copy, supervisors, Pods) and
 * the rest (machine-wide busy time from /proc/stat minus ours). Approximate: the last second of a process that exits
 * between two samples counts as someone else's.
 */
class CpuMonitor {
  private previous = new Map<string, number>();
  private ownKeys = new Map<string, boolean>();
  private lastBusy = 0;
  private lastTotal = 0;
  private lastUptimeTicks = 0;
  private timer?: NodeJS.Timeout;
  private sampling?: Promise<void>;
  ours = 0;
  busy = 0;
  total = 0;

  async start(): Promise<void> {
    await this.sample(true);
    this.timer = setInterval(() => {
      this.sampling ??= this.sample(false).finally(() => (this.sampling = undefined));
    }, 1_000);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sampling;
  }

  /** Percentages of all cores since `mark`: the machine's busy time, ours, everybody else's. */
  since(mark: { ours: number; busy: number; total: number }): { busy: number; ours: number; others: number } {
    const total = this.total - mark.total || 1;
    const busy = ((this.busy - mark.busy) / total) * 100;
    const ours = ((this.ours - mark.ours) / total) * 100;
    return { busy, ours: Math.min(ours, busy), others: Math.max(0, busy - ours) };
  }

  mark() {
    return { ours: this.ours, busy: this.busy, total: this.total };
  }

  private async sample(first: boolean): Promise<void> {
    const cpu = (await readFile('/proc/stat', 'utf8')).split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const total = cpu.reduce((a, b) => a + b, 0);
    const busy = total - cpu[3] - cpu[4]; // minus idle and iowait
    const uptimeTicks = Number((await readFile('/proc/uptime', 'utf8')).split(' ')[0]) * 100;
    const seen = new Map<string, number>();
    let ours = 0;
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let fields: string[];
      try {
        const text = await readFile(`/proc/${entry}/stat`, 'utf8');
        fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      } catch {
        continue;
      }
      const key = `${entry}:${fields[19]}`; // pid and start time
      const ticks = Number(fields[11]) + Number(fields[12]);
      seen.set(key, ticks);
      if (first) continue;
      let own = this.ownKeys.get(key);
      if (own === undefined) {
        const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
        own = Number(entry) === process.pid || (work !== '' && cmdline.includes(work));
        this.ownKeys.set(key, own);
      }
      if (!own) continue;
      const before = this.previous.get(key);
      ours += before !== undefined ? ticks - before : Number(fields[19]) >= this.lastUptimeTicks ? ticks : 0;
    }
    if (!first) {
      // /proc/stat counts in USER_HZ per core; process times too (both 100 per second on Linux).
      this.busy += busy - this.lastBusy;
      this.total += total - this.lastTotal;
      this.ours += ours;
    }
    for (const key of this.ownKeys.keys()) if (!seen.has(key)) this.ownKeys.delete(key);
    this.previous = seen;
    this.lastBusy = busy;
    this.lastTotal = total;
    this.lastUptimeTicks = uptimeTicks;
  }
}

const monitor = new CpuMonitor();
/** A line for a part's heading: how busy the machine was and how much of that was others' work. */
const busyNote = (mark: ReturnType<CpuMonitor['mark']>) => {
  const b = monitor.since(mark);
  return `machine CPU busy ${fmt(b.busy)}% of ${cpus().length} cores, ${fmt(b.ours)}% ours, ${fmt(b.others)}% other processes`;
};

// ---------------------------------------------------------------------------------------------------------------------
// The clusters: `gardener-local cluster up|down` as a user runs them, and the API of each.

let work = '';
let cli = '';
let imageMap = '';
const started = new Map<string, { dataDir: string; name: string }>();

async function gardenerLocal(args: string[], timeout = 120_000): Promise<{ ms: number; stdout: string }> {
  const start = performance.now();
  const { stdout } = await execFileAsync(process.execPath, [cli, ...args], { timeout });
  return { ms: performance.now() - start, stdout };
}

interface PodSummary {
  status?: { phase?: string; conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

class Cluster {
  private agent?: Agent;
  private server = '';

  constructor(
    readonly dataDir: string,
    readonly name: string,
  ) {}

  get root() {
    return join(this.dataDir, this.name);
  }

  /** `cluster up`; the time runs from starting the command to its return (it returns once the cluster is ready). */
  async up(): Promise<{ ms: number; startedAt: number; logOffset: number }> {
    const logOffset = await stat(join(this.root, 'cluster.log')).then(
      (s) => s.size,
      () => 0,
    );
    started.set(this.root, { dataDir: this.dataDir, name: this.name });
    const startedAt = Date.now();
    const { ms, stdout } = await gardenerLocal([
      'cluster',
      'up',
      this.name,
      '--data-dir',
      this.dataDir,
      '--image-map',
      imageMap,
    ]);
    if (!stdout.includes('is ready')) throw new Error(`cluster ${this.name}: unexpected output of up: ${stdout}`);
    this.agent?.destroy();
    this.agent = undefined;
    return { ms, startedAt, logOffset };
  }

  async down(): Promise<number> {
    this.agent?.destroy();
    this.agent = undefined;
    const { ms, stdout } = await gardenerLocal(['cluster', 'down', this.name, '--data-dir', this.dataDir]);
    if (!stdout.includes('stopped')) throw new Error(`cluster ${this.name}: unexpected output of down: ${stdout}`);
    started.delete(this.root);
    return ms;
  }

  async pid(): Promise<number> {
    return Number((await readFile(join(this.root, 'supervisor.pid'), 'utf8')).trim());
  }

  /** Milliseconds from `startedAt` to the supervisor's log lines that mark its start-up phases. */
  async phases(startedAt: number, logOffset: number): Promise<Record<string, number>> {
    const text = (await readFile(join(this.root, 'cluster.log'))).subarray(logOffset).toString('utf8');
    const result: Record<string, number> = {};
    for (const line of text.split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { time?: string; msg?: string };
      if (!entry.time || !entry.msg) continue;
      const at = Date.parse(entry.time) - startedAt;
      result['first log line'] ??= at;
      for (const phase of [
        'Local API server started',
        'Controller manager started',
        'Kubelet started',
        'cluster ready',
      ]) {
        if (entry.msg === phase) result[phase] ??= at;
      }
    }
    return result;
  }

  async api<T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> {
    if (!this.agent) {
      const kc = new KubeConfig();
      kc.loadFromFile(join(this.root, 'kubeconfig'));
      const cluster = kc.getCurrentCluster()!;
      const user = kc.getCurrentUser()!;
      this.server = cluster.server;
      const decode = (data?: string) => Buffer.from(data ?? '', 'base64');
      this.agent = new Agent({
        keepAlive: true,
        maxSockets: 8,
        ca: decode(cluster.caData),
        cert: decode(user.certData),
        key: decode(user.keyData),
      });
    }
    const agent = this.agent;
    return new Promise<T>((resolve, reject) => {
      const req = request(
        `${this.server}${path}`,
        { method, agent, headers: { 'content-type': contentType, accept: 'application/json' }, timeout: 30_000 },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            if (status >= 300) reject(new Error(`${method} ${path}: ${status} ${text.slice(0, 300)}`));
            else resolve((text ? JSON.parse(text) : {}) as T);
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  createDeployment(name: string, variant: Variant, replicas: number): Promise<unknown> {
    return this.api('POST', '/apis/apps/v1/namespaces/default/deployments', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: {
        replicas,
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { terminationGracePeriodSeconds: 2, containers: [{ name: 'idle', image: IMAGES[variant] }] },
        },
      },
    });
  }

  scale(name: string, replicas: number): Promise<unknown> {
    return this.api(
      'PATCH',
      `/apis/apps/v1/namespaces/default/deployments/${name}`,
      { spec: { replicas } },
      'application/merge-patch+json',
    );
  }

  async readyReplicas(name: string): Promise<number> {
    const d = await this.api<{ status?: { readyReplicas?: number } }>(
      'GET',
      `/apis/apps/v1/namespaces/default/deployments/${name}`,
    );
    return d.status?.readyReplicas ?? 0;
  }

  /** Polls every 100 ms until `replicas` are Ready; the milliseconds from `since`, or undefined after `timeoutMs`. */
  async waitReady(
    name: string,
    replicas: number,
    since: number,
    timeoutMs = READY_LIMIT_MS,
  ): Promise<number | undefined> {
    while (performance.now() - since < timeoutMs) {
      if ((await this.readyReplicas(name)) >= replicas) return performance.now() - since;
      await sleep(100);
    }
    return undefined;
  }

  async pods(name: string): Promise<PodSummary[]> {
    const list = await this.api<{ items: PodSummary[] }>(
      'GET',
      `/api/v1/namespaces/default/pods?labelSelector=app%3D${name}`,
    );
    return list.items;
  }

  /** Deletes the Deployment and waits until its Pods are gone from the API and from the process table. */
  async deleteDeployment(name: string, program: string): Promise<void> {
    await this.api('DELETE', `/apis/apps/v1/namespaces/default/deployments/${name}?propagationPolicy=Background`);
    const deadline = Date.now() + 120_000;
    const pid = await this.pid();
    for (;;) {
      const left = (await this.pods(name)).length;
      const processes = (await descendants(pid)).length;
      if (left === 0 && processes === 0) return;
      if (Date.now() > deadline)
        throw new Error(`deployment ${name}: ${left} pods and ${processes} processes (${program}) left after 120 s`);
      await sleep(250);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// The parts.

const print = (line = '') => console.log(line);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

async function bundleLoad(): Promise<void> {
  // What every `gardener-local` process pays before it does anything: a bare Node start, and the bundle's load.
  const empty = join(work, 'empty');
  await mkdir(empty);
  const bare: number[] = [];
  const list: number[] = [];
  for (let i = 0; i < 5; i++) {
    let t = performance.now();
    await execFileAsync(process.execPath, ['-e', '0']);
    bare.push(performance.now() - t);
    t = performance.now();
    await execFileAsync(process.execPath, [cli, 'cluster', 'list', '--data-dir', empty]);
    list.push(performance.now() - t);
  }
  const memory = async (args: string[]) => {
    const { stderr } = await execFileAsync('/usr/bin/time', ['-f', '%M', process.execPath, ...args]).catch(() => ({
      stderr: 'NaN',
    }));
    return Number(stderr.trim().split('\n').pop());
  };
  print('### What any `gardener-local` process pays first\n');
  print('| | wall ms, median of 5 (min–max) | peak RSS, MiB |');
  print('|---|---|---|');
  print(`| \`node -e 0\` | ${stats(bare)} | ${fmt(mib(await memory(['-e', '0'])))} |`);
  print(
    `| \`gardener-local cluster list\` (loads the ${fmt((await stat(cli)).size / 2 ** 20, 1)} MB bundle, does nothing) | ${stats(list)} | ${fmt(mib(await memory([cli, 'cluster', 'list', '--data-dir', empty])))} |`,
  );
  print();
}

async function startup(): Promise<void> {
  log(`startup: ${STARTUP_RUNS} cold and ${STARTUP_RUNS} warm, load ${load()}`);
  const mark = monitor.mark();
  const warm = new Cluster(join(work, 'warm'), 'warm');
  await warm.up();
  await warm.down();
  const results = {
    cold: { up: [] as number[], down: [] as number[], phases: [] as Record<string, number>[] },
    warm: { up: [] as number[], down: [] as number[], phases: [] as Record<string, number>[] },
  };
  for (let i = 0; i < STARTUP_RUNS; i++) {
    // Cold and warm take turns, so that a busy moment of the machine hits both alike.
    const cold = new Cluster(join(work, 'cold', String(i)), 'cold');
    for (const [kind, cluster] of [
      ['cold', cold],
      ['warm', warm],
    ] as const) {
      const up = await cluster.up();
      results[kind].up.push(up.ms);
      results[kind].phases.push(await cluster.phases(up.startedAt, up.logOffset));
      results[kind].down.push(await cluster.down());
      log(`  ${kind} ${i}: up ${fmt(up.ms)} ms, down ${fmt(results[kind].down[i])} ms`);
    }
  }
  print(`### Time to ready (\`cluster up\` from start to return), ${STARTUP_RUNS} runs each\n`);
  print(`During this part: ${busyNote(mark)}; load average after: ${load()}.\n`);
  print(
    "| | up, ms: median (min–max) | down (no Pods), ms | supervisor's first log line | API server started | controller manager started | kubelet started | ready marker written |",
  );
  print('|---|---|---|---|---|---|---|---|');
  for (const kind of ['cold', 'warm'] as const) {
    const r = results[kind];
    const phase = (name: string) => stats(r.phases.map((p) => p[name]).filter((x) => x !== undefined));
    print(
      `| ${kind} | ${stats(r.up)} | ${stats(r.down)} | ${phase('first log line')} | ${phase('Local API server started')} | ${phase('Controller manager started')} | ${phase('Kubelet started')} | ${phase('cluster ready')} |`,
    );
  }
  print("\nPhase columns: ms from starting `cluster up` to the supervisor's log line, median (min–max).\n");
}

async function podsPerSecond(): Promise<void> {
  log(`pods: ${POD_RUNS} runs of ${PODS} Pods per variant, load ${load()}`);
  const mark = monitor.mark();
  const cluster = new Cluster(join(work, 'pods'), 'pods');
  await cluster.up();
  try {
    const supervisor = await cluster.pid();
    const results: Record<
      Variant,
      { seconds: number[]; memory: Awaited<ReturnType<typeof treeMemory>>[]; cpu: number[] }
    > = {
      node: { seconds: [], memory: [], cpu: [] },
      sleep: { seconds: [], memory: [], cpu: [] },
    };
    for (let i = 0; i < POD_RUNS; i++) {
      for (const variant of ['node', 'sleep'] as const) {
        const name = `${variant}-${i}`;
        const cpuBefore = await cpuSeconds(supervisor);
        const since = performance.now();
        await cluster.createDeployment(name, variant, PODS);
        const ms = await cluster.waitReady(name, PODS, since, 120_000);
        if (ms === undefined) throw new Error(`${name}: ${PODS} Pods not Ready after 120 s`);
        results[variant].cpu.push((await cpuSeconds(supervisor)) - cpuBefore);
        results[variant].seconds.push(ms / 1000);
        await sleep(5_000);
        results[variant].memory.push(await treeMemory(supervisor));
        log(
          `  ${name}: ${fmt(ms)} ms, ${fmt(PODS / (ms / 1000), 1)} pods/s, tree RSS ${fmt(mib(results[variant].memory[i].treeRssKiB))} MiB`,
        );
        await cluster.deleteDeployment(name, variant);
      }
    }
    print(`### Pods started per second: a Deployment of ${PODS} replicas until all are Ready, ${POD_RUNS} runs\n`);
    print(`During this part: ${busyNote(mark)}; load average after: ${load()}.\n`);
    print(
      '| program | seconds to all Ready | Pods/s | supervisor CPU s during the start | supervisor RSS with the Pods, MiB | supervisor + Pods RSS sum, MiB | supervisor + Pods PSS sum, MiB |',
    );
    print('|---|---|---|---|---|---|---|');
    for (const variant of ['node', 'sleep'] as const) {
      const r = results[variant];
      const program = variant === 'node' ? 'Node `setInterval(() => {}, 1e9)`' : '`sleep infinity` (coreutils)';
      print(
        `| ${program} | ${stats(r.seconds, 2)} | ${stats(
          r.seconds.map((s) => PODS / s),
          1,
        )} | ${stats(r.cpu, 1)} | ${stats(r.memory.map((m) => mib(m.supervisorRssKiB)))} | ${stats(r.memory.map((m) => mib(m.treeRssKiB)))} | ${stats(r.memory.map((m) => mib(m.treePssKiB)))} |`,
      );
    }
    print('\nMedian (min–max). Memory sampled 5 s after the last Pod was Ready.\n');
  } finally {
    await cluster.down();
  }
}

async function idleMemory(): Promise<void> {
  log(`memory: 3 samples, load ${load()}`);
  const mark = monitor.mark();
  const samples: { memory: Awaited<ReturnType<typeof treeMemory>>; cpuPercent: number }[] = [];
  const cluster = new Cluster(join(work, 'memory'), 'memory');
  for (let i = 0; i < 3; i++) {
    await cluster.up();
    try {
      const pid = await cluster.pid();
      const cpuBefore = await cpuSeconds(pid);
      await sleep(10_000);
      const cpu = (await cpuSeconds(pid)) - cpuBefore;
      const memory = await treeMemory(pid);
      samples.push({ memory, cpuPercent: (cpu / 10) * 100 });
      log(
        `  sample ${i}: supervisor RSS ${fmt(mib(memory.supervisorRssKiB))} MiB, ${memory.children} child processes, CPU ${fmt(cpu * 10, 1)}%`,
      );
    } finally {
      await cluster.down();
    }
  }
  print(`### Memory of an idle cluster (no Pods), 10 s after \`up\` returned, 3 clusters\n`);
  print(`During this part: ${busyNote(mark)}; load average after: ${load()}.\n`);
  print(
    '| supervisor RSS, MiB | supervisor PSS, MiB | child processes | supervisor + children RSS, MiB | supervisor CPU while idle, % of one core |',
  );
  print('|---|---|---|---|---|');
  print(
    `| ${stats(samples.map((s) => mib(s.memory.supervisorRssKiB)))} | ${stats(samples.map((s) => mib(s.memory.supervisorPssKiB)))} | ${stats(samples.map((s) => s.memory.children))} | ${stats(samples.map((s) => mib(s.memory.treeRssKiB)))} | ${stats(
      samples.map((s) => s.cpuPercent),
      1,
    )} |`,
  );
  print();
}

async function churn(): Promise<void> {
  // Whether the supervisor's memory comes back after Pods come and go: 50 `sleep` Pods created and deleted, repeatedly.
  log(`churn: ${CHURN_CYCLES} cycles of ${PODS} Pods, load ${load()}`);
  const mark = monitor.mark();
  const cluster = new Cluster(join(work, 'churn'), 'churn');
  await cluster.up();
  const rows: { rss: number; pss: number }[] = [];
  try {
    const pid = await cluster.pid();
    await sleep(5_000);
    rows.push({ rss: mib(await rssKiB(pid)), pss: mib(await pssKiB(pid)) });
    for (let i = 0; i < CHURN_CYCLES; i++) {
      const name = `churn-${i}`;
      const since = performance.now();
      await cluster.createDeployment(name, 'sleep', PODS);
      if ((await cluster.waitReady(name, PODS, since, 120_000)) === undefined)
        throw new Error(`${name}: not Ready after 120 s`);
      await cluster.deleteDeployment(name, 'sleep');
      await sleep(5_000);
      rows.push({ rss: mib(await rssKiB(pid)), pss: mib(await pssKiB(pid)) });
      log(`  cycle ${i + 1}: supervisor RSS ${fmt(rows[rows.length - 1].rss)} MiB`);
    }
  } finally {
    await cluster.down();
  }
  print(
    `### Supervisor memory after Pods come and go: ${CHURN_CYCLES} times ${PODS} \`sleep\` Pods created, Ready, deleted\n`,
  );
  print(`During this part: ${busyNote(mark)}. Sampled 5 s after the last Pod process of a cycle was gone.\n`);
  print(`| after cycle | ${rows.map((_, i) => String(i)).join(' | ')} |`);
  print(`|---|${rows.map(() => '---').join('|')}|`);
  print(`| supervisor RSS, MiB | ${rows.map((r) => fmt(r.rss)).join(' | ')} |`);
  print(`| supervisor PSS, MiB | ${rows.map((r) => fmt(r.pss)).join(' | ')} |`);
  print();
}

interface Step {
  pods: number;
  clusters: number;
  seconds?: number;
  ready: number;
  supervisorRssMiB: number[];
  treeRssMiB: number;
  treePssMiB: number;
  availableMiB: number;
  load: string;
  others: number;
}

/** Scales `variant` Deployments over clusters of at most PODS_PER_CLUSTER Pods each, step by step. */
async function fleet(
  variant: Variant,
  steps: number[],
  demonstrateNodeLimit: boolean,
): Promise<{ steps: Step[]; baseline: number; stopReason: string; limitNote?: string; idleCpuPercent?: number }> {
  const dataDir = join(work, `fleet-${variant}`);
  const clusters: Cluster[] = [];
  const deployed = new Map<Cluster, number>();
  const result: Step[] = [];
  const mem = await memInfo();
  const baseline = mem.availableKiB;
  let stopReason = `reached the last step (${steps[steps.length - 1]})`;
  let limitNote: string | undefined;
  let idleCpuPercent: number | undefined;
  try {
    for (const pods of steps) {
      const needed = Math.ceil(pods / PODS_PER_CLUSTER);
      while (clusters.length < needed) {
        const cluster = new Cluster(dataDir, `${variant}${clusters.length}`);
        await cluster.up();
        clusters.push(cluster);
      }
      // Fill the clusters in order; the Pods of this step start on all of them at once.
      const mark = monitor.mark();
      const since = performance.now();
      const targets = clusters.map((_, i) => Math.max(0, Math.min(PODS_PER_CLUSTER, pods - i * PODS_PER_CLUSTER)));
      await Promise.all(
        clusters.map((cluster, i) => {
          const had = deployed.get(cluster);
          deployed.set(cluster, targets[i]);
          if (had === undefined) return cluster.createDeployment('idle', variant, targets[i]);
          return had === targets[i] ? undefined : cluster.scale('idle', targets[i]);
        }),
      );
      const waits = await Promise.all(clusters.map((cluster, i) => cluster.waitReady('idle', targets[i], since)));
      const seconds = waits.some((w) => w === undefined) ? undefined : Math.max(...(waits as number[])) / 1000;
      const ready = (await Promise.all(clusters.map((c) => c.readyReplicas('idle')))).reduce((a, b) => a + b, 0);
      await sleep(3_000);
      const memories = await Promise.all(clusters.map(async (c) => treeMemory(await c.pid())));
      const available = await memInfo();
      const step: Step = {
        pods,
        clusters: clusters.length,
        seconds,
        ready,
        supervisorRssMiB: memories.map((m) => mib(m.supervisorRssKiB)),
        treeRssMiB: mib(memories.reduce((a, m) => a + m.treeRssKiB, 0)),
        treePssMiB: mib(memories.reduce((a, m) => a + m.treePssKiB, 0)),
        availableMiB: mib(available.availableKiB),
        load: load(),
        others: monitor.since(mark).others,
      };
      result.push(step);
      log(
        `  ${variant} ${pods} Pods on ${clusters.length} clusters: ${seconds === undefined ? `not all Ready after ${READY_LIMIT_MS / 1000} s (${ready})` : `${fmt(seconds, 1)} s`}, PSS ${fmt(step.treePssMiB)} MiB, available ${fmt(step.availableMiB)} MiB, load ${step.load}`,
      );

      if (demonstrateNodeLimit && pods === PODS_PER_CLUSTER) {
        // One node takes 110 Pods (the kubelet's max-pods, as upstream): ask one cluster for 200.
        const cluster = clusters[0];
        const t = performance.now();
        await cluster.scale('idle', 200);
        await cluster.waitReady('idle', 110, t, 30_000);
        await sleep(3_000);
        const all = await cluster.pods('idle');
        const pending = all.filter((p) => p.status?.phase === 'Pending');
        const reason = pending[0]?.status?.conditions?.find((c) => c.type === 'PodScheduled');
        limitNote = `one cluster asked for 200 Pods: ${await cluster.readyReplicas('idle')} Ready, ${pending.length} Pending (${reason?.reason ?? '?'}: ${reason?.message ?? '?'})`;
        log(`  ${limitNote}`);
        await cluster.scale('idle', PODS_PER_CLUSTER);
        for (let i = 0; i < 240 && (await cluster.pods('idle')).length > PODS_PER_CLUSTER; i++) await sleep(250);
      }

      if (seconds === undefined || seconds * 1000 > READY_LIMIT_MS) {
        stopReason = `the step to ${pods} Pods took longer than ${READY_LIMIT_MS / 1000} s`;
        break;
      }
      if (available.availableKiB < MEM_FLOOR * available.totalKiB) {
        stopReason = `MemAvailable fell below ${MEM_FLOOR * 100}% of MemTotal`;
        break;
      }
    }
    // What the whole fleet costs in CPU while it idles.
    const pids = await Promise.all(clusters.map((c) => c.pid()));
    const tree = (await Promise.all(pids.map(async (pid) => [pid, ...(await descendants(pid))]))).flat();
    const before = (await Promise.all(tree.map(cpuSeconds))).reduce((a, b) => a + b, 0);
    await sleep(10_000);
    const after = (await Promise.all(tree.map(cpuSeconds))).reduce((a, b) => a + b, 0);
    idleCpuPercent = ((after - before) / 10) * 100;
    log(`  ${variant}: idle CPU of the whole fleet ${fmt(idleCpuPercent, 1)}% of one core`);
  } finally {
    for (const cluster of clusters)
      await cluster.down().catch((err: Error) => log(`down ${cluster.name} failed: ${err.message}`));
  }
  return { steps: result, baseline: mib(baseline), stopReason, limitNote, idleCpuPercent };
}

async function capacity(): Promise<void> {
  const { totalKiB } = await memInfo();
  const sleepSteps = [50, 100, 200, 400, 600, 800, 1000].filter((n) => n <= MAX_PODS);
  const nodeSteps = [50, 100, 200].filter((n) => n <= Math.min(MAX_PODS, NODE_VARIANT_MAX));
  for (const [variant, steps] of [
    ['sleep', sleepSteps],
    ['node', nodeSteps],
  ] as const) {
    log(`capacity: ${variant} ${steps.join(', ')}, load ${load()}`);
    const r = await fleet(variant, steps, variant === 'sleep');
    const program = variant === 'node' ? 'Node `setInterval`' : '`sleep infinity`';
    print(
      `### Idle Pods on one machine: ${program}, at most ${PODS_PER_CLUSTER} Pods per cluster, clusters side by side\n`,
    );
    print(
      `MemAvailable before: ${fmt(r.baseline)} MiB of ${fmt(mib(totalKiB))} MiB. Stopped because ${r.stopReason}.${r.limitNote ? ` Node limit: ${r.limitNote}.` : ''}\n`,
    );
    print(
      "| Pods | clusters | s until this step's Pods were Ready | Pods/s (Pods added / s) | Ready | supervisor RSS, MiB, median (max) | supervisors + Pods RSS sum, MiB | supervisors + Pods PSS sum, MiB | MemAvailable, MiB | load average | CPU of other processes, % of all cores |",
    );
    print('|---|---|---|---|---|---|---|---|---|---|---|');
    let previous = 0;
    for (const s of r.steps) {
      const rate = s.seconds === undefined ? '–' : fmt((s.pods - previous) / s.seconds, 1);
      print(
        `| ${s.pods} | ${s.clusters} | ${s.seconds === undefined ? `> ${READY_LIMIT_MS / 1000}` : fmt(s.seconds, 1)} | ${rate} | ${s.ready} | ${fmt(median(s.supervisorRssMiB))} (${fmt(Math.max(...s.supervisorRssMiB))}) | ${fmt(s.treeRssMiB)} | ${fmt(s.treePssMiB)} | ${fmt(s.availableMiB)} | ${s.load} | ${fmt(s.others)} |`,
      );
      previous = s.pods;
    }
    const last = [...r.steps].reverse().find((s) => s.seconds !== undefined && s.ready >= s.pods);
    if (last) {
      const perPodPss = last.treePssMiB / last.pods;
      const perPodAvailable = (r.baseline - last.availableMiB) / last.pods;
      const room = r.baseline - MEM_FLOOR * mib(totalKiB);
      print(
        `\nLargest count fully Ready: **${last.pods}**. Cost per Pod at that step, cluster share included: ${fmt(perPodPss, 2)} MiB PSS (our processes), ${fmt(perPodAvailable, 2)} MiB of MemAvailable (machine-wide, other work included).`,
      );
      print(
        `Memory alone would allow about ${fmt(room / perPodPss)} such Pods (PSS) or ${fmt(room / perPodAvailable)} (MemAvailable) before MemAvailable falls to ${MEM_FLOOR * 100}% of MemTotal.`,
      );
      if (r.idleCpuPercent !== undefined)
        print(
          `The ${last.clusters} clusters with ${last.pods} Pods used ${fmt(r.idleCpuPercent, 1)}% of one core over 10 s of idling.`,
        );
    }
    print();
  }
}

// ---------------------------------------------------------------------------------------------------------------------

async function cleanup(): Promise<void> {
  for (const { dataDir, name } of started.values()) {
    try {
      await execFileAsync(process.execPath, [cli, 'cluster', 'down', name, '--data-dir', dataDir], { timeout: 60_000 });
    } catch (err) {
      log(`cleanup: down ${name} failed (${(err as Error).message}); killing its supervisor`);
      try {
        process.kill(Number((await readFile(join(dataDir, name, 'supervisor.pid'), 'utf8')).trim()), 'SIGKILL');
      } catch {
        // no supervisor left
      }
    }
  }
  started.clear();
  if (!work) return;
  // Every process of this run has the work directory in its command line (the CLI copy, the programs Pods run).
  for (const p of await processesWith(work)) {
    log(`cleanup: killing leftover ${p.pid} ${p.args}`);
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  await sleep(200);
  const left = await processesWith(work);
  if (left.length) log(`cleanup: processes still there: ${left.map((p) => p.pid).join(' ')}`);
  else log('cleanup: no process of this run is left');
  await rm(work, { recursive: true, force: true });
}

async function main(): Promise<void> {
  work = await mkdtemp(join(tmpdir(), 'bench-local-cluster-'));
  // A private copy of the bundle: other work may rebuild dist/ while this runs.
  cli = join(work, 'cli.js');
  await copyFile(join(BUILT_CLI, 'cli.js'), cli);
  await copyFile(join(BUILT_CLI, 'pod-network.mjs'), join(work, 'pod-network.mjs'));
  await monitor.start();
  const builtAt = (await stat(join(BUILT_CLI, 'cli.js'))).mtime.toISOString();
  // The Pods' programs live in the work directory so that the process table shows which processes are ours.
  await writeFile(join(work, 'idle.mjs'), 'setInterval(() => {}, 1e9);\n');
  await copyFile('/bin/sleep', join(work, 'sleep'));
  await execFileAsync('chmod', ['+x', join(work, 'sleep')]);
  imageMap = join(work, 'images.json');
  await writeFile(
    imageMap,
    JSON.stringify({
      images: [
        { image: IMAGES.node, command: [process.execPath, join(work, 'idle.mjs')] },
        { image: IMAGES.sleep, command: [join(work, 'sleep'), 'infinity'] },
      ],
    }),
  );
  const { totalKiB, availableKiB } = await memInfo();
  print(
    `${new Date().toISOString().slice(0, 16)}Z, ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${fmt(mib(totalKiB) / 1024, 1)} GiB memory (${fmt(mib(availableKiB) / 1024, 1)} GiB available), Node ${process.version}, bundle built ${builtAt}, load average at start ${load()}\n`,
  );
  await bundleLoad();
  if (PARTS.has('startup')) await startup();
  if (PARTS.has('pods')) await podsPerSecond();
  if (PARTS.has('memory')) await idleMemory();
  if (PARTS.has('churn')) await churn();
  if (PARTS.has('capacity')) await capacity();
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

try {
  await main();
} finally {
  await monitor.stop();
  await cleanup();
}
