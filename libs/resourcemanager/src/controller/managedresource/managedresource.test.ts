import { describe, expect, it } from 'vitest';
import { needsUpdate, isSubset } from './compare.js';
import { DecodeCache, decodeSecrets } from './decode.js';
import { injectLabels, merge, mergeMapsBasedOnOldMap } from './merge.js';
import { deletionWaves, sortForApply } from './order.js';
import { originFor, parseOrigin } from './origin.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('merge', () => {
  it('keeps the live metadata and status, merges labels based on what was desired before', () => {
    const current = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'c',
        resourceVersion: '7',
        labels: { foreign: 'x', old: 'y' },
        annotations: { 'reference.resources.gardener.cloud/secret-12345678': 's' },
      },
      data: { a: '1' },
    };
    const desired = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', labels: { app: 'z' } },
      data: { a: '2' },
    };
    const merged = merge('ns/mr', desired, current, { existingLabels: { old: 'y' } });
    expect(merged.metadata.resourceVersion).toBe('7');
    expect(merged.metadata.labels).toEqual({ foreign: 'x', app: 'z' });
    expect(merged.metadata.annotations['resources.gardener.cloud/origin']).toBe('ns/mr');
    expect(merged.metadata.annotations['reference.resources.gardener.cloud/secret-12345678']).toBeUndefined();
    expect(merged.data).toEqual({ a: '2' });
  });

  it('mergeMapsBasedOnOldMap drops only formerly desired keys', () => {
    expect(mergeMapsBasedOnOldMap({ a: '1' }, { a: '0', b: '2', c: '3' }, { b: '2' })).toEqual({ a: '1', c: '3' });
  });

  it('preserves replicas (annotation, HPA, unset) and resources (annotation)', () => {
    const current = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: {
        replicas: 5,
        template: { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '500m', memory: '1Gi' } } }] } },
      },
    };
    const desired = (annotations?: Record<string, string>, replicas: number | undefined = 1) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', annotations },
      spec: { replicas, template: { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '100m' } } }] } } },
    });
    expect(merge('o', desired(), current).spec.replicas).toBe(1);
    expect(merge('o', desired(), current, { preserveReplicas: true }).spec.replicas).toBe(5);
    expect(merge('o', desired({ 'resources.gardener.cloud/preserve-replicas': 'true' }), current).spec.replicas).toBe(
      5,
    );
    expect(merge('o', { ...desired(), spec: { template: desired().spec.template } }, current).spec.replicas).toBe(5);
    expect(merge('o', desired(), current).spec.template.spec.containers[0].resources.requests).toEqual({ cpu: '100m' });
    expect(
      merge('o', desired({ 'resources.gardener.cloud/preserve-resources': 'true' }), current).spec.template.spec
        .containers[0].resources.requests,
    ).toEqual({ cpu: '500m', memory: '1Gi' });
  });

  it('keeps a Service cluster IP and node ports, and a Job selector', () => {
    const svc = merge(
      'o',
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } },
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's' },
        spec: {
          type: 'NodePort',
          clusterIP: '10.0.0.9',
          clusterIPs: ['10.0.0.9'],
          ports: [{ port: 80, nodePort: 30001 }],
        },
      },
    );
    expect(svc.spec).toMatchObject({ clusterIP: '10.0.0.9', ports: [{ port: 80, nodePort: 30001 }] });
    const job = merge(
      'o',
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'j' },
        spec: { template: { metadata: { labels: { a: 'b' } } } },
      },
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'j' },
        spec: {
          selector: { matchLabels: { 'controller-uid': 'u' } },
          template: { metadata: { labels: { 'controller-uid': 'u' } } },
        },
      },
    );
    expect(job.spec.selector).toEqual({ matchLabels: { 'controller-uid': 'u' } });
    expect(job.spec.template.metadata.labels).toEqual({ 'controller-uid': 'u', a: 'b' });
  });

  it('injectLabels reaches pod templates and CronJob job templates', () => {
    const d: any = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {},
      spec: { template: { metadata: { labels: { app: 'x' } } } },
    };
    injectLabels(d, { foo: 'bar' });
    expect(d.metadata.labels).toEqual({ foo: 'bar' });
    expect(d.spec.template.metadata.labels).toEqual({ app: 'x', foo: 'bar' });
    const cj: any = { apiVersion: 'batch/v1', kind: 'CronJob', spec: { jobTemplate: { spec: { template: {} } } } };
    injectLabels(cj, { foo: 'bar' });
    expect(cj.spec.jobTemplate.metadata.labels).toEqual({ foo: 'bar' });
    expect(cj.spec.jobTemplate.spec.template.metadata.labels).toEqual({ foo: 'bar' });
  });
});

describe('compare before writing', () => {
  const live = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', labels: { a: '1' }, annotations: { o: 'x' }, generation: 3 },
    spec: {
      replicas: 1,
      strategy: { type: 'RollingUpdate' },
      template: {
        spec: {
          containers: [
            { name: 'c', image: 'i', imagePullPolicy: 'IfNotPresent', resources: { limits: { memory: '1Gi' } } },
          ],
        },
      },
    },
    status: { readyReplicas: 1 },
  };
  it('ignores server defaults and equal quantities', () => {
    const merged = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', labels: { a: '1' }, annotations: { o: 'x' } },
      spec: {
        replicas: 1,
        template: { spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { memory: '1024Mi' } } }] } },
      },
    };
    expect(needsUpdate(merged, live)).toBe(false);
  });
  it('sees changed values, labels and annotations', () => {
    const base = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', labels: { a: '1' }, annotations: { o: 'x' } },
      spec: { replicas: 2 },
    };
    expect(needsUpdate(base, live)).toBe(true);
    expect(needsUpdate({ ...base, spec: { replicas: 1 }, metadata: { ...base.metadata, labels: {} } }, live)).toBe(
      true,
    );
    expect(
      needsUpdate({ ...base, spec: { replicas: 1 }, metadata: { ...base.metadata, annotations: { o: 'y' } } }, live),
    ).toBe(true);
  });
  it('sees a top-level field added by hand to a built-in kind', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
    expect(needsUpdate(cm, { ...cm, data: { foo: 'bar' } })).toBe(true);
    expect(needsUpdate({ ...cm, kind: 'Secret' }, { ...cm, kind: 'Secret', type: 'Opaque' })).toBe(false);
  });
  it('isSubset: arrays by position and length', () => {
    expect(isSubset([{ a: 1 }], [{ a: 1, b: 2 }])).toBe(true);
    expect(isSubset([{ a: 1 }], [{ a: 1 }, { a: 2 }])).toBe(false);
    expect(isSubset([], undefined)).toBe(true);
  });
});

describe('deletion and apply order', () => {
  it('deletes workloads and custom resources first, then namespaces, CRDs last', () => {
    const refs = [
      { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'crd' },
      { apiVersion: 'v1', kind: 'Namespace', name: 'ns' },
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' },
      { apiVersion: 'example.com/v1', kind: 'Foo', name: 'cr' },
    ];
    expect(deletionWaves(refs).map((w) => w.map((r) => r.name))).toEqual([['d', 'cr'], ['ns'], ['crd']]);
    expect(sortForApply(refs).map((r) => r.name)).toEqual(['crd', 'ns', 'd', 'cr']);
  });
});

describe('origin', () => {
  it('with and without cluster id', () => {
    expect(originFor('', 'ns', 'mr')).toBe('ns/mr');
    expect(originFor('seed-1', 'ns', 'mr')).toBe('seed-1:ns/mr');
    expect(parseOrigin('seed-1:ns/mr', 'seed-1')).toEqual({ namespace: 'ns', name: 'mr' });
    expect(parseOrigin('seed-2:ns/mr', 'seed-1')).toBeUndefined();
    expect(parseOrigin('ns/mr', '')).toEqual({ namespace: 'ns', name: 'mr' });
    expect(parseOrigin('garbage', '')).toBeUndefined();
  });
});

describe('decodeSecrets', () => {
  it('reads YAML and JSON, several documents and keys, and reports bad documents', () => {
    const secret = {
      metadata: { namespace: 'default', name: 's' },
      data: {
        'b.json': b64('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"json"}}'),
        'a.yaml': b64(
          'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\n---\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: two\n---\nkind: [\n',
        ),
        'c.yaml': b64('apiVersion: v1\nmetadata:\n  name: nokind\n'),
      },
    };
    const result = decodeSecrets([secret]);
    expect(result.objects.map((o) => o.obj.metadata.name)).toEqual(['one', 'two', 'json']);
    expect(result.errors).toHaveLength(2);
    expect(result.errors[0]).toContain("could not decode resource at index 3 in 'a.yaml' in secret 'default/s'");
    expect(result.errors[1]).toContain("Object 'Kind' is missing");
    expect(decodeSecrets([secret]).checksum).toBe(result.checksum);
  });
});

describe('DecodeCache', () => {
  const secret = (resourceVersion: string, text: string) => ({
    metadata: { namespace: 'ns', name: 's', uid: 'u1', resourceVersion },
    data: { 'objects.yaml': b64(text) },
  });
  const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;

  it('parses an unchanged Secret once and hands out copies', () => {
    const cache = new DecodeCache();
    const first = decodeSecrets([secret('1', `${cm('a')}---\n${cm('b')}`)], cache);
    expect(cache.size).toBe(1);
    first.objects[0].obj.metadata.namespace = 'mutated';
    // Same uid/resourceVersion: served from the cache, unaffected by the caller's mutation.
    const second = decodeSecrets([secret('1', 'this text is not parsed again: the cache answers')], cache);
    expect(second.objects.map((o) => o.obj.metadata)).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(second.errors).toEqual([]);
    // The checksum always covers the actual data.
    expect(second.checksum).not.toBe(first.checksum);
  });

  it('parses again when the resourceVersion changes, and without uid/resourceVersion never caches', () => {
    const cache = new DecodeCache();
    decodeSecrets([secret('1', cm('a'))], cache);
    expect(decodeSecrets([secret('2', cm('c'))], cache).objects.map((o) => o.obj.metadata.name)).toEqual(['c']);
    const anonymous = { metadata: { namespace: 'ns', name: 's' }, data: { 'objects.yaml': b64(cm('d')) } };
    expect(decodeSecrets([anonymous], cache).objects[0].obj.metadata.name).toBe('d');
    expect(cache.size).toBe(2);
  });

  it('keeps decoding errors per document and drops the oldest entries beyond its size', () => {
    const cache = new DecodeCache(2);
    const bad = decodeSecrets([secret('1', `${cm('a')}---\nkind: ConfigMap\n`)], cache);
    expect(bad.errors).toHaveLength(1);
    expect(decodeSecrets([secret('1', '')], cache).errors).toEqual(bad.errors);
    decodeSecrets([secret('2', cm('b'))], cache);
    decodeSecrets([secret('3', cm('c'))], cache);
    expect(cache.size).toBe(2);
    expect(cache.get(DecodeCache.keyOf(secret('1', ''), 'objects.yaml')!)).toBeUndefined();
  });
});
