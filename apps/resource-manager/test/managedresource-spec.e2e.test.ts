// End to end: the ManagedResource fields `equivalences` and `deletePersistentVolumeClaims`, with the built
// resource-manager against two local API servers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { MR, b64, condition, getOrUndefined, startLandscape, waitFor, type Landscape } from './harness.js';

const ns = 'default';
const WidgetOne = kind<KubernetesObject & { spec?: any }>('one.example.com/v1', 'Widget');
const WidgetTwo = kind<KubernetesObject & { spec?: any }>('two.example.com/v1', 'Widget');
const StatefulSetK = kind<KubernetesObject & { spec?: any }>('apps/v1', 'StatefulSet');
const PVC = kind<KubernetesObject & { spec?: any }>('v1', 'PersistentVolumeClaim');
let land: Landscape;

/** The same kind in two API groups, like extensions/Ingress and networking.k8s.io/Ingress. */
function widgetCRD(group: string) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      names: { kind: 'Widget', listKind: 'WidgetList', plural: 'widgets', singular: 'widget' },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  };
}

const widget = (group: string, name: string) =>
  `apiVersion: ${group}/v1\nkind: Widget\nmetadata:\n  name: ${name}\n  namespace: ${ns}\nspec:\n  size: 1\n`;

async function putSecret(name: string, yaml: string) {
  const body = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: ns },
    type: 'Opaque',
    data: { 'objects.yaml': b64(yaml) },
  };
  const existing = await getOrUndefined(land.src, kind('v1', 'Secret'), ns, name);
  if (existing)
    await land.src.update({
      ...body,
      metadata: { ...body.metadata, resourceVersion: existing.metadata?.resourceVersion },
    });
  else await land.src.create(body);
}
async function createMR(name: string, spec: Record<string, unknown>) {
  await land.src.create({
    apiVersion: 'resources.gardener.cloud/v1alpha1',
    kind: 'ManagedResource',
    metadata: { name, namespace: ns },
    spec: { secretRefs: [{ name }], ...spec },
  });
}
const mr = (name: string) => getOrUndefined(land.src, MR, ns, name);
async function waitForApplied(name: string, apiVersion: string) {
  await waitFor(
    `${name} applied with ${apiVersion}`,
    async () => {
      const m = await mr(name);
      return (
        condition(m, 'ResourcesApplied')?.status === 'True' && m?.status?.resources?.[0]?.apiVersion === apiVersion
      );
    },
    { timeoutMs: 60_000 },
  );
}
async function deleteMR(name: string) {
  await land.src.delete(MR, { namespace: ns, name });
  await waitFor(`${name} to be gone`, async () => !(await mr(name)), { timeoutMs: 60_000 });
}

beforeAll(async () => {
  land = await startLandscape();
  for (const group of ['one.example.com', 'two.example.com']) await land.tgt.create(widgetCRD(group));
  await waitFor(
    'Widget CRDs to be served',
    async () => {
      for (const k of [WidgetOne, WidgetTwo]) await land.tgt.list(k, { namespace: ns });
      return true;
    },
    { timeoutMs: 30_000 },
  );
  await land.start();
}, 90_000);

afterAll(async () => {
  if (land?.app && process.env.RM_E2E_DEBUG) console.log(land.app.output());
  await land?.stop();
});

describe('spec.equivalences', () => {
  it('does not delete an object that moved to an equivalent GroupKind', async () => {
    await putSecret('equivalent', widget('one.example.com', 'moved'));
    await createMR('equivalent', {
      equivalences: [
        [
          { group: 'one.example.com', kind: 'Widget' },
          { group: 'two.example.com', kind: 'Widget' },
        ],
      ],
    });
    await waitForApplied('equivalent', 'one.example.com/v1');
    const before = await land.tgt.get(WidgetOne, { namespace: ns, name: 'moved' });

    await putSecret('equivalent', widget('two.example.com', 'moved'));
    await waitForApplied('equivalent', 'two.example.com/v1');
    expect(await getOrUndefined(land.tgt, WidgetTwo, ns, 'moved')).toBeDefined();
    const after = await getOrUndefined(land.tgt, WidgetOne, ns, 'moved');
    expect(after?.metadata?.uid).toBe(before.metadata?.uid);
    expect(after?.metadata?.deletionTimestamp).toBeUndefined();
    expect((await mr('equivalent'))?.status.resources).toHaveLength(1);
  }, 120_000);

  it('deletes the old object without an equivalence', async () => {
    await putSecret('not-equivalent', widget('one.example.com', 'replaced'));
    await createMR('not-equivalent', {});
    await waitForApplied('not-equivalent', 'one.example.com/v1');

    await putSecret('not-equivalent', widget('two.example.com', 'replaced'));
    await waitForApplied('not-equivalent', 'two.example.com/v1');
    expect(await getOrUndefined(land.tgt, WidgetOne, ns, 'replaced')).toBeUndefined();
    expect(await getOrUndefined(land.tgt, WidgetTwo, ns, 'replaced')).toBeDefined();
  }, 120_000);
});

describe('spec.deletePersistentVolumeClaims', () => {
  const statefulSet = (name: string) =>
    [
      'apiVersion: apps/v1',
      'kind: StatefulSet',
      'metadata:',
      `  name: ${name}`,
      `  namespace: ${ns}`,
      'spec:',
      `  serviceName: ${name}`,
      '  replicas: 2',
      '  selector:',
      '    matchLabels:',
      `      app: ${name}`,
      '  template:',
      '    metadata:',
      '      labels:',
      `        app: ${name}`,
      '    spec:',
      '      containers:',
      '      - name: main',
      '        image: busybox:1.36',
      '  volumeClaimTemplates:',
      '  - metadata:',
      '      name: data',
      '      labels:',
      '        role: storage',
      '    spec:',
      '      accessModes: [ReadWriteOnce]',
      '      resources:',
      '        requests:',
      '          storage: 1Gi',
      '',
    ].join('\n');

  /** What the StatefulSet controller creates: `<template>-<sts>-<ordinal>`, template labels overlaid by the selector. */
  async function createPVC(name: string, labels: Record<string, string>) {
    await land.tgt.create({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name, namespace: ns, labels },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
  }
  const pvcGone = async (name: string) => {
    const pvc = await getOrUndefined(land.tgt, PVC, ns, name);
    return !pvc || !!pvc.metadata?.deletionTimestamp; // a pvc-protection finalizer may hold it until unused
  };

  it("deletes the PVCs of the managed StatefulSet's volumeClaimTemplates with the ManagedResource", async () => {
    await putSecret('database', statefulSet('database'));
    await createMR('database', { deletePersistentVolumeClaims: true });
    await waitForApplied('database', 'apps/v1');
    for (const ordinal of [0, 1]) await createPVC(`data-database-${ordinal}`, { role: 'storage', app: 'database' });
    await createPVC('data-other-0', { role: 'storage', app: 'other' });

    await deleteMR('database');
    expect(await getOrUndefined(land.tgt, StatefulSetK, ns, 'database')).toBeUndefined();
    for (const ordinal of [0, 1]) expect(await pvcGone(`data-database-${ordinal}`)).toBe(true);
    const other = await getOrUndefined(land.tgt, PVC, ns, 'data-other-0');
    expect(other?.metadata?.deletionTimestamp).toBeUndefined();
  }, 120_000);

  it('keeps the PVCs without deletePersistentVolumeClaims', async () => {
    await putSecret('cache', statefulSet('cache'));
    await createMR('cache', {});
    await waitForApplied('cache', 'apps/v1');
    await createPVC('data-cache-0', { role: 'storage', app: 'cache' });

    await deleteMR('cache');
    expect(await getOrUndefined(land.tgt, StatefulSetK, ns, 'cache')).toBeUndefined();
    const pvc = await getOrUndefined(land.tgt, PVC, ns, 'data-cache-0');
    expect(pvc).toBeDefined();
    expect(pvc?.metadata?.deletionTimestamp).toBeUndefined();
  }, 120_000);
});
