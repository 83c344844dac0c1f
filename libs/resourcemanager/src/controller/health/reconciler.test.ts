import { describe, expect, it } from 'vitest';
import { createLogger } from '@gardener-ts/logging';
import type { ReconcileContext } from '@gardener-ts/controller-runtime';
import { ClassFilter } from '../../class-filter.js';
import { StatusWriter, type ManagedResource } from '../../status.js';
import { FakeTarget } from '../managedresource/fake-target.js';
import { HealthReconciler } from './reconciler.js';

const log = createLogger({ name: 'test', level: 'silent' });
const ctx: ReconcileContext = { signal: new AbortController().signal, log, controller: 'health' };
const req = { namespace: 'shoot--dev--a', name: 'kube-apiserver' };
const cond = (type: string, status: string) => ({
  type,
  status,
  reason: 'r',
  message: 'm',
  lastTransitionTime: '2026-01-01T00:00:00Z',
  lastUpdateTime: '2026-01-01T00:00:00Z',
});
const deployment = (available: 'True' | 'False') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'kube-apiserver', namespace: 'shoot--dev--a', generation: 2 },
  spec: { replicas: 2 },
  status: {
    observedGeneration: 2,
    conditions: [
      {
        type: 'Available',
        status: available,
        message: available === 'True' ? 'ok' : 'Deployment does not have minimum availability.',
      },
      { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: 'done' },
    ],
  },
});
const managedResource = (
  appliedStatus = 'True',
  extra: Partial<ManagedResource['metadata']> = {},
): ManagedResource => ({
  apiVersion: 'resources.gardener.cloud/v1alpha1',
  kind: 'ManagedResource',
  metadata: { ...req, ...extra },
  spec: { secretRefs: [{ name: 's' }] },
  status: {
    conditions: [cond('ResourcesApplied', appliedStatus) as never],
    resources: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shoot--dev--a', name: 'kube-apiserver' }],
  },
});

function setup(mr: ManagedResource, targetObjects: Record<string, any>[]) {
  const source = new FakeTarget([mr]);
  const reconciler = new HealthReconciler({
    source: source.cluster.api,
    target: new FakeTarget(targetObjects),
    classFilter: new ClassFilter(undefined),
    syncPeriodMs: 60_000,
    status: new StatusWriter(source.cluster.api, undefined, log),
  });
  const read = () =>
    source.find('resources.gardener.cloud/v1alpha1', 'ManagedResource', req.namespace, req.name) as ManagedResource;
  const condition = (type: string) => read().status?.conditions?.find((c) => c.type === type);
  return { source, reconciler, condition };
}

describe('HealthReconciler', () => {
  it('sets ResourcesHealthy True and ResourcesProgressing False for healthy, rolled-out objects', async () => {
    const { reconciler, condition } = setup(managedResource(), [deployment('True')]);
    expect(await reconciler.reconcile(req, ctx)).toEqual({ requeueAfter: 60_000 });
    expect(condition('ResourcesHealthy')).toMatchObject({ status: 'True', reason: 'ResourcesHealthy' });
    expect(condition('ResourcesProgressing')).toMatchObject({ status: 'False', reason: 'ResourcesRolledOut' });
  });

  it('names the unhealthy object and the missing one', async () => {
    const unhealthy = setup(managedResource(), [deployment('False')]);
    await unhealthy.reconciler.reconcile(req, ctx);
    expect(unhealthy.condition('ResourcesHealthy')).toMatchObject({ status: 'False', reason: 'DeploymentUnhealthy' });
    expect(unhealthy.condition('ResourcesHealthy')?.message).toContain(
      'Deployment "shoot--dev--a/kube-apiserver" is unhealthy',
    );

    const missing = setup(managedResource(), []);
    await missing.reconciler.reconcile(req, ctx);
    expect(missing.condition('ResourcesHealthy')).toMatchObject({
      status: 'False',
      reason: 'DeploymentMissing',
      message: 'Required Deployment "kube-apiserver" in namespace "shoot--dev--a" is missing',
    });
  });

  it('waits while the objects are not applied, and skips ignored or deleting ManagedResources', async () => {
    for (const mr of [
      managedResource('Progressing'),
      managedResource('True', { annotations: { 'resources.gardener.cloud/ignore': 'true' } }),
      managedResource('True', { deletionTimestamp: '2026-11-25T00:00:00Z', finalizers: ['x'] }),
    ]) {
      const { source, reconciler } = setup(mr, [deployment('True')]);
      await reconciler.reconcile(req, ctx);
      expect(source.writes).toEqual([]);
    }
  });
});
