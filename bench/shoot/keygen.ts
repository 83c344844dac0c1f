// What the shoot's key generation costs on this machine, independent of its load: the CPU time of single RSA keys
// of the sizes Gardener uses (3072 bits for certificates, 4096 for the service account key), each generated alone
// (process CPU time, so other processes' load does not count), and from these a simulation of "Initializing secrets
// management" on an idle machine of `--cores` cores: the keys of 5 CAs, 8 certificates and the service account key
// scheduled first come, first served (as the libuv threadpool takes them), either in two groups (the CAs, then the
// rest: before stop 30) or all at once, CAs first (`prepareKeys`). Prints milliseconds.
//
//   npx tsx bench/shoot/keygen.ts [--keys 24] [--cores 2]
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { generateKeyPair } from '../../libs/secrets-manager/src/pki.js';

const { values } = parseArgs({ options: { keys: { type: 'string' }, cores: { type: 'string' } } });
const samples3072 = Number(values.keys ?? 24);
const samples4096 = Math.max(3, Math.round(samples3072 / 4));
const cores = Number(values.cores ?? availableParallelism());
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function cpuMs(bits: number): Promise<number> {
  const before = process.cpuUsage();
  await generateKeyPair({ algorithm: 'RSA', bits });
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

console.log(`load ${loadavg()[0].toFixed(2)} at start`);
const cost3072: number[] = [];
const cost4096: number[] = [];
for (let i = 0; i < samples3072; i++) cost3072.push(await cpuMs(3072));
for (let i = 0; i < samples4096; i++) cost4096.push(await cpuMs(4096));
console.log(
  `CPU per key: 3072 bits median ${median(cost3072).toFixed(0)} ms (min ${Math.min(...cost3072).toFixed(0)}, ` +
    `max ${Math.max(...cost3072).toFixed(0)}, ${samples3072} keys); 4096 bits median ${median(cost4096).toFixed(0)} ms ` +
    `(min ${Math.min(...cost4096).toFixed(0)}, max ${Math.max(...cost4096).toFixed(0)}, ${samples4096} keys)`,
);

// First come, first served on `cores` workers: when the last job ends.
function makespan(jobs: number[]): number {
  const free = Array<number>(cores).fill(0);
  for (const job of jobs) {
    const i = free.indexOf(Math.min(...free));
    free[i] += job;
  }
  return Math.max(...free);
}
const pick = (xs: number[]) => xs[Math.floor(Math.random() * xs.length)]!;
const twoGroups: number[] = [];
const allAtOnce: number[] = [];
for (let run = 0; run < 2_000; run++) {
  const cas = Array.from({ length: 5 }, () => pick(cost3072));
  const rest = [...Array.from({ length: 8 }, () => pick(cost3072)), pick(cost4096)];
  twoGroups.push(makespan(cas) + makespan(rest));
  allAtOnce.push(makespan([...cas, ...rest]));
}
console.log(
  `simulated on ${cores} idle cores (2000 draws): CAs then the rest median ${median(twoGroups).toFixed(0)} ms, ` +
    `all at once (CAs first) median ${median(allAtOnce).toFixed(0)} ms; load ${loadavg()[0].toFixed(2)} at end`,
);
