// `gardener-local shoot`: the CLI a user follows a shoot operation with, run as a process against a garden API server
// with Gardener's CRDs and a nats-server with JetStream. The test plays the gardenlet: it publishes the flow's
// progress events on NATS and writes the Shoot's status, as the shoot flow does.
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureEventsStream, MessagingClient, Publisher } from '@gardener-ts/messaging';
import { createLogger } from '@gardener-ts/logging';
import {
  kubectl,
  startProcess,
  startTestEnvironment,
  waitFor,
  workspaceRoot,
  type RunningProcess,
  type TestEnvironment,
} from '@gardener-ts/testing';
import { cli, run } from './support.js';

const NAMESPACE = 'garden-local';
const SHOOT_FILE = join(workspaceRoot(), 'deploy/gardener/examples/local/shoot.yaml');
const CONDITIONS = [
  'APIServerAvailable',
  'ControlPlaneHealthy',
  'ObservabilityComponentsHealthy',
  'EveryNodeReady',
  'SystemComponentsHealthy',
];

let env: TestEnvironment;
let nc: NatsConnection;
let messaging: MessagingClient;
let publish: Publisher;

const shootCli = (...args: string[]): RunningProcess =>
  startProcess(process.execPath, [cli, 'shoot', ...args, '--kubeconfig', env.kubeconfigPath], { cwd: workspaceRoot() });

async function writeStatus(name: string, status: Record<string, unknown>): Promise<void> {
  const generation = await kubectl(env.kubeconfigPath, [
    '-n',
    NAMESPACE,
    'get',
    'shoot',
    name,
    '-o',
    'jsonpath={.metadata.generation}',
  ]);
  const patch = JSON.stringify({ status: { observedGeneration: Number(generation), ...status } });
  await kubectl(env.kubeconfigPath, [
    '-n',
    NAMESPACE,
    'patch',
    'shoot',
    name,
    '--subresource=status',
    '--type=merge',
    '-p',
    patch,
  ]);
}

function task(
  name: string,
  progress: number,
  id: string,
  phase: 'TASK_PHASE_STARTED' | 'TASK_PHASE_SUCCEEDED' | 'TASK_PHASE_FAILED',
  error = '',
  codes: string[] = [],
) {
  publish.operationProgress(
    { kind: 'Shoot', namespace: NAMESPACE, name },
    {
      type: 'LAST_OPERATION_TYPE_CREATE',
      state: 'LAST_OPERATION_STATE_PROCESSING',
      progress,
      description: id,
      flow: 'Shoot cluster reconciliation',
      task: { id, phase, error, errorCodes: codes, durationMillis: 10 },
    },
  );
}

async function exitCode(proc: RunningProcess, timeoutMs = 30_000): Promise<number | string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the CLI did not exit within ${timeoutMs} ms:\n${proc.output()}`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([proc.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

beforeAll(async () => {
  env = await startTestEnvironment({ crds: [join(workspaceRoot(), 'libs/api/crds')], nats: { jetstream: true } });
  nc = await connect({ servers: env.nats!.url });
  await ensureEventsStream(nc, { maxAgeMs: 3_600_000, maxBytes: 64 * 1024 * 1024, storage: 'memory' });
  messaging = new MessagingClient({
    servers: env.nats!.url,
    name: 'test-gardenlet',
    logger: createLogger({ name: 'test', level: 'error' }),
  }).start();
  publish = new Publisher(messaging, { source: 'gardenlet', seed: 'local' });
  await kubectl(env.kubeconfigPath, ['create', 'namespace', NAMESPACE]);
}, 60_000);

afterAll(async () => {
  await messaging?.close();
  await nc?.close();
  await env?.stop();
});

describe('gardener-local shoot', () => {
  it("creates Gardener's example shoot and shows the flow's live progress from NATS until the shoot is Ready", async () => {
    const proc = shootCli('create', '-f', SHOOT_FILE, '--nats', env.nats!.url);
    await waitFor('created', () => proc.output().includes('shoot.core.gardener.cloud/local created'), {
      timeoutMs: 20_000,
    });
    await writeStatus('local', {
      lastOperation: {
        type: 'Create',
        state: 'Processing',
        progress: 0,
        description: 'started',
        lastUpdateTime: new Date().toISOString(),
      },
    });
    task('local', 10, 'Deploying Shoot namespace in Seed', 'TASK_PHASE_SUCCEEDED');
    task('local', 20, 'Deploying etcd', 'TASK_PHASE_STARTED');
    await waitFor(
      'a frame with the running task',
      () => proc.output().includes('running: Deploying etcd | done 1, failed 0'),
      { timeoutMs: 20_000 },
    );
    task('local', 90, 'Deploying etcd', 'TASK_PHASE_SUCCEEDED');
    await writeStatus('local', {
      lastOperation: {
        type: 'Create',
        state: 'Succeeded',
        progress: 100,
        description: 'Shoot cluster has been successfully reconciled.',
        lastUpdateTime: new Date().toISOString(),
      },
      conditions: CONDITIONS.map((type) => ({
        type,
        status: 'True',
        reason: 'Healthy',
        message: 'ok',
        lastTransitionTime: new Date().toISOString(),
        lastUpdateTime: new Date().toISOString(),
      })),
    });
    expect(await exitCode(proc)).toBe(0);
    const out = proc.output();
    expect(out).toMatch(/garden-local\/local █+░*\s+20% Create Processing/);
    expect(out).toContain(`garden-local/local ${'█'.repeat(30)} 100% Create Succeeded`);
    expect(out).toContain('shoot garden-local/local is Ready');
  });

  it('watch attaches late and sees the tasks already done from the JetStream history', async () => {
    // Creating it again is refused by the API, and the CLI says so.
    const make = startProcess(
      process.execPath,
      [cli, 'shoot', 'create', '-f', SHOOT_FILE, '--no-watch', '--kubeconfig', env.kubeconfigPath, '-n', NAMESPACE],
      { cwd: workspaceRoot() },
    );
    expect(await exitCode(make)).toBe(1); // the name `local` is taken
    expect(make.output()).toContain('already exists');
    task('local', 30, 'Deploying Kubernetes API server', 'TASK_PHASE_SUCCEEDED');
    task('local', 40, 'Deploying Kubernetes controller manager', 'TASK_PHASE_STARTED');
    await writeStatus('local', {
      lastOperation: {
        type: 'Create',
        state: 'Processing',
        progress: 40,
        description: 'Deploying',
        lastUpdateTime: new Date().toISOString(),
      },
    });
    const proc = shootCli('watch', 'local', '-n', NAMESPACE, '--nats', env.nats!.url, '--timeout', '3s');
    expect(await exitCode(proc)).toBe(1);
    expect(proc.output()).toContain('running: Deploying Kubernetes controller manager');
    expect(proc.output()).toMatch(/done [3-9]\d*, failed 0/);
    expect(proc.output()).toContain('gave up waiting after 3s');
  });

  it("without NATS follows the Shoot's lastOperation, and ends with the last error and its codes when the shoot fails", async () => {
    const proc = shootCli('watch', 'local', '-n', NAMESPACE);
    await writeStatus('local', {
      lastOperation: {
        type: 'Create',
        state: 'Processing',
        progress: 55,
        description: 'Waiting until the Kubernetes API server is ready',
        lastUpdateTime: new Date().toISOString(),
      },
    });
    await waitFor('the polled frame', () => / 55% Create Processing/.test(proc.output()), { timeoutMs: 20_000 });
    await writeStatus('local', {
      lastOperation: {
        type: 'Create',
        state: 'Failed',
        progress: 55,
        description: 'failed',
        lastUpdateTime: new Date().toISOString(),
      },
      lastErrors: [
        {
          description: 'infrastructure: quota exceeded',
          codes: ['ERR_INFRA_QUOTA_EXCEEDED'],
          lastUpdateTime: new Date().toISOString(),
        },
      ],
    });
    expect(await exitCode(proc)).toBe(1);
    expect(proc.output()).toContain(
      'shoot garden-local/local failed: infrastructure: quota exceeded [ERR_INFRA_QUOTA_EXCEEDED]',
    );
  });

  it('prints the final Shoot for scripts with -o json, and deletes with the confirmation annotation', async () => {
    await writeStatus('local', {
      lastOperation: {
        type: 'Reconcile',
        state: 'Succeeded',
        progress: 100,
        description: 'ok',
        lastUpdateTime: new Date().toISOString(),
      },
      lastErrors: [],
    });
    // stdout alone: what a script reads (warnings on stderr don't break it).
    const { stdout } = await run(
      process.execPath,
      [cli, 'shoot', 'watch', 'local', '-n', NAMESPACE, '-o', 'json', '--kubeconfig', env.kubeconfigPath],
      {
        cwd: workspaceRoot(),
        timeout: 30_000,
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({
      kind: 'Shoot',
      metadata: { name: 'local' },
      status: { lastOperation: { state: 'Succeeded' } },
    });
    const del = shootCli('delete', 'local', '-n', NAMESPACE, '--timeout', '20s');
    expect(await exitCode(del)).toBe(0);
    expect(del.output()).toContain('shoot garden-local/local is gone');
  });
});
