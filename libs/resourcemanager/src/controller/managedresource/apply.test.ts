import { describe, expect, it } from 'vitest';
import { createLogger } from '@gardener-ts/logging';
import { ApiError } from '@gardener-ts/controller-runtime';
import type { ManagedResource } from '../../status.js';
import { ObjectApplier, planObjects, type DesiredObject } from './apply.js';
import type { DecodedObject } from './decode.js';
import { Equivalences, ObjectIndex } from './equivalences.js';
import { FakeTarget } from './fake-target.js';
import { LastWrites } from './last-write.js';
import type { ObjectReference } from './object-refs.js';

const log = createLogger({ name: 'test', level: 'silent' });
const ORIGIN = 'garden/shoot--dev--a/extension-foo';
const LABELS = { 'resources.gardener.cloud/managed-by': 'gardener' };
const opts = { forceOverwriteLabels: false, forceOverwriteAnnotations: false };
const mr: ManagedResource = {
  apiVersion: 'resources.gardener.cloud/v1alpha1',
  kind: 'ManagedResource',
  metadata: { name: 'mr', namespace: 'garden' },
  spec: { secretRefs: [{ name: 's' }], injectLabels: { team: 'a' } },
};
const decoded = (...objs: Record<string, any>[]): DecodedObject[] =>
  objs.map((obj, index) => ({ obj: structuredClone(obj), secret: 'garden/s', key: 'objects.yaml', index }));

const configMap = (name: string, extra: Record<string, any> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...extra },
  data: { a: '1' },
});

async function plan(target: FakeTarget, objects: DecodedObject[], existing: ObjectReference[] = []) {
  return planObjects(mr, objects, new ObjectIndex(existing, new Equivalences(undefined)), target, 'gardener', log);
}

describe('planObjects', () => {
  it('defaults namespaces by scope, labels references, and sorts them', async () => {
    const p = await plan(
      new FakeTarget(),
      decoded(
        configMap('b'),
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns', namespace: 'x' } },
        { apiVersion: 'example.com/v1', kind: 'Unknown', metadata: { name: 'u' } },
      ),
    );
    expect(p.desired.map((d) => d.obj.metadata.namespace)).toEqual(['default', undefined, 'default']);
    expect(p.references.map((r) => `${r.kind}/${r.namespace ?? ''}/${r.name}`)).toEqual([
      'Unknown/default/u',
      'ConfigMap/default/b',
      'Namespace//ns',
    ]);
    expect(p.references.map((r) => r.apiVersion)).toEqual(['example.com/v1', 'v1', 'v1']);
    expect(p.references[2].namespace).toBeUndefined();
    expect(p.references[1].labels).toEqual({ team: 'a', 'resources.gardener.cloud/managed-by': 'gardener' });
    expect(p.errors).toEqual([]);
  });

  it('reports duplicates and releases previously managed objects marked mode: Ignore', async () => {
    const ignored = configMap('ignored', { annotations: { 'resources.gardener.cloud/mode': 'Ignore' } });
    const p = await plan(
      new FakeTarget(),
      decoded(
        configMap('a'),
        configMap('a'),
        ignored,
        configMap('new-ignored', { annotations: { 'resources.gardener.cloud/mode': 'Ignore' } }),
      ),
      [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'ignored' }],
    );
    expect(p.desired.map((d) => d.obj.metadata.name)).toEqual(['a']);
    expect(p.errors).toEqual(["duplicate object v1/ConfigMap/default/a in secret 'garden/s' key 'objects.yaml'"]);
    expect(p.orphaned.map((r) => r.name)).toEqual(['ignored']);
  });
});

function applier(target: FakeTarget, alwaysUpdate = false) {
  return new ObjectApplier({ target, lastWrites: new LastWrites(), alwaysUpdate });
}

async function desiredOf(target: FakeTarget, ...objs: Record<string, any>[]): Promise<DesiredObject[]> {
  return (await plan(target, decoded(...objs))).desired;
}

describe('ObjectApplier', () => {
  it('creates missing objects with the origin annotation and labels, CRDs and Namespaces first', async () => {
    const target = new FakeTarget();
    const desired = await desiredOf(
      target,
      configMap('cm', { namespace: 'ns' }),
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } },
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'widgets.example.com' },
        spec: {},
      },
    );
    expect(await applier(target).applyObjects(desired, ORIGIN, LABELS, opts, new Equivalences(undefined), log)).toEqual(
      [],
    );
    expect(target.writes.filter((w) => w.verb === 'create').map((w) => w.key)).toEqual([
      'apiextensions.k8s.io/CustomResourceDefinition//widgets.example.com',
      '/Namespace//ns',
      '/ConfigMap/ns/cm',
    ]);
    const cm = target.find('v1', 'ConfigMap', 'ns', 'cm')!;
    expect(cm.metadata.annotations['resources.gardener.cloud/origin']).toBe(ORIGIN);
    expect(cm.metadata.labels).toEqual(LABELS);
  });

  it('writes nothing on a second pass when nothing changed, and reverts a manual change', async () => {
    const target = new FakeTarget();
    const a = applier(target);
    const desired = await desiredOf(target, configMap('cm'));
    await a.applyObjects(desired, ORIGIN, LABELS, opts, new Equivalences(undefined), log);
    const writes = target.writes.length;
    await a.applyObjects(desired, ORIGIN, LABELS, opts, new Equivalences(undefined), log);
    expect(target.writes.length).toBe(writes);

    const live = target.find('v1', 'ConfigMap', 'default', 'cm')!;
    target.store({ ...live, data: { a: 'changed by hand' } });
    await a.applyObjects(desired, ORIGIN, LABELS, opts, new Equivalences(undefined), log);
    expect(target.writes.at(-1)?.verb).toBe('update');
    expect(target.find('v1', 'ConfigMap', 'default', 'cm')!.data).toEqual({ a: '1' });
  });

  it('keeps the replicas of a Deployment an HPA scales', async () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 1, template: { metadata: { labels: { app: 'web' } } } },
    };
    const target = new FakeTarget([
      { ...deployment, spec: { ...deployment.spec, replicas: 7 } },
      {
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'web', namespace: 'default' },
        spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } },
      },
    ]);
    const desired = await desiredOf(target, {
      ...deployment,
      spec: { ...deployment.spec, template: { metadata: { labels: { app: 'web', v: '2' } } } },
    });
    expect(await applier(target).applyObjects(desired, ORIGIN, LABELS, opts, new Equivalences(undefined), log)).toEqual(
      [],
    );
    const live = target.find('apps/v1', 'Deployment', 'default', 'web')!;
    expect(live.spec.replicas).toBe(7);
    expect(live.spec.template.metadata.labels.v).toBe('2');
  });

  it('deletes an object whose update is invalid when it carries delete-on-invalid-update', async () => {
    const target = new FakeTarget([configMap('cm', { namespace: 'default' })]);
    target.failWrite = (verb) =>
      verb === 'update' || verb === 'dry-run'
        ? new ApiError(422, 'Invalid', 'ConfigMap "cm" is invalid: data: Forbidden')
        : undefined;
    const desired = await desiredOf(target, {
      ...configMap('cm', { annotations: { 'resources.gardener.cloud/delete-on-invalid-update': 'true' } }),
      data: { a: '2' },
    });
    const errors = await applier(target).applyObjects(desired, ORIGIN, LABELS, opts, new Equivalences(undefined), log);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^deleted object "v1\/ConfigMap\/default\/cm" because of 'invalid' update error/);
    expect(target.find('v1', 'ConfigMap', 'default', 'cm')).toBeUndefined();
  });

  it('reports per-object failures with the object named', async () => {
    const target = new FakeTarget();
    target.failWrite = (verb, obj) =>
      verb === 'create' && obj.metadata.name === 'bad'
        ? new ApiError(403, 'Forbidden', 'configmaps "bad" is forbidden')
        : undefined;
    const desired = await desiredOf(target, configMap('good'), configMap('bad'));
    expect(await applier(target).applyObjects(desired, ORIGIN, LABELS, opts, new Equivalences(undefined), log)).toEqual(
      ['error during apply of object "v1/ConfigMap/default/bad": configmaps "bad" is forbidden'],
    );
    expect(target.find('v1', 'ConfigMap', 'default', 'good')).toBeDefined();
  });

  it('releases orphans it owns and leaves others alone', async () => {
    const ours = configMap('ours', {
      namespace: 'default',
      annotations: {
        'resources.gardener.cloud/origin': ORIGIN,
        'resources.gardener.cloud/description': 'd',
        keep: 'me',
      },
    });
    const theirs = configMap('theirs', {
      namespace: 'default',
      annotations: { 'resources.gardener.cloud/origin': 'other/origin' },
    });
    const target = new FakeTarget([ours, theirs]);
    const refs = [
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'ours' },
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'theirs' },
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'gone' },
    ];
    expect(await applier(target).releaseOrphans(refs, ORIGIN, log)).toEqual([]);
    expect(target.find('v1', 'ConfigMap', 'default', 'ours')!.metadata.annotations).toEqual({ keep: 'me' });
    expect(target.find('v1', 'ConfigMap', 'default', 'theirs')!.metadata.annotations).toEqual({
      'resources.gardener.cloud/origin': 'other/origin',
    });
  });
});
