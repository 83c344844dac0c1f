// `npm start` to a ready landscape, cold (a new data dir) and warm (the same dir again), and the landscape's memory when
// idle: the built `gardener-local up` in its own process, as a user runs it. Prints a markdown table of medians.
//
//   npx nx run-many -t build && npx tsx bench/landscape/run.ts [--rounds 3] [--idle-seconds 10]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, median, startLandscape, stop, treeRss, type Run } from '../support/landscape.js';

const { values } = parseArgs({ options: { rounds: { type: 'string' }, 'idle-seconds': { type: 'string' } } });
const rounds = Number(values.rounds ?? 3);
const idleMs = Number(values['idle-seconds'] ?? 10) * 1000;
const cold: Run[] = [];
const warm: Run[] = [];
const rss: ReturnType<typeof treeRss>[] = [];
const load = loadavg()[0];
for (let round = 0; round < rounds; round++) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-landscape-'));
  try {
    const port = await freePort();
    const first = await startLandscape(join(dir, 'landscape'), port);
    cold.push(first.run);
    await new Promise((r) => setTimeout(r, idleMs));
    rss.push(treeRss(first.proc.pid!));
    await stop(first.proc);
    const second = await startLandscape(join(dir, 'landscape'), port);
    warm.push(second.run);
    await stop(second.proc);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.stderr.write(`round ${round + 1}/${rounds} done\n`);
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
console.log(
  `Node ${process.version}, ${rounds} rounds, load average ${load.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end\n`,
);
console.log('| | cold (new data dir) | warm (same data dir) |');
console.log('| --- | --- | --- |');
console.log(
  `| \`gardener-local up\` to "Gardener landscape ready", median s | ${seconds(median(cold.map((r) => r.readyMs)))} | ${seconds(median(warm.map((r) => r.readyMs)))} |`,
);
for (const step of cold[0].steps.keys()) {
  console.log(
    `| step: ${step}, median s | ${seconds(median(cold.map((r) => r.steps.get(step) ?? 0)))} | ${seconds(median(warm.map((r) => r.steps.get(step) ?? 0)))} |`,
  );
}
console.log(
  `\nIdle landscape RSS after ${idleMs / 1000} s (process tree of \`gardener-local up\`), median MiB: ${median(rss.map((r) => r.totalMiB)).toFixed(0)}`,
);
console.log('\n| process | RSS MiB (first round) |\n| --- | --- |');
for (const [name, mib] of rss[0].top) console.log(`| ${name} | ${mib.toFixed(0)} |`);
