// deployGardenlet over fake kubectls (garden and seed) and the real helm: the bootstrap token Secret and roles applied
// to the garden, the chart rendered from the shared values (seed name, NATS servers, bootstrap kubeconfig with the
// token) with `--set` values on top, applied to the seed; no bootstrap kubeconfig once the gardenlet has its own.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments, parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceRoot } from '@gardener-ts/testing';
import { deployGardenlet } from './gardenlet.js';

const run = promisify(execFile);
const workspace = workspaceRoot();
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gardenlet-deploy-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A kubectl that records its calls and answers the reads deployGardenlet makes. */
function fakeKubectl(answers: { kubeconfigSecret?: boolean } = {}) {
  const calls: { args: string[]; input?: string }[] = [];
  const kubectl = async (args: string[], input?: string) => {
    calls.push({ args, ...(input !== undefined ? { input } : {}) });
    if (args.includes('secret')) return answers.kubeconfigSecret ? 'secret/gardenlet-kubeconfig' : '';
    if (args.includes('pods')) {
      const startedAt = new Date(Date.now() + 60_000).toISOString();
      return JSON.stringify({
        items: [
          {
            metadata: { name: 'gardenlet-0' },
            status: {
              conditions: [{ type: 'Ready', status: 'True' }],
              containerStatuses: [{ ready: true, state: { running: { startedAt } } }],
            },
          },
        ],
      });
    }
    if (args.includes('seed')) {
      return JSON.stringify({
        status: { conditions: ['GardenletReady', 'Bootstrapped'].map((type) => ({ type, status: 'True' })) },
      });
    }
    return '';
  };
  return { kubectl, calls };
}

/** The real helm for `template` (the chart's library dependency is vendored); `dependency build` is skipped. */
const helm = async (args: string[]) => {
  if (args[0] !== 'template') return '';
  const env = {
    ...process.env,
    HELM_CACHE_HOME: join(dir, 'c'),
    HELM_CONFIG_HOME: join(dir, 'f'),
    HELM_DATA_HOME: join(dir, 'd'),
  };
  return (await run(join(workspace, 'tools/k8s-binaries/vendor/helm'), args, { env, maxBuffer: 32 << 20 })).stdout;
};

async function deploy(seedAnswers: { kubeconfigSecret?: boolean } = {}) {
  const garden = fakeKubectl();
  const seed = fakeKubectl(seedAnswers);
  const gardenKubeconfig = join(dir, 'garden-kubeconfig');
  await writeFile(
    gardenKubeconfig,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        { name: 'garden', cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': 'Q0E=' } },
      ],
    }),
  );
  await deployGardenlet({
    workspace,
    garden: garden.kubectl,
    gardenKubeconfig,
    seed: seed.kubectl,
    helm,
    seedName: 'second',
    stateDir: dir,
    natsServers: 'nats://127.0.0.1:4222',
    since: Date.now(),
    values: ['config.seedConfig.spec.ingress.domain=ingress.second.seed.local.gardener.cloud'],
  });
  const applied = seed.calls.find((c) => c.args.includes('--server-side'))!.input!;
  const objects = parseAllDocuments(applied).map((d) => d.toJSON() as Record<string, any>);
  const garden0 = garden.calls[0]!.input!.split('\n---\n').map((o) => JSON.parse(o) as Record<string, any>);
  return { objects, gardenObjects: garden0 };
}

describe('deployGardenlet', () => {
  it('applies the bootstrap token to the garden and the chart with the shared values to the seed', async () => {
    const { objects, gardenObjects } = await deploy();
    const token = gardenObjects.find((o) => o.kind === 'Secret' && o.metadata.namespace === 'kube-system')!;
    const data = Object.fromEntries(
      Object.entries(token.data as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]),
    );
    expect(token.type).toBe('bootstrap.kubernetes.io/token');
    expect(data.description).toBe('A bootstrap token for the Gardenlet for seed second.');
    expect(data['usage-bootstrap-authentication']).toBe('true');
    expect(token.metadata.name).toBe(`bootstrap-token-${data['token-id']}`);

    const config = parse(objects.find((o) => o.kind === 'ConfigMap')!.data['config.yaml']);
    expect(config.seedConfig.metadata.name).toBe('second');
    expect(config.seedConfig.spec.ingress.domain).toBe('ingress.second.seed.local.gardener.cloud');
    expect(config.seedConfig.spec.backup.provider).toBe('local'); // the chart's local seed, merged
    expect(config.nats.servers).toBe('nats://127.0.0.1:4222');

    const bootstrap = objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'gardenlet-kubeconfig-bootstrap')!;
    const kubeconfig = parse(Buffer.from(bootstrap.data.kubeconfig, 'base64').toString());
    expect(kubeconfig.users[0].user.token).toBe(`${data['token-id']}.${data['token-secret']}`);
    expect(kubeconfig.clusters[0].cluster).toEqual({
      server: 'https://127.0.0.1:6443',
      'certificate-authority-data': 'Q0E=',
    });
  });

  it('renders no bootstrap kubeconfig once the gardenlet has its kubeconfig Secret', async () => {
    const { objects } = await deploy({ kubeconfigSecret: true });
    expect(objects.some((o) => o.kind === 'Secret' && o.metadata.name === 'gardenlet-kubeconfig-bootstrap')).toBe(
      false,
    );
    expect(objects.some((o) => o.kind === 'Deployment' && o.metadata.name === 'gardenlet')).toBe(true);
  });
});
