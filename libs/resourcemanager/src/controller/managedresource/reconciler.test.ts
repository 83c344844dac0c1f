import { describe, expect, it } from 'vitest';
import { createLogger } from '@gardener-ts/logging';
import type { ReconcileContext } from '@gardener-ts/controller-runtime';
import { ClassFilter } from '../../class-filter.js';
import { FinalizerName } from '../../constants.js';
import { StatusWriter, type ManagedResource } from '../../status.js';
import { FakeTarget } from './fake-target.js';
import { ManagedResourceReconciler } from './reconciler.js';

const log = createLogger({ name: 'test', level: 'silent' });
const ctx: ReconcileContext = { signal: new AbortController().signal, log, controller: 'managedresource' };
const b64 = (s: string) => Buffer.from(s).toString('base64');
const req = { namespace: 'shoot--dev--a', name: 'extension-foo' };

// A Secret as `kubectl create secret generic --from-file=objects.yaml` stores it.
const secret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'managedresource-extension-foo', namespace: req.namespace },
  data: {
    'objects.yaml': b64(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: kube-system\ndata:\n  level: debug\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: foo\n',
    ),
  },
};
const managedResource = (
  extra: Partial<ManagedResource['metadata']> = {},
  spec: Partial<NonNullable<ManagedResource['spec']>> = {},
): ManagedResource => ({
  apiVersion: 'resources.gardener.cloud/v1alpha1',
  kind: 'ManagedResource',
  metadata: { ...req, generation: 3, ...extra },
  spec: { secretRefs: [{ name: 'managedresource-extension-foo' }], ...spec },
});

function setup(...sourceObjects: Record<string, any>[]) {
  const source = new FakeTarget(sourceObjects);
  const target = new FakeTarget();
  const reconciler = new ManagedResourceReconciler({
    source: source.cluster.api,
    target,
    classFilter: new ClassFilter(undefined),
    clusterID: 'seed-a',
    managedByLabelValue: 'gardener',
    syncPeriodMs: 60_000,
    status: new StatusWriter(source.cluster.api, undefined, log),
  });
  const mr = () =>
    source.find('resources.gardener.cloud/v1alpha1', 'ManagedResource', req.namespace, req.name) as
      ManagedResource | undefined;
  return { source, target, reconciler, mr };
}

const condition = (mr: ManagedResource | undefined, type: string) =>
  mr?.status?.conditions?.find((c) => c.type === type);

describe('ManagedResourceReconciler', () => {
  it('adds its finalizer, applies the objects of the Secrets and records them in the status', async () => {
    const { target, reconciler, mr } = setup(managedResource(), secret);
    expect(await reconciler.reconcile(req, ctx)).toEqual({ requeueAfter: 60_000 });
    expect(mr()?.metadata?.finalizers).toEqual([FinalizerName]);
    const cm = target.find('v1', 'ConfigMap', 'kube-system', 'settings');
    expect(cm?.data).toEqual({ level: 'debug' });
    expect(cm?.metadata.annotations['resources.gardener.cloud/origin']).toBe('seed-a:shoot--dev--a/extension-foo');
    expect(target.find('v1', 'Namespace', undefined, 'foo')).toBeDefined();
    expect(condition(mr(), 'ResourcesApplied')).toMatchObject({ status: 'True', reason: 'ApplySucceeded' });
    expect(condition(mr(), 'ResourcesHealthy')).toMatchObject({ status: 'Unknown', reason: 'ChecksPending' });
    expect(mr()?.status?.resources?.map((r) => `${r.kind}/${r.namespace ?? ''}/${r.name}`)).toEqual([
      'ConfigMap/kube-system/settings',
      'Namespace//foo',
    ]);
    expect(mr()?.status?.observedGeneration).toBe(3);
  });

  it('deletes the objects and removes its finalizer once the ManagedResource is deleted', async () => {
    const { source, target, reconciler, mr } = setup(managedResource(), secret);
    await reconciler.reconcile(req, ctx);
    source.store({ ...mr()!, metadata: { ...mr()!.metadata, deletionTimestamp: '2026-11-25T00:00:00Z' } });
    expect(await reconciler.reconcile(req, ctx)).toBeUndefined();
    expect(target.objects.size).toBe(0);
    expect(mr()?.metadata?.finalizers ?? []).toEqual([]);
  });

  it('keeps its finalizer and polls while an object is still terminating', async () => {
    const { source, target, reconciler, mr } = setup(managedResource(), secret);
    await reconciler.reconcile(req, ctx);
    const cm = target.find('v1', 'ConfigMap', 'kube-system', 'settings')!;
    target.store({ ...cm, metadata: { ...cm.metadata, finalizers: ['example.com/hold'] } });
    source.store({ ...mr()!, metadata: { ...mr()!.metadata, deletionTimestamp: '2026-11-25T00:00:00Z' } });
    expect(await reconciler.reconcile(req, ctx)).toEqual({ requeueAfter: 5000 });
    expect(mr()?.metadata?.finalizers).toEqual([FinalizerName]);
    expect(condition(mr(), 'ResourcesApplied')).toMatchObject({ status: 'Progressing', reason: 'DeletionPending' });
    expect(condition(mr(), 'ResourcesApplied')?.message).toContain(
      'deletion of old resource "v1/ConfigMap/kube-system/settings" is still pending',
    );
  });

  it('keeps the objects of a ManagedResource with keepObjects', async () => {
    const { source, target, reconciler, mr } = setup(managedResource({}, { keepObjects: true }), secret);
    await reconciler.reconcile(req, ctx);
    source.store({ ...mr()!, metadata: { ...mr()!.metadata, deletionTimestamp: '2026-11-25T00:00:00Z' } });
    await reconciler.reconcile(req, ctx);
    expect(target.objects.size).toBe(2);
    expect(mr()?.metadata?.finalizers ?? []).toEqual([]);
  });

  it('only sets conditions on an ignored ManagedResource', async () => {
    const { target, reconciler, mr } = setup(
      managedResource({ annotations: { 'resources.gardener.cloud/ignore': 'true' } }),
      secret,
    );
    await reconciler.reconcile(req, ctx);
    expect(target.writes).toEqual([]);
    expect(condition(mr(), 'ResourcesApplied')).toMatchObject({ status: 'True', reason: 'ManagedResourceIgnored' });
    expect(mr()?.metadata?.finalizers).toBeUndefined();
  });

  it('leaves ManagedResources of another class alone', async () => {
    const { source, target, reconciler } = setup(managedResource({}, { class: 'seed' }), secret);
    await reconciler.reconcile(req, ctx);
    expect(target.writes).toEqual([]);
    expect(source.writes).toEqual([]);
  });

  it('reports a missing Secret in ResourcesApplied and fails with the cause', async () => {
    const { reconciler, mr } = setup(managedResource());
    const err = (await reconciler.reconcile(req, ctx).catch((e: unknown) => e)) as Error;
    expect(err.message).toBe(
      `could not read secret 'managedresource-extension-foo': Secret "managedresource-extension-foo" not found`,
    );
    expect(err.cause).toBeDefined();
    expect(condition(mr(), 'ResourcesApplied')).toMatchObject({ status: 'False', reason: 'CannotReadSecret' });
  });

  it('does nothing for a ManagedResource that is gone', async () => {
    const { reconciler } = setup();
    expect(await reconciler.reconcile(req, ctx)).toBeUndefined();
  });
});
