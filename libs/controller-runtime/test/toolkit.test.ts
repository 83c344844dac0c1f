// The reconciler toolkit against the local API server: finalizers and the operation annotation under concurrent
// writers, lastOperation through the status subresource, and the built-in Kinds against discovery.
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@gardener-ts/api';
import {
  CodedError,
  Manager,
  channelSource,
  controllerFor,
  onceSource,
  ConfigMapKind,
  Kinds,
  NoKindMatchError,
  OPERATION_ANNOTATION,
  addFinalizer,
  finalize,
  ignoreNotFound,
  operationOf,
  removeFinalizer,
  removeOperationAnnotation,
  updateLastOperation,
  wrapError,
  type ApiClient,
} from '../src/index.js';
import { waitFor } from '@gardener-ts/testing';
import { WidgetKind, configMap, installWidgetCRD, useTestCluster, type Widget } from './fixtures.js';

const env = useTestCluster();
let client: ApiClient;
beforeAll(async () => {
  client = env.client;
  await installWidgetCRD(client);
});

describe('finalizers against the API server', () => {
  it('loses no finalizer when many writers add and remove theirs concurrently from the same stale read', async () => {
    const created = await client.create(configMap('finalizer-race', { a: '1' }));
    const names = Array.from({ length: 8 }, (_, i) => `example.gardener-ts.io/writer-${i}`);
    await Promise.all(names.map((name) => addFinalizer(client, created, name)));
    const withAll = await client.get(ConfigMapKind, { namespace: 'default', name: 'finalizer-race' });
    expect([...(withAll.metadata?.finalizers ?? [])].sort()).toEqual([...names].sort());

    // Half remove theirs while the other half stay; every remover starts from the same (now stale) read.
    await Promise.all(names.slice(0, 4).map((name) => removeFinalizer(client, withAll, name)));
    const half = await client.get(ConfigMapKind, { namespace: 'default', name: 'finalizer-race' });
    expect([...(half.metadata?.finalizers ?? [])].sort()).toEqual([...names.slice(4)].sort());

    await client.delete(ConfigMapKind, { namespace: 'default', name: 'finalizer-race' });
    const deleting = await client.get(ConfigMapKind, { namespace: 'default', name: 'finalizer-race' });
    expect(deleting.metadata?.deletionTimestamp).toBeTruthy();
    await Promise.all(names.slice(4).map((name) => removeFinalizer(client, deleting, name)));
    expect(
      await client.get(ConfigMapKind, { namespace: 'default', name: 'finalizer-race' }).catch(ignoreNotFound),
    ).toBeUndefined();
    // Removing from a gone object is not an error.
    await expect(removeFinalizer(client, deleting, names[4])).resolves.toBeDefined();
  });

  it('finalize(): apply with the finalizer in place, cleanup on deletion, then the object goes', async () => {
    const finalizer = 'example.gardener-ts.io/widget';
    const calls: string[] = [];
    const branches = {
      apply: async (w: Widget) => void calls.push(`apply:${w.metadata?.finalizers?.join(',')}`),
      cleanup: async () => void calls.push('cleanup'),
    };
    await client.create<Widget>({
      apiVersion: 'example.gardener-ts.io/v1',
      kind: 'Widget',
      metadata: { name: 'fin', namespace: 'default' },
      spec: { size: 1 },
    });
    await finalize(client, await client.get(WidgetKind, { namespace: 'default', name: 'fin' }), finalizer, branches);
    await client.delete(WidgetKind, { namespace: 'default', name: 'fin' });
    await finalize(client, await client.get(WidgetKind, { namespace: 'default', name: 'fin' }), finalizer, branches);
    expect(calls).toEqual([`apply:${finalizer}`, 'cleanup']);
    expect(await client.get(WidgetKind, { namespace: 'default', name: 'fin' }).catch(ignoreNotFound)).toBeUndefined();
  });
});

describe('operation annotation against the API server', () => {
  it('removes the value read, but keeps a newer one written by someone else', async () => {
    const created = await client.create({
      ...configMap('op'),
      metadata: { name: 'op', namespace: 'default', annotations: { [OPERATION_ANNOTATION]: 'reconcile', keep: 'me' } },
    });
    const cleared = await removeOperationAnnotation(client, created);
    expect(cleared.metadata?.annotations).toEqual({ keep: 'me' });

    const read = await client.patch(
      ConfigMapKind,
      { namespace: 'default', name: 'op' },
      { type: 'merge', patch: { metadata: { annotations: { [OPERATION_ANNOTATION]: 'reconcile' } } } },
    );
    await client.patch(
      ConfigMapKind,
      { namespace: 'default', name: 'op' },
      { type: 'merge', patch: { metadata: { annotations: { [OPERATION_ANNOTATION]: 'migrate' } } } },
    );
    const result = await removeOperationAnnotation(client, read);
    expect(operationOf(result)).toBe('migrate');
    expect(operationOf(await client.get(ConfigMapKind, { namespace: 'default', name: 'op' }))).toBe('migrate');
  });
});

describe('lastOperation against the API server', () => {
  it('writes lastOperation, lastError with codes, and clears it with observedGeneration on success', async () => {
    const w = await client.create<Widget>({
      apiVersion: 'example.gardener-ts.io/v1',
      kind: 'Widget',
      metadata: { name: 'status', namespace: 'default' },
      spec: { size: 2 },
    });
    const error = wrapError(new CodedError('the cloud said no', [ErrorCode.InfraUnauthorized]), 'creating the network');
    await updateLastOperation(client, w, {
      type: 'Reconcile',
      state: 'Error',
      description: 'Error reconciling Widget',
      error,
    });
    let got = (await client.get(WidgetKind, { namespace: 'default', name: 'status' })) as Widget & {
      status?: Record<string, any>;
    };
    expect(got.status?.lastOperation).toMatchObject({
      type: 'Reconcile',
      state: 'Error',
      progress: 50,
      description: 'Error reconciling Widget',
    });
    expect(got.status?.lastError).toMatchObject({
      description: 'creating the network: the cloud said no',
      codes: [ErrorCode.InfraUnauthorized],
    });
    expect(got.spec).toEqual({ size: 2 });

    await updateLastOperation(client, got, { type: 'Reconcile', state: 'Succeeded', description: 'Widget reconciled' });
    got = (await client.get(WidgetKind, { namespace: 'default', name: 'status' })) as Widget & {
      status?: Record<string, any>;
    };
    expect(got.status?.lastOperation).toMatchObject({ state: 'Succeeded', progress: 100 });
    expect(got.status?.lastError).toBeUndefined();
    expect(got.status?.observedGeneration).toBe(got.metadata?.generation);
  });
});

describe('Kinds', () => {
  it('agree with the API server discovery on plural and scope', async () => {
    let checked = 0;
    for (const k of Object.values(Kinds)) {
      const mapping = await client
        .mapping(k)
        .catch((err: unknown) => (err instanceof NoKindMatchError ? undefined : Promise.reject(err)));
      if (!mapping) continue; // not served by the local API server
      expect({ kind: k.kind, plural: mapping.resource, namespaced: mapping.namespaced }).toEqual({
        kind: k.kind,
        plural: k.plural,
        namespaced: k.namespaced,
      });
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe('raw sources in the builder', () => {
  it('a NATS-style channel wakes a controller that also watches its kind; a raw-only controller runs once', async () => {
    const mgr = await Manager.create({ clusters: { main: env.cluster.kubeconfigPath } });
    try {
      const wakeUps = channelSource();
      const reconciled: string[] = [];
      let jobRuns = 0;
      controllerFor(mgr, 'woken')
        .for(ConfigMapKind, { predicates: [(e) => e.object.metadata?.name === 'watched'] })
        .watchesRawSource(wakeUps)
        .complete(async (req) => void reconciled.push(`${req.namespace}/${req.name}`));
      controllerFor(mgr, 'periodic-job')
        .watchesRawSource(onceSource({ namespace: '', name: 'job' }))
        .complete(async () => {
          jobRuns++;
          return { requeueAfter: 3_600_000 };
        });
      wakeUps.push({ namespace: 'default', name: 'pushed-before-start' });
      await mgr.start();
      await client.create(configMap('watched'));
      wakeUps.push({ namespace: 'default', name: 'pushed-after-start' });
      await waitFor('the three requests', () => reconciled.length >= 3 && jobRuns === 1, { timeoutMs: 15_000 });
      expect([...new Set(reconciled)].sort()).toEqual([
        'default/pushed-after-start',
        'default/pushed-before-start',
        'default/watched',
      ]);
      expect(jobRuns).toBe(1);
    } finally {
      await mgr.stop();
    }
  });

  it('a controller without for() and without raw sources is refused', async () => {
    const mgr = await Manager.create({ clusters: { main: env.cluster.kubeconfigPath } });
    try {
      expect(() => controllerFor(mgr, 'nothing').complete(async () => undefined)).toThrow(/call for\(kind\) first/);
    } finally {
      await mgr.stop();
    }
  });
});
