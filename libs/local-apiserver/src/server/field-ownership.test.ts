import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors.js';
import type { ResourceDefinition } from '../registry/types.js';
import { inlineResolver, type SchemaView } from '../schema/navigate.js';
import type { OpenAPISchema } from '../schema/types.js';
import type { KubeObject } from '../storage/types.js';
import type { RequestContext } from './context.js';
import { createFieldOwnership } from './field-ownership.js';

const objectMeta: OpenAPISchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    namespace: { type: 'string' },
    uid: { type: 'string' },
    resourceVersion: { type: 'string' },
    creationTimestamp: { type: 'string' },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    annotations: { type: 'object', additionalProperties: { type: 'string' } },
    finalizers: { type: 'array', items: { type: 'string' } },
    ownerReferences: {
      type: 'array',
      items: { type: 'object' },
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['uid'],
    },
    managedFields: { type: 'array', items: { type: 'object' } },
  },
};

const configMapSchema: OpenAPISchema = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: objectMeta,
    data: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

const container: OpenAPISchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string' },
    image: { type: 'string' },
    args: { type: 'array', items: { type: 'string' } },
    ports: {
      type: 'array',
      items: {
        type: 'object',
        properties: { containerPort: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } },
      },
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
    },
  },
};

const deploymentSchema: OpenAPISchema = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: objectMeta,
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        selector: {
          type: 'object',
          'x-kubernetes-map-type': 'atomic',
          properties: { matchLabels: { type: 'object', additionalProperties: { type: 'string' } } },
        },
        template: {
          type: 'object',
          properties: {
            metadata: objectMeta,
            spec: {
              type: 'object',
              required: ['containers'],
              properties: {
                containers: {
                  type: 'array',
                  items: container,
                  'x-kubernetes-list-type': 'map',
                  'x-kubernetes-list-map-keys': ['name'],
                  'x-kubernetes-patch-merge-key': 'name',
                  'x-kubernetes-patch-strategy': 'merge',
                },
              },
            },
          },
        },
      },
    },
    status: { type: 'object', properties: { replicas: { type: 'integer' } } },
  },
};

function definition(
  kind: string,
  group: string,
  resource: string,
  extra: Partial<ResourceDefinition> = {},
): ResourceDefinition {
  return {
    group,
    version: 'v1',
    resource,
    singular: kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    namespaced: true,
    verbs: ['create', 'get', 'list', 'update', 'patch', 'delete'],
    subresources: {},
    served: true,
    storageVersion: 'v1',
    ...extra,
  };
}

const configMaps = definition('ConfigMap', '', 'configmaps');
const deployments = definition('Deployment', 'apps', 'deployments', {
  subresources: { status: true, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
});
const views = new Map<ResourceDefinition, SchemaView>([
  [configMaps, { root: configMapSchema, resolve: inlineResolver }],
  [deployments, { root: deploymentSchema, resolve: inlineResolver }],
]);
const ownership = createFieldOwnership({ patchSchema: (def) => views.get(def) });

function ctx(fieldManager: string): RequestContext {
  return {
    user: { username: 'admin', groups: [] },
    dryRun: false,
    fieldManager,
    fieldValidation: 'Strict',
    warnings: [],
  };
}

function entries(object: KubeObject): Record<string, any>[] {
  return object.metadata.managedFields ?? [];
}

function entry(
  object: KubeObject,
  manager: string,
  operation = 'Update',
  subresource?: string,
): Record<string, any> | undefined {
  return entries(object).find(
    (e) => e.manager === manager && e.operation === operation && e.subresource === subresource,
  );
}

function cm(data: Record<string, string>, extra: KubeObject = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'c', namespace: 'default', ...(extra.metadata ?? {}) },
    data,
  };
}

/** Simulates the object service's create: the server fills metadata, then ownership is recorded. */
function create(def: ResourceDefinition, object: KubeObject, manager: string): KubeObject {
  const next = structuredClone(object);
  next.metadata = { ...next.metadata, uid: 'u1', creationTimestamp: '2024-01-01T00:00:00Z', resourceVersion: '1' };
  ownership.recordWrite(def, undefined, next, ctx(manager), '');
  return next;
}

function update(
  def: ResourceDefinition,
  old: KubeObject,
  change: (o: KubeObject) => void,
  manager: string,
  subresource = '',
): KubeObject {
  const next = structuredClone(old);
  change(next);
  ownership.recordWrite(def, old, next, ctx(manager), subresource);
  return next;
}

function applyAs(
  def: ResourceDefinition,
  live: KubeObject | undefined,
  applied: KubeObject,
  manager: string,
  force = false,
): KubeObject {
  return ownership.apply(def, live, applied, ctx(manager), force);
}

function conflictOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected a conflict');
}

describe('field ownership: updates', () => {
  it('records the creator as Update owner of every field it set', () => {
    const created = create(
      configMaps,
      cm({ a: '1', b: '2' }, { metadata: { labels: { app: 'x' } } }),
      'kubectl-create',
    );
    expect(entries(created)).toHaveLength(1);
    const e = entries(created)[0];
    expect(e).toMatchObject({
      manager: 'kubectl-create',
      operation: 'Update',
      apiVersion: 'v1',
      fieldsType: 'FieldsV1',
    });
    expect(e.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(e.subresource).toBeUndefined();
    expect(e.fieldsV1).toEqual({
      'f:data': { '.': {}, 'f:a': {}, 'f:b': {} },
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
    });
    expect(Object.keys(e)).toEqual(['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
  });

  it('moves changed fields to the updating manager and keeps untouched managers', () => {
    const created = create(configMaps, cm({ a: '1', b: '2' }), 'creator');
    const updated = update(configMaps, created, (o) => (o.data.a = 'changed'), 'editor');
    expect(entry(updated, 'creator')!.fieldsV1).toEqual({ 'f:data': { '.': {}, 'f:b': {} } });
    expect(entry(updated, 'editor')!.fieldsV1).toEqual({ 'f:data': { 'f:a': {} } });

    // A third manager touching only labels leaves both entries as they were.
    const relabelled = update(configMaps, updated, (o) => (o.metadata.labels = { team: 'x' }), 'labeler');
    expect(entry(relabelled, 'creator')).toEqual(entry(updated, 'creator'));
    expect(entry(relabelled, 'editor')).toEqual(entry(updated, 'editor'));
    expect(entry(relabelled, 'labeler')!.fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { '.': {}, 'f:team': {} } } });
  });

  it('drops entries whose fields all went and does not record no-op writes', () => {
    const created = create(configMaps, cm({ a: '1' }), 'creator');
    const unchanged = update(configMaps, created, () => {}, 'other');
    expect(entries(unchanged).map((e) => e.manager)).toEqual(['creator']);
    const taken = update(configMaps, created, (o) => (o.data = { a: '2' }), 'other');
    // creator still owns the map itself (`.`), other owns the value now.
    expect(entry(taken, 'creator')!.fieldsV1).toEqual({ 'f:data': {} });
    const removed = update(configMaps, taken, (o) => delete o.data, 'cleaner');
    expect(entries(removed)).toEqual([]);
    expect(removed.metadata.managedFields).toBeUndefined();
  });

  it('records status and scale writes with their subresource', () => {
    const created = create(
      deployments,
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd', namespace: 'default' },
        spec: { replicas: 1, template: { spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
      },
      'kubectl-create',
    );
    const statused = update(
      deployments,
      created,
      (o) => (o.status = { replicas: 1 }),
      'kube-controller-manager',
      'status',
    );
    expect(entry(statused, 'kube-controller-manager', 'Update', 'status')!.fieldsV1).toEqual({
      'f:status': { 'f:replicas': {} },
    });
    const scaled = update(deployments, statused, (o) => (o.spec.replicas = 3), 'kubectl', 'scale');
    expect(entry(scaled, 'kubectl', 'Update', 'scale')).toMatchObject({
      apiVersion: 'apps/v1',
      subresource: 'scale',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
    });
    expect(entry(scaled, 'kubectl-create')!.fieldsV1['f:spec']['f:replicas']).toBeUndefined();
  });
});

describe('field ownership: server-side apply', () => {
  it('creates with an Apply entry of the applied fields only', () => {
    const applied = applyAs(configMaps, undefined, cm({ key: 'a' }), 'alice');
    expect(applied.data).toEqual({ key: 'a' });
    expect(entries(applied)).toHaveLength(1);
    expect(entries(applied)[0]).toMatchObject({
      manager: 'alice',
      operation: 'Apply',
      apiVersion: 'v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { 'f:key': {} } },
    });
    expect(entries(applied)[0].time).toMatch(/Z$/);
    // The object service then creates it: the applier's entry stays as it is.
    const stored = create(configMaps, applied, 'alice');
    expect(entries(stored)).toEqual(entries(applied));
  });

  it('conflicts when another applier sets a field to a different value, and force moves ownership', () => {
    const live = create(configMaps, applyAs(configMaps, undefined, cm({ key: 'a' }), 'alice'), 'alice');
    const err = conflictOf(() => applyAs(configMaps, live, cm({ key: 'b' }), 'bob'));
    expect(err.code).toBe(409);
    expect(err.reason).toBe('Conflict');
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "alice": .data.key');
    expect(err.details?.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.key' },
    ]);

    const forced = applyAs(configMaps, live, cm({ key: 'b' }), 'bob', true);
    expect(forced.data.key).toBe('b');
    expect(entry(forced, 'alice', 'Apply')).toBeUndefined();
    expect(entry(forced, 'bob', 'Apply')!.fieldsV1).toEqual({ 'f:data': { 'f:key': {} } });
  });

  it('names Update managers with their apiVersion in conflicts', () => {
    const live = create(configMaps, cm({ key: 'a', other: 'x' }), 'bob');
    const err = conflictOf(() => applyAs(configMaps, live, cm({ key: 'b', other: 'y' }), 'alice'));
    expect(err.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "bob" using v1:\n- .data.key\n- .data.other',
    );
    expect(err.details?.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "bob" using v1', field: '.data.key' },
      { reason: 'FieldManagerConflict', message: 'conflict with "bob" using v1', field: '.data.other' },
    ]);
  });

  it('shares a field applied with the same value instead of conflicting', () => {
    const live = applyAs(configMaps, undefined, cm({ key: 'a' }), 'alice');
    const shared = applyAs(configMaps, live, cm({ key: 'a', mine: 'b' }), 'bob');
    expect(entry(shared, 'alice', 'Apply')!.fieldsV1).toEqual({ 'f:data': { 'f:key': {} } });
    expect(entry(shared, 'bob', 'Apply')!.fieldsV1).toEqual({ 'f:data': { 'f:key': {}, 'f:mine': {} } });
    // alice dropping the shared field keeps it: bob still owns it.
    const after = applyAs(
      configMaps,
      shared,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
      'alice',
    );
    expect(after.data).toEqual({ key: 'a', mine: 'b' });
    expect(entry(after, 'alice', 'Apply')).toBeUndefined();
  });

  it('removes fields the applier no longer applies', () => {
    const live = applyAs(configMaps, undefined, cm({ a: '1', b: '2' }, { metadata: { labels: { x: 'y' } } }), 'alice');
    const next = applyAs(configMaps, live, cm({ a: '1' }), 'alice');
    expect(next.data).toEqual({ a: '1' });
    expect(next.metadata.labels).toBeUndefined();
    expect(entry(next, 'alice', 'Apply')!.fieldsV1).toEqual({ 'f:data': { 'f:a': {} } });
    // Fields set by others are kept.
    const edited = update(configMaps, next, (o) => (o.data.c = '3'), 'editor');
    const again = applyAs(
      configMaps,
      edited,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
      'alice',
    );
    expect(again.data).toEqual({ c: '3' });
    expect(entry(again, 'alice', 'Apply')).toBeUndefined();
    expect(entry(again, 'editor')!.fieldsV1).toEqual({ 'f:data': { 'f:c': {} } });
  });

  it('tracks containers by name as k:{"name":"web"} and merges them by key', () => {
    const base = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'default' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'd' } },
        template: {
          metadata: { labels: { app: 'd' } },
          spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }] }] },
        },
      },
    };
    const live = applyAs(deployments, undefined, base, 'alice');
    expect(entry(live, 'alice', 'Apply')!.fieldsV1).toEqual({
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:containers': {
              'k:{"name":"web"}': {
                '.': {},
                'f:image': {},
                'f:name': {},
                'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
              },
            },
          },
        },
      },
    });
    // bob adds a sidecar container: a separate list item, no conflict, both containers kept.
    const withSidecar = applyAs(
      deployments,
      live,
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd' },
        spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'envoy' }] } } },
      },
      'bob',
    );
    expect(withSidecar.spec.template.spec.containers.map((c: KubeObject) => c.name)).toEqual(['web', 'sidecar']);
    expect(entry(withSidecar, 'bob', 'Apply')!.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']).toEqual({
      'k:{"name":"sidecar"}': { '.': {}, 'f:image': {}, 'f:name': {} },
    });
    // bob changing web's image conflicts with alice at the container's path.
    const err = conflictOf(() =>
      applyAs(
        deployments,
        withSidecar,
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'd' },
          spec: { template: { spec: { containers: [{ name: 'web', image: 'httpd' }] } } },
        },
        'bob',
      ),
    );
    expect(err.message).toBe(
      'Apply failed with 1 conflict: conflict with "alice": .spec.template.spec.containers[name="web"].image',
    );
    // alice dropping her container removes it; bob's stays.
    const dropped = applyAs(
      deployments,
      withSidecar,
      { ...base, spec: { ...base.spec, template: { ...base.spec.template, spec: { containers: [] } } } },
      'alice',
    );
    expect(dropped.spec.template.spec.containers).toEqual([{ name: 'sidecar', image: 'envoy' }]);
  });

  it('records an Update by kubectl create of a Deployment like kube', () => {
    const created = create(
      deployments,
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd', namespace: 'default', labels: { app: 'd' } },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'd' } },
          template: { spec: { containers: [{ name: 'web', image: 'nginx', args: ['a'] }] } },
        },
        status: { replicas: 0 },
      },
      'kubectl-create',
    );
    expect(entry(created, 'kubectl-create')!.fieldsV1).toEqual({
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:template': {
          'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:args': {}, 'f:image': {}, 'f:name': {} } } },
        },
      },
    });
  });

  it('rejects managedFields and wrong versions in the applied configuration', () => {
    expect(() =>
      applyAs(configMaps, undefined, { ...cm({}), metadata: { name: 'c', managedFields: [] } }, 'alice'),
    ).toThrow('metadata.managedFields must be nil');
    expect(() => applyAs(configMaps, undefined, { ...cm({}), apiVersion: 'v2' }, 'alice')).toThrow(
      'Incorrect version specified in apply patch. Specified patch version: v2, expected: v1',
    );
  });

  it('keeps the time of an applier whose apply changed nothing', () => {
    const live = applyAs(configMaps, undefined, cm({ key: 'a' }), 'alice');
    const stale = structuredClone(live);
    stale.metadata.managedFields[0].time = '2020-01-01T00:00:00Z';
    const again = applyAs(configMaps, stale, cm({ key: 'a' }), 'alice');
    expect(entry(again, 'alice', 'Apply')!.time).toBe('2020-01-01T00:00:00Z');
  });
});

describe('field ownership: server-side apply through status and scale', () => {
  const widgets = definition('Widget', 'example.com', 'widgets', {
    custom: true,
    subresources: { status: true, scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' } },
  });
  const applySub = (
    def: ResourceDefinition,
    live: KubeObject,
    applied: KubeObject,
    manager: string,
    subresource: string,
    force = false,
  ) => ownership.apply(def, live, applied, ctx(manager), force, subresource);
  const deploy = (spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'default' },
    spec,
    ...(status ? { status } : {}),
  });
  const scaleOf = (replicas: number): KubeObject => ({
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name: 'd' },
    spec: { replicas },
  });
  const live = () => applyAs(deployments, undefined, deploy({ replicas: 1 }), 'alice');

  it('records a status apply under subresource status, owning and writing status only', () => {
    const next = applySub(deployments, live(), deploy({ replicas: 5 }, { replicas: 1 }), 'alice', 'status');
    expect(next.spec).toEqual({ replicas: 1 });
    expect(next.status).toEqual({ replicas: 1 });
    expect(entry(next, 'alice', 'Apply', 'status')).toMatchObject({
      apiVersion: 'apps/v1',
      fieldsV1: { 'f:status': { 'f:replicas': {} } },
    });
    // The same manager through the main resource is a separate entry.
    expect(entry(next, 'alice', 'Apply')!.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('ignores status in main-resource applies of resources with a status subresource', () => {
    const withStatus = applySub(deployments, live(), deploy({ replicas: 1 }, { replicas: 1 }), 'ctrl', 'status');
    const next = applyAs(deployments, withStatus, deploy({ replicas: 1 }, { replicas: 9 }), 'alice');
    expect(next.status).toEqual({ replicas: 1 });
    expect(entry(next, 'alice', 'Apply')!.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
    // Not a conflict with the status owner either.
    expect(entry(next, 'ctrl', 'Apply', 'status')!.fieldsV1).toEqual({ 'f:status': { 'f:replicas': {} } });
  });

  it('conflicts among status managers only, and force takes the field', () => {
    const owned = applySub(deployments, live(), deploy({}, { replicas: 1 }), 'ctrl', 'status');
    const err = conflictOf(() =>
      applySub(deployments, owned, deploy({ replicas: 7 }, { replicas: 2 }), 'other', 'status'),
    );
    expect(err.message).toBe(
      'Apply failed with 1 conflict: conflict with "ctrl" with subresource "status": .status.replicas',
    );
    expect(err.details?.causes).toEqual([
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "ctrl" with subresource "status"',
        field: '.status.replicas',
      },
    ]);
    const forced = applySub(deployments, owned, deploy({ replicas: 7 }, { replicas: 2 }), 'other', 'status', true);
    expect(forced.status).toEqual({ replicas: 2 });
    expect(forced.spec).toEqual({ replicas: 1 });
    expect(entry(forced, 'ctrl', 'Apply', 'status')).toBeUndefined();
    expect(entry(forced, 'other', 'Apply', 'status')!.fieldsV1).toEqual({ 'f:status': { 'f:replicas': {} } });
  });

  it('removes a status field dropped from the status apply unless another manager owns it', () => {
    const crd = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' } };
    const created = applyAs(widgets, undefined, { ...crd, spec: { size: 1 } }, 'alice');
    const a = applySub(
      widgets,
      created,
      { ...crd, status: { phase: 'Ready', message: 'ok', size: 1 } },
      'ctrl',
      'status',
    );
    const shared = applySub(widgets, a, { ...crd, status: { size: 1 } }, 'helper', 'status');
    const next = applySub(widgets, shared, { ...crd, status: { phase: 'Ready' } }, 'ctrl', 'status');
    expect(next.status).toEqual({ phase: 'Ready', size: 1 });
    expect(entry(next, 'ctrl', 'Apply', 'status')!.fieldsV1).toEqual({ 'f:status': { '.': {}, 'f:phase': {} } });
  });

  it('requires autoscaling/v1 in a Scale apply', () => {
    expect(() => applySub(deployments, live(), { ...scaleOf(2), apiVersion: 'apps/v1' }, 'k', 'scale')).toThrow(
      'Incorrect version specified in apply patch. Specified patch version: apps/v1, expected: autoscaling/v1',
    );
  });

  it('records a scale apply on the replicas path under the scale entry; a main-resource applier then conflicts', () => {
    const created = create(deployments, deploy({ selector: { matchLabels: { app: 'd' } } }), 'kubectl-create');
    const scaled = applySub(deployments, created, scaleOf(3), 'scaler', 'scale');
    expect(scaled.kind).toBe('Deployment');
    expect(scaled.spec.replicas).toBe(3);
    expect(entry(scaled, 'scaler', 'Apply', 'scale')).toMatchObject({
      apiVersion: 'apps/v1',
      subresource: 'scale',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
    });
    const err = conflictOf(() => applyAs(deployments, scaled, deploy({ replicas: 5 }), 'gitops'));
    expect(err.message).toBe(
      'Apply failed with 1 conflict: conflict with "scaler" with subresource "scale": .spec.replicas',
    );
    const forced = applyAs(deployments, scaled, deploy({ replicas: 5 }), 'gitops', true);
    expect(forced.spec.replicas).toBe(5);
    expect(entry(forced, 'scaler', 'Apply', 'scale')).toBeUndefined();
    // The same value is shared, not a conflict.
    expect(applyAs(deployments, scaled, deploy({ replicas: 3 }), 'gitops').spec.replicas).toBe(3);
  });

  it('conflicts a scale apply with a main-resource owner of the replicas path and moves it on force', () => {
    const owned = applyAs(deployments, undefined, deploy({ replicas: 2 }), 'gitops');
    const err = conflictOf(() => applySub(deployments, owned, scaleOf(4), 'hpa', 'scale'));
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "gitops": .spec.replicas');
    const forced = applySub(deployments, owned, scaleOf(4), 'hpa', 'scale', true);
    expect(forced.spec.replicas).toBe(4);
    expect(entry(forced, 'gitops', 'Apply')).toBeUndefined();
    expect(entry(forced, 'hpa', 'Apply', 'scale')!.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('names an Update through scale (kubectl scale) with its subresource and apiVersion in conflicts', () => {
    const created = create(deployments, deploy({ replicas: 1 }), 'kubectl-create');
    const scaled = update(deployments, created, (o) => (o.spec.replicas = 3), 'kubectl', 'scale');
    const err = conflictOf(() => applyAs(deployments, scaled, deploy({ replicas: 5 }), 'gitops'));
    expect(err.message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas',
    );
  });

  it('maps the scale of a custom resource to its specReplicasPath', () => {
    const crd = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' } };
    const created = applyAs(widgets, undefined, { ...crd, spec: { size: 1, color: 'red' } }, 'alice');
    const err = conflictOf(() => applySub(widgets, created, scaleOf(2), 'scaler', 'scale'));
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.replicas');
    const scaled = applySub(widgets, created, scaleOf(2), 'scaler', 'scale', true);
    expect(scaled.spec).toEqual({ size: 2, color: 'red' });
    expect(entry(scaled, 'scaler', 'Apply', 'scale')).toMatchObject({
      apiVersion: 'example.com/v1',
      fieldsV1: { 'f:spec': { 'f:size': {} } },
    });
    expect(entry(scaled, 'alice', 'Apply')!.fieldsV1).toEqual({ 'f:spec': { '.': {}, 'f:color': {} } });
    const back = conflictOf(() => applyAs(widgets, scaled, { ...crd, spec: { size: 1, color: 'red' } }, 'alice'));
    expect(back.message).toBe(
      'Apply failed with 1 conflict: conflict with "scaler" with subresource "scale": .spec.size',
    );
  });
});
