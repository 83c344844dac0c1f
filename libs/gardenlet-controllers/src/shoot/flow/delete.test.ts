// The delete flow over a recording fake: the reverse order of Gardener's deletion, every extension deletion awaited
// before what depends on it, and a shoot whose namespace is already gone only cleaning up what is left.
import { FlowFailedError, type ProgressEvent } from '@gardener-ts/flow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exampleSeed, exampleShoot } from '../../component/testdata/fixtures.js';
import { recordingOperation } from '../testing/recording-operation.js';
import { flowConditions } from './conditions.js';
import { deleteFlow, type DeleteFlowState } from './delete.js';
import type { DeleteOperation } from './operation.js';
import type { Shoot } from '@gardener-ts/api';

const running: DeleteFlowState = {
  namespaceActive: true,
  kubeAPIServerDeploymentFound: true,
  kubeControllerManagerDeploymentFound: true,
  infrastructureFound: true,
  controlPlaneDeploymentNeeded: true,
};

// Must-come-before pairs of Gardener's delete flow (reconciler_delete.go), by step.
const mustComeBefore: [keyof DeleteOperation, keyof DeleteOperation][] = [
  ['waitForKubeAPIServer', 'initializeShootClients'],
  ['initializeShootClients', 'cleanKubernetesResources'],
  ['cleanKubernetesResources', 'destroyWorker'],
  ['destroyWorker', 'waitForWorkerDeleted'],
  ['waitForWorkerDeleted', 'destroyOperatingSystemConfigs'],
  ['waitForOperatingSystemConfigsDeleted', 'destroyExtensionsBeforeKubeAPIServer'],
  ['waitForNetworkDeleted', 'destroyControlPlane'],
  ['waitForContainerRuntimesDeleted', 'destroyControlPlane'],
  ['waitForExtensionsBeforeKubeAPIServerDeleted', 'destroyControlPlane'],
  ['waitForControlPlaneDeleted', 'deleteKubeAPIServer'],
  ['waitForControlPlaneDeleted', 'destroyInfrastructure'],
  ['waitForKubeAPIServerDeleted', 'destroyExtensionsAfterKubeAPIServer'],
  ['waitForKubeAPIServerDeleted', 'destroyKubeAPIServerService'],
  ['waitForInfrastructureDeleted', 'destroyEtcd'],
  ['waitForExtensionsAfterKubeAPIServerDeleted', 'destroyEtcd'],
  ['waitForEtcdDeleted', 'deleteNamespace'],
  ['destroyInternalDNSRecord', 'deleteNamespace'],
  ['deleteNamespace', 'waitForNamespaceDeleted'],
];

async function run(
  shoot: Shoot,
  state: DeleteFlowState,
  options: { fail?: string[]; delay?: (s: string) => number } = {},
) {
  const { op, recording } = recordingOperation<DeleteOperation>(options);
  const { flow, skipped } = deleteFlow(op, flowConditions(shoot, exampleSeed()), state, { retry: false });
  const events: ProgressEvent[] = [];
  const result = await flow.run({ reporter: { report: (e) => void events.push(e) } }).then(
    () => undefined,
    (err: unknown) => err,
  );
  return { recording, skipped, events, result };
}

describe('delete flow', () => {
  it('deletes everything in reverse order and reaches 100 %', async () => {
    const { result, events, recording, skipped } = await run(exampleShoot(), running);
    expect(result).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'flow-finished', stats: { progressPercent: 100 } });
    expect(recording.finished.at(-1)).toMatch(/^(waitForNamespaceDeleted|deleteShootState)$/);
    // An awake shoot's control plane keeps its replicas (an HA etcd is not scaled to one).
    for (const step of ['scaleUpEtcd', 'scaleUpKubeAPIServer', 'scaleUpKubeControllerManager'])
      expect(recording.started).not.toContain(step);
    expect(skipped.map((s) => s.task)).toEqual(
      expect.arrayContaining([
        'Deleting Shoot Prometheus',
        'Deleting machine-controller-manager',
        'Destroying Kubernetes API server service SNI',
      ]),
    );
  });

  it("respects Gardener's ordering whatever order the steps finish in (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.func(fc.nat({ max: 3 })), async (delay) => {
        const { recording, result } = await run(exampleShoot(), running, { delay: (s) => delay(s) });
        expect(result).toBeUndefined();
        for (const [before, after] of mustComeBefore) {
          const b = recording.finished.indexOf(before);
          const a = recording.started.indexOf(after);
          expect(b, `${before} finished`).toBeGreaterThanOrEqual(0);
          expect(a, `${after} started`).toBeGreaterThan(-1);
          expect(recording.finished.indexOf(after)).toBeGreaterThan(b);
        }
      }),
      { numRuns: 15 },
    );
  });

  it("has no BackupEntry task, as Gardener's: the garden's garbage collector deletes the entry after the Shoot", () => {
    const { op } = recordingOperation<DeleteOperation>();
    const { flow } = deleteFlow(op, flowConditions(exampleShoot(), exampleSeed()), running, { retry: false });
    const tasks = flow.plan.tasks.map((t) => String(t.id));
    expect(tasks).toContain('Deleting shoot namespace in Seed');
    expect(tasks.filter((t) => /backup/i.test(t))).toEqual([]);
  });

  it('a hibernated shoot gets its kube-apiserver scaled up to be cleaned', async () => {
    const { recording } = await run(
      exampleShoot((s) => (s.spec.hibernation = { enabled: true })),
      running,
    );
    // etcd and kube-controller-manager too, each before what needs it.
    for (const [scaleUp, next] of [
      ['scaleUpEtcd', 'waitForEtcd'],
      ['scaleUpKubeAPIServer', 'waitForKubeAPIServer'],
      ['scaleUpKubeControllerManager', 'cleanKubernetesResources'],
    ] as const) {
      expect(recording.finished.indexOf(scaleUp), scaleUp).toBeGreaterThanOrEqual(0);
      expect(recording.started.indexOf(next)).toBeGreaterThan(recording.finished.indexOf(scaleUp));
    }
    expect(recording.started).not.toContain('waitForOperatingSystemConfigsDeleted');
  });

  it('a hibernated shoot whose deletion was interrupted after kube-apiserver was scaled up still gets kube-controller-manager scaled up (decided by the Shoot, not by the replicas found)', async () => {
    for (const shoot of [
      exampleShoot((s) => {
        s.spec.hibernation = { enabled: true };
        s.status = { ...s.status, hibernated: true } as typeof s.status;
      }),
      // Hibernation was disabled for the deletion, the status still says hibernated.
      exampleShoot((s) => {
        s.status = { ...s.status, hibernated: true } as typeof s.status;
      }),
    ]) {
      const { recording } = await run(shoot, running);
      expect(recording.finished).toContain('scaleUpKubeAPIServer');
      expect(recording.finished.indexOf('scaleUpKubeControllerManager')).toBeGreaterThanOrEqual(0);
      expect(recording.started.indexOf('cleanKubernetesResources')).toBeGreaterThan(
        recording.finished.indexOf('scaleUpKubeControllerManager'),
      );
    }
    // An awake shoot is not scaled.
    const { recording } = await run(exampleShoot(), running);
    expect(recording.started).not.toContain('scaleUpKubeControllerManager');
  });

  it('without a running control plane it only deletes what is left', async () => {
    const { recording, result } = await run(exampleShoot(), {
      ...running,
      kubeAPIServerDeploymentFound: false,
      infrastructureFound: false,
    });
    expect(result).toBeUndefined();
    for (const step of ['deployKubeAPIServer', 'deployEtcd', 'initializeShootClients', 'cleanKubernetesResources']) {
      expect(recording.started).not.toContain(step);
    }
    for (const step of ['destroyWorker', 'destroyInfrastructure', 'destroyEtcd', 'deleteNamespace']) {
      expect(recording.finished).toContain(step);
    }
  });

  it('a failed extension deletion keeps the namespace', async () => {
    const { result, recording } = await run(exampleShoot(), running, { fail: ['waitForWorkerDeleted'] });
    expect((result as FlowFailedError).failedTaskIds).toEqual([
      'Waiting until shoot worker nodes have been terminated',
    ]);
    for (const step of [
      'destroyOperatingSystemConfigs',
      'destroyControlPlane',
      'deleteKubeAPIServer',
      'destroyEtcd',
      'deleteNamespace',
    ]) {
      expect(recording.started).not.toContain(step);
    }
    expect(recording.finished).toContain('waitForNetworkDeleted');
  });
});
