// The pure cost of "Initializing secrets management" for Gardener's provider-local example shoot: the gardenlet's
// `generateAllSecrets` over `shootSecretConfigs` (5 CAs and 8 certificates with RSA 3072-bit keys, the service account
// key with 4096 bits, the etcd encryption key and the static token) against an in-memory Secrets store, as on a
// shoot's first reconcile. Each round runs it twice, in turn: as before stop 30 (the CAs, then the rest, each key
// started by its `generate`) and as now (every key started at once, the CAs' first: `prepareKeys`); then the second
// reconcile (every secret exists: nothing is generated). Prints milliseconds, medians of the rounds.
//
//   npx tsx --conditions=@gardener-ts/source bench/shoot/secrets.ts [--rounds 5]
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import {
  SecretsManager,
  caRotationOptions,
  generateAllSecrets,
  type SecretConfigWithOptions,
} from '@gardener-ts/secrets-manager';
import { FakeSecretsClient } from '@gardener-ts/secrets-manager/testing';
import { shootSecretConfigs } from '../../libs/gardenlet-controllers/src/component/secrets.js';
import { exampleValues } from '../../libs/gardenlet-controllers/src/component/testdata/fixtures.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const { values } = parseArgs({ options: { rounds: { type: 'string' } } });
const rounds = Number(values.rounds ?? 5);
const configs = shootSecretConfigs(exampleValues());

// Before stop 30: the CAs concurrently, then the other secrets concurrently, each key started by its `generate`.
async function inTwoGroups(manager: SecretsManager, all: readonly SecretConfigWithOptions[]): Promise<void> {
  const isCA = (c: SecretConfigWithOptions) => c.config.kind === 'certificate' && c.config.certType === 'ca';
  const ca = caRotationOptions(undefined);
  await Promise.all(all.filter(isCA).map((c) => manager.generate(c.config, { ...c.options, ...ca })));
  await Promise.all(all.filter((c) => !isCA(c)).map((c) => manager.generate(c.config, c.options)));
}

type Variant = 'before' | 'after';
const variants: Record<Variant, typeof inTwoGroups> = {
  before: inTwoGroups,
  after: async (manager, all) => void (await generateAllSecrets(manager, all)),
};
const wall: Record<Variant, number[]> = { before: [], after: [] };
const cpu: Record<Variant, number[]> = { before: [], after: [] };
const again: number[] = [];
console.log(`load ${loadavg()[0].toFixed(2)} at start, ${availableParallelism()} cores`);
for (let r = 0; r < rounds; r++) {
  for (const variant of r % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const)) {
    const client = new FakeSecretsClient();
    const options = { namespace: 'shoot--local--local', identity: 'gardenlet' };
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await variants[variant](await SecretsManager.create(client, options), configs);
    wall[variant].push(performance.now() - started);
    const used = process.cpuUsage(cpuBefore);
    cpu[variant].push((used.user + used.system) / 1000);
    if (variant === 'after') {
      const t = performance.now();
      await generateAllSecrets(await SecretsManager.create(client, options), configs);
      again.push(performance.now() - t);
    }
  }
  console.log(
    `round ${r + 1}: before ${wall.before.at(-1)!.toFixed(0)} ms, after ${wall.after.at(-1)!.toFixed(0)} ms` +
      ` (load ${loadavg()[0].toFixed(2)})`,
  );
}
for (const v of ['before', 'after'] as const)
  console.log(`${v}: median ${median(wall[v]).toFixed(0)} ms, CPU ${median(cpu[v]).toFixed(0)} ms`);
console.log(`second reconcile (nothing generated): median ${median(again).toFixed(0)} ms`);
console.log(`load ${loadavg()[0].toFixed(2)} at end`);
