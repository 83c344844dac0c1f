// The reconcile flow over a recording fake: Gardener's ordering, the tasks skipped without a local counterpart,
// progress to 100 on success, and a failing task stopping exactly its dependants.
import { FlowFailedError, type ProgressEvent } from '@gardener-ts/flow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exampleSeed, exampleShoot } from '../../component/testdata/fixtures.js';
import { recordingOperation } from '../testing/recording-operation.js';
import { flowConditions } from './conditions.js';
import type { ReconcileOperation } from './operation.js';
import { reconcileFlow } from './reconcile.js';
import type { Shoot } from '@gardener-ts/api';

// Must-come-before pairs of Gardener's reconcile flow (reconciler_reconcile.go), by task name.
const mustComeBefore: [string, string][] = [
  ['Deploying Shoot namespace in Seed', 'Initializing secrets management'],
  ['Initializing secrets management', 'Deploying Shoot infrastructure'],
  ['Deploying cloud provider account secret', 'Deploying Shoot infrastructure'],
  ['Deploying Shoot infrastructure', 'Waiting until shoot infrastructure has been reconciled'],
  ['Waiting until shoot infrastructure has been reconciled', 'Deploying extension resources before kube-apiserver'],
  [
    'Deploying Kubernetes API server service in the Seed cluster',
    'Waiting until Kubernetes API server service in the Seed cluster has reported readiness',
  ],
  [
    'Waiting until Kubernetes API server service in the Seed cluster has reported readiness',
    'Deploying internal domain DNS record',
  ],
  ['Deploying backup entry', 'Waiting until the backup entry has been reconciled'],
  ['Waiting until the backup entry has been reconciled', 'Deploying main and events etcd'],
  ['Deploying main and events etcd', 'Waiting until main and event etcd report readiness'],
  ['Waiting until main and event etcd report readiness', 'Deploying Kubernetes API server'],
  ['Waiting until extension resources handled before kube-apiserver are ready', 'Deploying Kubernetes API server'],
  ['Deploying Kubernetes API server', 'Waiting until Kubernetes API server rolled out'],
  ['Waiting until Kubernetes API server rolled out', 'Deploying gardener-resource-manager'],
  ['Deploying gardener-resource-manager', 'Waiting until gardener-resource-manager reports readiness'],
  ['Waiting until gardener-resource-manager reports readiness', 'Deploying shoot control plane components'],
  ['Waiting until gardener-resource-manager reports readiness', 'Deploying Kubernetes scheduler'],
  ['Waiting until Kubernetes API server rolled out', 'Deploying Kubernetes controller manager'],
  ['Deploying internal domain DNS record', 'Initializing connection to Shoot'],
  ['Deploying Gardener shoot access resources', 'Initializing connection to Shoot'],
  ['Initializing connection to Shoot', 'Deploying extension resources after kube-apiserver'],
  [
    'Waiting until shoot control plane has been reconciled',
    'Deploying operating system specific configuration for shoot workers',
  ],
  [
    'Waiting until extension resources handled after kube-apiserver are ready',
    'Deploying operating system specific configuration for shoot workers',
  ],
  [
    'Waiting until operating system configurations for worker nodes have been reconciled',
    'Deploying shoot network plugin',
  ],
  ['Deploying Kubernetes scheduler', 'Deploying shoot network plugin'],
  ['Waiting until shoot namespaces have been reconciled', 'Deploying shoot network plugin'],
  ['Waiting until shoot network plugin has been reconciled', 'Configuring shoot worker pools'],
  [
    'Waiting until operating system configurations for worker nodes have been reconciled',
    'Deploying managed resources for the gardener-node-agent',
  ],
  ['Configuring shoot worker pools', 'Waiting until worker resource status is updated with latest machine deployments'],
  [
    'Waiting until worker resource status is updated with latest machine deployments',
    'Deploying extension resources after workers',
  ],
  ['Deploying managed resources for the gardener-node-agent', 'Waiting until shoot worker nodes have been reconciled'],
  [
    'Waiting until shoot worker nodes have been reconciled',
    'Waiting until all shoot worker nodes have updated the operating system config',
  ],
  ['Initializing connection to Shoot', 'Deploying CoreDNS system component'],
];

async function run(shoot: Shoot, options: { fail?: string[]; delay?: (step: string) => number } = {}) {
  const { op, recording } = recordingOperation<ReconcileOperation>(options);
  const { flow, skipped } = reconcileFlow(op, flowConditions(shoot, exampleSeed()), { retry: false });
  const events: ProgressEvent[] = [];
  const result = await flow.run({ reporter: { report: (e) => void events.push(e) } }).then(
    () => undefined,
    (err: unknown) => err,
  );
  const order = (type: ProgressEvent['type']) =>
    events.filter((e) => e.type === type).map((e) => (e as { taskId: string }).taskId);
  return {
    recording,
    skipped,
    events,
    result,
    flow,
    started: order('task-started'),
    succeeded: order('task-succeeded'),
  };
}

describe('reconcile flow', () => {
  it('runs every task with a local counterpart and reaches 100 %', async () => {
    const { result, events, recording, skipped, started } = await run(exampleShoot());
    expect(result).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'flow-finished', stats: { progressPercent: 100, failed: [] } });
    expect(recording.started).toEqual(
      expect.arrayContaining(['deployNamespace', 'deployEtcd', 'deployKubeAPIServer', 'deployWorker', 'waitForWorker']),
    );
    expect(recording.started).not.toContain('hibernateControlPlane');
    expect(recording.started).not.toContain('deleteBastions'); // SSH access is enabled by default
    for (const s of skipped) expect(started).not.toContain(s.task);
  });

  it('deploys and waits for the BackupEntry before etcd, only when the seed has backup', async () => {
    const withBackup = await run(exampleShoot());
    const order = withBackup.recording.started;
    expect(order.indexOf('deployBackupEntry')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('waitForBackupEntry')).toBeGreaterThan(order.indexOf('deployBackupEntry'));
    expect(order.indexOf('deployEtcd')).toBeGreaterThan(order.indexOf('waitForBackupEntry'));
    const { op, recording } = recordingOperation<ReconcileOperation>();
    const seed = exampleSeed((s) => delete s.spec.backup);
    const { flow } = reconcileFlow(op, flowConditions(exampleShoot(), seed), { retry: false });
    await flow.run();
    expect(recording.started).toContain('deployEtcd');
    expect(recording.started).not.toContain('deployBackupEntry');
    expect(recording.started).not.toContain('waitForBackupEntry');
  });

  it('skips the tasks without a local counterpart and says why', async () => {
    const { skipped, events } = await run(exampleShoot());
    const reasons = Object.fromEntries(skipped.map((s) => [s.task, s.reason]));
    expect(reasons['Deploying vpn-seed-server']).toMatch(/^VPN/);
    expect(reasons['Reconcile Istio internal load balancing ConfigMap']).toMatch(/^istio/);
    expect(reasons['Reconciling Kubernetes vertical pod autoscaler']).toMatch(/^VPA/);
    expect(reasons['Reconciling Shoot Prometheus']).toMatch(/^monitoring/);
    expect(reasons['Deploying shoot logging stack in Seed']).toMatch(/^logging/);
    expect(reasons['Deploying machine-controller-manager']).toMatch(/provider-local/);
    const skippedEvents = events.filter((e) => e.type === 'task-skipped').map((e) => (e as { taskId: string }).taskId);
    expect(skippedEvents).toEqual(expect.arrayContaining(skipped.map((s) => s.task)));
  });

  it("respects Gardener's ordering whatever order the steps finish in (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.func(fc.nat({ max: 3 })), async (delay) => {
        const { started, succeeded, result } = await run(exampleShoot(), { delay: (step) => delay(step) });
        expect(result).toBeUndefined();
        for (const [before, after] of mustComeBefore) {
          expect(succeeded.indexOf(before), `${before} ran`).toBeGreaterThanOrEqual(0);
          expect(started.indexOf(after), `${after} ran`).toBeGreaterThanOrEqual(0);
          expect(succeeded.indexOf(before) < succeeded.indexOf(after)).toBe(true);
        }
      }),
      { numRuns: 15 },
    );
  });

  it('every must-come-before pair is a path in the graph', () => {
    const { op } = recordingOperation<ReconcileOperation>();
    const { flow } = reconcileFlow(op, flowConditions(exampleShoot(), exampleSeed()), { retry: false });
    const deps = new Map(flow.plan.tasks.map((t) => [t.id, t.dependencies]));
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      (deps.get(to) ?? []).some((d) => d === from || (!seen.has(d) && (seen.add(d), reaches(from, d, seen))));
    for (const [before, after] of mustComeBefore) expect(reaches(before, after), `${before} -> ${after}`).toBe(true);
  });

  it('a failing task stops its dependants; independent branches still run', async () => {
    const { result, recording } = await run(exampleShoot(), { fail: ['deployEtcd'] });
    expect(result).toBeInstanceOf(FlowFailedError);
    expect((result as FlowFailedError).failedTaskIds).toEqual(['Deploying main and events etcd']);
    for (const dependant of [
      'waitForEtcd',
      'deployKubeAPIServer',
      'deployGardenerResourceManager',
      'deployWorker',
      'deployNetwork',
    ]) {
      expect(recording.started).not.toContain(dependant);
    }
    for (const independent of [
      'deployInfrastructure',
      'waitForInfrastructure',
      'deployInternalDNSRecord',
      'deployExtensionsBeforeKubeAPIServer',
    ]) {
      expect(recording.finished).toContain(independent);
    }
  });

  it('hibernation scales the control plane down instead of waiting for it', async () => {
    const { recording, flow, result } = await run(exampleShoot((s) => (s.spec.hibernation = { enabled: true })));
    expect(result).toBeUndefined();
    expect(recording.started).toContain('hibernateControlPlane');
    expect(recording.started).not.toContain('waitForKubeAPIServer');
    expect(recording.started).not.toContain('deployInternalDNSRecord');
    expect(recording.started).toContain('destroyInternalDNSRecord');
    expect(flow.plan.tasks.map((t) => t.id)).toContain(
      'Hibernating extension resources before kube-apiserver hibernation',
    );
  });

  it('a workerless shoot deploys no infrastructure, OSC or worker', async () => {
    const { recording, result } = await run(exampleShoot((s) => (s.spec.provider.workers = [])));
    expect(result).toBeUndefined();
    for (const step of [
      'deployInfrastructure',
      'deployOperatingSystemConfig',
      'deployWorker',
      'deployNetwork',
      'deployControlPlane',
    ]) {
      expect(recording.started).not.toContain(step);
    }
    expect(recording.started).toContain('deployKubeAPIServer');
  });

  it('a step the operation does not provide, or cannot run, is skipped and listed with why — never run', async () => {
    const ran: string[] = [];
    const step = (name: string) => async () => void ran.push(name);
    const { flow, skipped } = reconcileFlow(
      {
        deployNamespace: step('deployNamespace'),
        deployInfrastructure: { skip: 'no ControllerRegistration in the garden serves Infrastructure of type local' },
        waitForInfrastructure: { skip: 'no ControllerRegistration in the garden serves Infrastructure of type local' },
      },
      flowConditions(exampleShoot(), exampleSeed()),
      { retry: false },
    );
    await flow.run();
    expect(ran).toEqual(['deployNamespace']);
    const reasons = new Map(skipped.map((t) => [t.task, t.reason]));
    expect(reasons.get('Deploying Shoot infrastructure')).toBe(
      'no ControllerRegistration in the garden serves Infrastructure of type local',
    );
    expect(reasons.get('Deploying Kubernetes API server')).toBe('not implemented in the local flow yet');
    expect(reasons.has('Deploying Shoot namespace in Seed')).toBe(false);
  });
});
