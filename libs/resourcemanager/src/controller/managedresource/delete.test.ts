import { describe, expect, it } from 'vitest';
import { createLogger } from '@gardener-ts/logging';
import { ApiError } from '@gardener-ts/controller-runtime';
import type { ManagedResource } from '../../status.js';
import { ObjectDeleter } from './delete.js';
import { FakeTarget } from './fake-target.js';
import { LastWrites } from './last-write.js';

const log = createLogger({ name: 'test', level: 'silent' });
const mr = (spec: Partial<NonNullable<ManagedResource['spec']>> = {}): ManagedResource => ({
  metadata: { name: 'mr', namespace: 'garden' },
  spec: { secretRefs: [], ...spec },
});
const ref = (apiVersion: string, kind: string, name: string, namespace?: string) => ({
  apiVersion,
  kind,
  name,
  ...(namespace ? { namespace } : {}),
});
const deleter = (target: FakeTarget, garbageCollectorActivated = false) =>
  new ObjectDeleter({ target, lastWrites: new LastWrites(), garbageCollectorActivated });

describe('ObjectDeleter', () => {
  it('deletes everything else before Namespaces, and Namespaces before CRDs', async () => {
    const target = new FakeTarget([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } },
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'widgets.example.com' },
      },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' } },
    ]);
    const refs = [
      ref('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'widgets.example.com'),
      ref('v1', 'Namespace', 'ns'),
      ref('v1', 'ConfigMap', 'cm', 'ns'),
    ];
    expect(await deleter(target).deleteObjects(mr(), refs, log)).toEqual({});
    expect(target.writes.filter((w) => w.verb === 'delete').map((w) => w.key)).toEqual([
      '/ConfigMap/ns/cm',
      '/Namespace//ns',
      'apiextensions.k8s.io/CustomResourceDefinition//widgets.example.com',
    ]);
    expect(target.objects.size).toBe(0);
  });

  it('reports pending deletion and does not start the next wave while an object is terminating', async () => {
    const target = new FakeTarget([
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'ns', finalizers: ['example.com/hold'] },
      },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } },
    ]);
    const outcome = await deleter(target).deleteObjects(
      mr(),
      [ref('apps/v1', 'Deployment', 'web', 'ns'), ref('v1', 'Namespace', 'ns')],
      log,
    );
    expect(outcome).toEqual({
      pending: true,
      error:
        'Could not clean all old resources:\n* deletion of old resource "apps/v1/Deployment/ns/web" is still pending',
    });
    expect(target.find('v1', 'Namespace', undefined, 'ns')).toBeDefined();
    // apps objects go with foreground propagation, as Gardener deletes them.
    expect(target.writes.find((w) => w.verb === 'delete')?.opts).toEqual({ propagationPolicy: 'Foreground' });
  });

  it('keeps objects annotated keep-object, and garbage-collectable ConfigMaps while the garbage collector runs', async () => {
    const objects = [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'kept', namespace: 'ns', annotations: { 'resources.gardener.cloud/keep-object': 'true' } },
      },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'gc',
          namespace: 'ns',
          labels: { 'resources.gardener.cloud/garbage-collectable-reference': 'true' },
        },
      },
    ];
    const refs = [ref('v1', 'ConfigMap', 'kept', 'ns'), ref('v1', 'ConfigMap', 'gc', 'ns')];
    const withGC = new FakeTarget(objects);
    expect(await deleter(withGC, true).deleteObjects(mr(), refs, log)).toEqual({});
    expect(withGC.objects.size).toBe(2);
    const withoutGC = new FakeTarget(objects);
    expect(await deleter(withoutGC, false).deleteObjects(mr(), refs, log)).toEqual({});
    expect([...withoutGC.objects.keys()]).toEqual(['/ConfigMap/ns/kept']);
  });

  it('treats objects of kinds the cluster no longer serves, and objects already gone, as deleted', async () => {
    const target = new FakeTarget();
    expect(
      await deleter(target).deleteObjects(
        mr(),
        [ref('example.com/v1', 'Widget', 'w', 'ns'), ref('v1', 'ConfigMap', 'gone', 'ns')],
        log,
      ),
    ).toEqual({});
  });

  it('reports a failed deletion as pending with the error', async () => {
    const target = new FakeTarget([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' } }]);
    target.failWrite = (verb) =>
      verb === 'delete' ? new ApiError(403, 'Forbidden', 'configmaps "cm" is forbidden') : undefined;
    expect(await deleter(target).deleteObjects(mr(), [ref('v1', 'ConfigMap', 'cm', 'ns')], log)).toEqual({
      pending: true,
      error:
        'Could not clean all old resources:\n* deletion of old resource "v1/ConfigMap/ns/cm" is still pending: configmaps "cm" is forbidden',
    });
  });

  it("deletes a StatefulSet's PVCs with deletePersistentVolumeClaims", async () => {
    const target = new FakeTarget([
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'db', namespace: 'ns' },
        spec: { selector: { matchLabels: { app: 'db' } }, volumeClaimTemplates: [{ metadata: { name: 'data' } }] },
      },
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data-db-0', namespace: 'ns', labels: { app: 'db' } },
      },
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'other', namespace: 'ns', labels: { app: 'web' } },
      },
    ]);
    expect(
      await deleter(target).deleteObjects(
        mr({ deletePersistentVolumeClaims: true }),
        [ref('apps/v1', 'StatefulSet', 'db', 'ns')],
        log,
      ),
    ).toEqual({});
    expect([...target.objects.keys()]).toEqual(['/PersistentVolumeClaim/ns/other']);
  });
});
