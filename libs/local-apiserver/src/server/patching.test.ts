import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors.js';
import { definitionResolver, type SchemaView } from '../schema/navigate.js';
import type { OpenAPISchema } from '../schema/types.js';
import type { KubeObject } from '../storage/types.js';
import { applyPatch } from './patching.js';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

const frozen = (o: KubeObject): KubeObject => deepFreeze(structuredClone(o));
const json = (live: KubeObject, ops: unknown) => applyPatch('json', frozen(live), JSON.stringify(ops), undefined);
const merge = (live: KubeObject, patch: unknown) => applyPatch('merge', frozen(live), JSON.stringify(patch), undefined);

function errorOf(action: () => unknown): ApiError {
  try {
    action();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected an ApiError');
}

describe('JSON patch (RFC 6902)', () => {
  it('adds object members and inserts into arrays', () => {
    expect(json({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }])).toEqual({ foo: 'bar', baz: 'qux' });
    expect(json({ foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }])).toEqual({
      foo: ['bar', 'qux', 'baz'],
    });
    expect(json({ foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }])).toEqual({
      foo: ['bar', ['abc', 'def']],
    });
    expect(json({ foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }])).toEqual({
      foo: 'bar',
      child: { grandchild: {} },
    });
    expect(json({ foo: ['a', 'b'] }, [{ op: 'add', path: '/foo/2', value: 'c' }])).toEqual({ foo: ['a', 'b', 'c'] });
  });

  it('removes and replaces', () => {
    expect(json({ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }])).toEqual({ foo: 'bar' });
    expect(json({ foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }])).toEqual({ foo: ['bar', 'baz'] });
    expect(json({ baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }])).toEqual({
      baz: 'boo',
      foo: 'bar',
    });
  });

  it('moves and copies', () => {
    const live = { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } };
    expect(json(live, [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }])).toEqual({
      foo: { bar: 'baz' },
      qux: { corge: 'grault', thud: 'fred' },
    });
    expect(json({ foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }])).toEqual({
      foo: ['all', 'cows', 'eat', 'grass'],
    });
    const copied = json({ a: { b: [1] } }, [{ op: 'copy', from: '/a', path: '/c' }]);
    expect(copied).toEqual({ a: { b: [1] }, c: { b: [1] } });
    expect(copied.c).not.toBe(copied.a);
  });

  it('tests values and fails with 422 like kube', () => {
    const live = { baz: 'qux', foo: ['a', 2, 'c'] };
    expect(
      json(live, [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ]),
    ).toEqual(live);
    const err = errorOf(() => json({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]));
    expect(err.code).toBe(422);
    expect(err.reason).toBe('Invalid');
    expect(err.message).toBe('the server rejected our request due to an error in our request');
    expect(err.details?.causes?.[0]).toEqual({
      reason: 'UnexpectedServerResponse',
      message: 'testing value /baz failed: test failed',
    });
  });

  it('rejects operations that do not apply with 422', () => {
    for (const ops of [
      [{ op: 'add', path: '/baz/bat', value: 'qux' }],
      [{ op: 'remove', path: '/nope' }],
      [{ op: 'replace', path: '/nope', value: 1 }],
      [{ op: 'add', path: '/foo/5', value: 1 }],
      [{ op: 'bogus', path: '/foo' }],
      [{ op: 'replace', path: '', value: {} }],
    ]) {
      expect(errorOf(() => json({ foo: [1] }, ops)).code).toBe(422);
    }
  });

  it('is atomic: a failing op leaves nothing applied', () => {
    const live = frozen({ a: 1 });
    expect(() =>
      applyPatch(
        'json',
        live,
        JSON.stringify([
          { op: 'add', path: '/b', value: 2 },
          { op: 'remove', path: '/x' },
        ]),
        undefined,
      ),
    ).toThrow();
    expect(live).toEqual({ a: 1 });
  });

  it('unescapes ~0 and ~1 in pointers', () => {
    const live = { 'a/b': 1, 'm~n': 2 };
    expect(
      json(live, [
        { op: 'replace', path: '/a~1b', value: 10 },
        { op: 'replace', path: '/m~0n', value: 20 },
      ]),
    ).toEqual({ 'a/b': 10, 'm~n': 20 });
    expect(
      json({ metadata: { annotations: {} } }, [
        { op: 'add', path: '/metadata/annotations/example.com~1x', value: 'y' },
      ]),
    ).toEqual({
      metadata: { annotations: { 'example.com/x': 'y' } },
    });
  });

  it('supports negative indices like json-patch v4', () => {
    expect(json({ l: [1, 2, 3] }, [{ op: 'remove', path: '/l/-1' }])).toEqual({ l: [1, 2] });
  });

  it('answers 400 for bodies that are not a JSON array of operations', () => {
    expect(errorOf(() => applyPatch('json', {}, '{"op":"add"}', undefined)).code).toBe(400);
    expect(errorOf(() => applyPatch('json', {}, 'not json', undefined)).code).toBe(400);
    expect(errorOf(() => applyPatch('json', {}, '[1]', undefined)).code).toBe(400);
  });

  it('replace then read gives the value (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), fc.jsonValue(), (live, value) => {
        const key = Object.keys(live)[0]!;
        fc.pre(live[key] !== null && key !== '__proto__');
        const path = `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        const out = applyPatch(
          'json',
          deepFreeze(structuredClone(live)),
          JSON.stringify([{ op: 'replace', path, value }]),
          undefined,
        );
        expect(out[key]).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

describe('JSON merge patch (RFC 7386)', () => {
  const cases: [unknown, unknown, unknown][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  it.each(cases)('%j + %j = %j', (target, patch, result) => {
    expect(merge(target as KubeObject, patch)).toEqual(result);
  });

  it('answers 400 when the body is not a JSON object', () => {
    for (const body of ['["c"]', '"c"', 'null', '{nope']) {
      const err = errorOf(() => applyPatch('merge', { a: 1 }, body, undefined));
      expect(err.code).toBe(400);
      expect(err.message).toBe('Invalid JSON Patch');
    }
  });

  it('an empty patch is the identity (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (live) => {
        const plain = JSON.parse(JSON.stringify(live)) as KubeObject;
        expect(applyPatch('merge', deepFreeze(structuredClone(plain)), '{}', undefined)).toEqual(plain);
      }),
    );
  });
});

// A Deployment-shaped schema with the patch metadata kube's types carry.
const definitions: Record<string, OpenAPISchema> = {
  Deployment: {
    type: 'object',
    properties: { metadata: { $ref: '#/definitions/ObjectMeta' }, spec: { $ref: '#/definitions/DeploymentSpec' } },
  },
  ObjectMeta: {
    type: 'object',
    properties: {
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      finalizers: {
        type: 'array',
        items: { type: 'string' },
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-list-type': 'set',
      },
    },
  },
  DeploymentSpec: {
    type: 'object',
    properties: {
      replicas: { type: 'integer' },
      strategy: { $ref: '#/definitions/DeploymentStrategy', 'x-kubernetes-patch-strategy': 'retainKeys' },
      template: { type: 'object', properties: { spec: { $ref: '#/definitions/PodSpec' } } },
    },
  },
  DeploymentStrategy: {
    type: 'object',
    properties: {
      type: { type: 'string' },
      rollingUpdate: { type: 'object', properties: { maxSurge: { type: 'string' } } },
    },
  },
  PodSpec: {
    type: 'object',
    properties: {
      containers: mergeList('name', '#/definitions/Container'),
      tolerations: { type: 'array', items: { type: 'object' } },
    },
  },
  Container: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      image: { type: 'string' },
      args: { type: 'array', items: { type: 'string' } },
      env: mergeList('name', '#/definitions/EnvVar'),
      ports: mergeList('containerPort', '#/definitions/ContainerPort'),
    },
  },
  EnvVar: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'string' } } },
  ContainerPort: { type: 'object', properties: { containerPort: { type: 'integer' }, protocol: { type: 'string' } } },
};

function mergeList(key: string, ref: string): OpenAPISchema {
  return {
    type: 'array',
    items: { $ref: ref },
    'x-kubernetes-patch-strategy': 'merge',
    'x-kubernetes-patch-merge-key': key,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': [key],
  };
}

const view: SchemaView = { root: { $ref: '#/definitions/Deployment' }, resolve: definitionResolver(definitions) };

const deployment = (): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' }, finalizers: ['a', 'b', 'c'] },
  spec: {
    replicas: 1,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } },
    template: {
      spec: {
        containers: [
          {
            name: 'app',
            image: 'app:1',
            args: ['x'],
            env: [
              { name: 'A', value: '1' },
              { name: 'B', value: '2' },
            ],
            ports: [{ containerPort: 80 }],
          },
          { name: 'sidecar', image: 'side:1' },
        ],
        tolerations: [{ key: 'a' }],
      },
    },
  },
});

const smp = (patch: unknown, live: KubeObject = deployment(), schema: SchemaView | null = view) =>
  applyPatch('strategic', frozen(live), JSON.stringify(patch), schema ?? undefined);
const containers = (o: KubeObject) => o.spec.template.spec.containers as KubeObject[];

describe('strategic merge patch', () => {
  it('merges list items by merge key, recursively', () => {
    const out = smp({
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: 'app',
                image: 'app:2',
                env: [
                  { name: 'B', value: 'two' },
                  { name: 'C', value: '3' },
                ],
                ports: [{ containerPort: 443 }],
              },
            ],
          },
        },
      },
    });
    expect(containers(out)).toEqual([
      {
        name: 'app',
        image: 'app:2',
        args: ['x'],
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: 'two' },
          { name: 'C', value: '3' },
        ],
        // kube puts new patch items before server-only items it cannot place relative to them
        ports: [{ containerPort: 443 }, { containerPort: 80 }],
      },
      { name: 'sidecar', image: 'side:1' },
    ]);
  });

  it('replaces lists without a merge strategy and merges maps', () => {
    const out = smp({
      metadata: { labels: { tier: 'front' } },
      spec: { template: { spec: { tolerations: [{ key: 'b' }] } } },
    });
    expect(out.metadata.labels).toEqual({ app: 'web', tier: 'front' });
    expect(out.spec.template.spec.tolerations).toEqual([{ key: 'b' }]);
    expect(
      containers(smp({ spec: { template: { spec: { containers: [{ name: 'app', args: ['y'] }] } } } }))[0]!.args,
    ).toEqual(['y']);
  });

  it('deletes fields set to null', () => {
    const out = smp({ spec: { replicas: null, missing: null }, metadata: { labels: { app: null } } });
    expect(out.spec.replicas).toBeUndefined();
    expect('missing' in out.spec).toBe(false);
    expect(out.metadata.labels).toEqual({});
  });

  it('unions primitive sets and deletes with $deleteFromPrimitiveList', () => {
    expect(smp({ metadata: { finalizers: ['c', 'd'] } }).metadata.finalizers).toEqual(['a', 'b', 'c', 'd']);
    const out = smp({ metadata: { '$deleteFromPrimitiveList/finalizers': ['b', 'zz'] } });
    expect(out.metadata.finalizers).toEqual(['a', 'c']);
    expect(Object.keys(out.metadata).some((k) => k.startsWith('$'))).toBe(false);
  });

  it('removes list items with $patch: delete', () => {
    const out = smp({ spec: { template: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } } } });
    expect(containers(out).map((c) => c.name)).toEqual(['app']);
  });

  it('replaces a whole list with a $patch: replace item', () => {
    const out = smp({
      spec: { template: { spec: { containers: [{ name: 'only', image: 'x' }, { $patch: 'replace' }] } } },
    });
    expect(containers(out)).toEqual([{ name: 'only', image: 'x' }]);
  });

  it('honours $patch: replace and $patch: delete in maps', () => {
    expect(smp({ metadata: { labels: { $patch: 'replace', new: 'yes' } } }).metadata.labels).toEqual({ new: 'yes' });
    expect(smp({ spec: { strategy: { $patch: 'delete' } } }).spec.strategy).toEqual({});
  });

  it('drops keys outside $retainKeys', () => {
    const out = smp({ spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } });
    expect(out.spec.strategy).toEqual({ type: 'Recreate' });
    expect(errorOf(() => smp({ spec: { strategy: { $retainKeys: ['type'], rollingUpdate: {} } } })).code).toBe(400);
  });

  it('reorders with $setElementOrder and never leaves the directive behind', () => {
    const out = smp({
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'app' }],
            containers: [{ name: 'app', image: 'app:3' }],
          },
        },
      },
    });
    expect(containers(out).map((c) => [c.name, c.image])).toEqual([
      ['sidecar', 'side:1'],
      ['app', 'app:3'],
    ]);
    expect(JSON.stringify(out)).not.toContain('$setElementOrder');

    const fin = smp({ metadata: { '$setElementOrder/finalizers': ['c', 'b', 'a'] } });
    expect(fin.metadata.finalizers).toEqual(['c', 'b', 'a']);
  });

  it('handles what kubectl apply sends: order, changed items and deletions together', () => {
    const out = smp({
      metadata: { '$setElementOrder/finalizers': ['a', 'c'], '$deleteFromPrimitiveList/finalizers': ['b'] },
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'app' }, { name: 'new' }],
            containers: [
              { name: 'new', image: 'n:1' },
              { name: 'sidecar', $patch: 'delete' },
            ],
          },
        },
      },
    });
    expect(out.metadata.finalizers).toEqual(['a', 'c']);
    expect(containers(out).map((c) => c.name)).toEqual(['app', 'new']);
    expect(JSON.stringify(out)).not.toContain('$');
  });

  it('cleans directives and nulls out of values new to the object', () => {
    const live = deployment();
    delete live.spec.template.spec.containers;
    const out = smp(
      {
        spec: {
          template: {
            spec: { containers: [{ name: 'a', env: [{ name: 'X', value: null }], $retainKeys: ['name', 'env'] }] },
          },
        },
      },
      live,
    );
    expect(containers(out)).toEqual([{ name: 'a', env: [{ name: 'X' }] }]);
  });

  it('without a schema merges maps and replaces lists', () => {
    const out = smp({ metadata: { finalizers: ['z'] }, spec: { replicas: 3 } }, deployment(), null);
    expect(out.metadata.finalizers).toEqual(['z']);
    expect(out.spec.replicas).toBe(3);
    expect(out.spec.strategy).toEqual(deployment().spec.strategy);
  });

  it('answers 400 for bodies that are not JSON objects and 500 for items without their merge key', () => {
    expect(errorOf(() => applyPatch('strategic', {}, '[1]', view)).code).toBe(400);
    expect(errorOf(() => applyPatch('strategic', {}, '{x', view)).code).toBe(400);
    expect(errorOf(() => smp({ spec: { template: { spec: { containers: [{ image: 'x' }] } } } })).code).toBe(500);
  });

  it('refuses apply patches', () => {
    expect(() => applyPatch('apply', {}, '{}', view)).toThrow(ApiError);
  });

  it('never mutates the live object', () => {
    const live = frozen(deployment());
    applyPatch('strategic', live, JSON.stringify({ metadata: { finalizers: ['q'] }, spec: { replicas: 5 } }), view);
    applyPatch('merge', live, JSON.stringify({ spec: { replicas: 5 } }), view);
    applyPatch('json', live, JSON.stringify([{ op: 'remove', path: '/spec/template/spec/containers/0' }]), view);
    expect(live).toEqual(deployment());
  });
});
