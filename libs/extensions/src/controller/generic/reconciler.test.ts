import { describe, expect, it } from 'vitest';
import { createLogger } from '@gardener-ts/logging';
import {
  ApiError,
  type Client,
  type KubernetesObject,
  type Patch,
  type PatchOptions,
  type ReconcileContext,
} from '@gardener-ts/controller-runtime';
import { applyMergePatch } from '../../util/merge-patch.js';
import { clusterObject, extensionResource } from '../../testing.js';
import { RequeueAfterError, type Actuator } from './actuator.js';
import { ExtensionKinds, type ExtensionObject } from './kinds.js';
import { GenericReconciler } from './reconciler.js';

/** A tiny API: get and merge patches (optimistic concurrency on metadata.resourceVersion, the status subresource). */
class FakeClient {
  readonly objects = new Map<string, KubernetesObject>();
  readonly writes: { what: string; body: Record<string, any> }[] = [];
  private version = 1;

  add(obj: KubernetesObject): void {
    this.objects.set(this.key(obj.kind!, obj.metadata?.namespace, obj.metadata!.name!), {
      ...obj,
      metadata: { generation: 1, ...obj.metadata, resourceVersion: String(this.version++) },
    });
  }

  private key(kind: string, namespace: string | undefined, name: string): string {
    return `${kind}/${namespace ?? ''}/${name}`;
  }

  async get(kind: { kind: string }, key: { namespace?: string; name: string }): Promise<any> {
    const obj = this.objects.get(this.key(kind.kind, key.namespace, key.name));
    if (!obj) throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
    return structuredClone(obj);
  }

  async patch(
    kind: { kind: string },
    key: { namespace?: string; name: string },
    patch: Patch,
    opts: PatchOptions = {},
  ): Promise<any> {
    if (patch.type !== 'merge') throw new Error('the fake knows merge patches only');
    const k = this.key(kind.kind, key.namespace, key.name);
    const current = this.objects.get(k);
    if (!current) throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
    const body = structuredClone(patch.patch) as Record<string, any>;
    const rv = body.metadata?.resourceVersion;
    if (rv !== undefined && rv !== current.metadata?.resourceVersion)
      throw new ApiError(409, 'Conflict', 'the object has been modified');
    if (body.metadata) delete body.metadata.resourceVersion;
    const limited =
      opts.subresource === 'status' ? { status: body.status } : (({ status: _status, ...rest }) => rest)(body);
    const next = applyMergePatch(current, limited) as KubernetesObject;
    next.metadata = { ...next.metadata, resourceVersion: String(this.version++) };
    this.objects.set(k, next);
    this.writes.push({ what: opts.subresource ?? 'object', body: limited });
    return structuredClone(next);
  }
}

const ctx: ReconcileContext = {
  signal: new AbortController().signal,
  log: createLogger({ name: 'test', level: 'silent' }),
  controller: 'test',
};
const NS = 'shoot--dev--demo';
const shoot = (annotations: Record<string, string> = {}) => ({
  metadata: { name: 'demo', namespace: 'garden-dev', annotations },
});

function setup(actuator: Partial<Actuator>, ext: ExtensionObject, shootAnnotations: Record<string, string> = {}) {
  const client = new FakeClient();
  client.add(clusterObject(NS, { shoot: shoot(shootAnnotations) }));
  client.add(ext);
  const calls: string[] = [];
  const full: Actuator = {
    reconcile: async () => void calls.push('reconcile'),
    delete: async () => void calls.push('delete'),
    forceDelete: async () => void calls.push('forceDelete'),
    migrate: async () => void calls.push('migrate'),
    restore: async () => void calls.push('restore'),
    ...actuator,
  };
  const reconciler = new GenericReconciler({
    kind: ExtensionKinds.Extension,
    actuator: full,
    client: client as unknown as Client,
    types: ['hello'],
    now: () => new Date('2026-01-01T00:00:00Z'),
  });
  const run = () => reconciler.reconcile({ namespace: NS, name: 'hello' }, ctx);
  const current = () => client.objects.get(`Extension/${NS}/hello`) as ExtensionObject;
  return { client, calls, run, current };
}

const hello = (options?: { operation?: string }) =>
  extensionResource('Extension', NS, 'hello', { type: 'hello' }, options);

describe('GenericReconciler', () => {
  it('removes the reconcile annotation, adds the finalizer, then reports Processing (1) and Succeeded (100)', async () => {
    const seen: string[] = [];
    const t = setup({}, hello());
    const { client, run, current } = t;
    const original = client.patch.bind(client);
    client.patch = async (kind, key, patch, opts) => {
      const body = (patch as { patch: Record<string, any> }).patch;
      if (body.metadata?.annotations) seen.push('annotation removed');
      if (body.metadata?.finalizers) seen.push(`finalizers ${body.metadata.finalizers.join(',')}`);
      if (body.status?.lastOperation)
        seen.push(`${body.status.lastOperation.state} ${body.status.lastOperation.progress}`);
      return original(kind, key, patch, opts);
    };
    await run();
    expect(seen).toEqual([
      'annotation removed',
      'finalizers extensions.gardener.cloud/extension',
      'Processing 1',
      'Succeeded 100',
    ]);
    expect(current().status).toMatchObject({
      observedGeneration: 1,
      lastOperation: { type: 'Create', state: 'Succeeded', lastUpdateTime: '2026-01-01T00:00:00Z' },
    });
  });

  it('does nothing for an object whose last operation succeeded and that nobody asked to reconcile', async () => {
    const t = setup({}, hello({ operation: undefined }));
    await t.run();
    await t.run();
    expect(t.calls).toEqual(['reconcile']);
  });

  it('writes Error with progress 50 and the error codes, and throws with the cause for back-off', async () => {
    const cause = new Error('UnauthorizedOperation: You are not authorized to perform this operation');
    const t = setup({ reconcile: () => Promise.reject(cause) }, hello());
    const err = await t.run().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.cause).toBe(cause);
    expect(t.current().status?.lastOperation).toMatchObject({
      state: 'Error',
      progress: 50,
      description:
        'Error reconciling Extension: UnauthorizedOperation: You are not authorized to perform this operation',
    });
    expect(t.current().status?.lastError?.codes).toEqual(['ERR_INFRA_UNAUTHORIZED']);
  });

  it('requeues after the delay of a RequeueAfterError instead of throwing', async () => {
    const t = setup(
      { reconcile: () => Promise.reject(new RequeueAfterError('still waiting for the load balancer', 5000)) },
      hello(),
    );
    expect(await t.run()).toEqual({ requeueAfter: 5000 });
    expect(t.current().status?.lastOperation?.state).toBe('Error');
  });

  it('replaces status.state with what the actuator returns', async () => {
    const ext = { ...hello(), status: { state: { machines: ['a'], keys: { old: 'x' } } } };
    const t = setup({ reconcile: async () => ({ state: { machines: ['b'] } }) }, ext);
    await t.run();
    expect(t.current().status?.state).toEqual({ machines: ['b'] });
  });

  it('writes the resources, provider status and other status fields the actuator returns', async () => {
    const resources = [{ name: 'dns-credentials', resourceRef: { apiVersion: 'v1', kind: 'Secret', name: 'route53' } }];
    const t = setup(
      {
        reconcile: async () => ({
          resources,
          providerStatus: { zone: 'z1' },
          status: { machineDeployments: [{ name: 'w', minimum: 1, maximum: 2 }] },
        }),
      },
      hello(),
    );
    await t.run();
    expect(t.current().status).toMatchObject({
      resources,
      providerStatus: { zone: 'z1' },
      machineDeployments: [{ name: 'w', minimum: 1, maximum: 2 }],
    });
  });

  it('calls forceDelete when the Shoot confirms force deletion, delete otherwise, and drops the finalizer after', async () => {
    for (const [annotations, expected] of [
      [{ 'confirmation.gardener.cloud/force-deletion': 'true' }, 'forceDelete'],
      [{}, 'delete'],
    ] as const) {
      const ext = {
        ...hello(),
        metadata: {
          ...hello().metadata,
          deletionTimestamp: '2026-01-01T00:00:00Z',
          finalizers: ['extensions.gardener.cloud/extension'],
        },
      };
      const t = setup({}, ext, annotations);
      await t.run();
      expect(t.calls).toEqual([expected]);
      expect(t.current().metadata?.finalizers).toEqual([]);
      expect(t.current().status?.lastOperation).toMatchObject({ type: 'Delete', state: 'Succeeded' });
    }
  });

  it('waits while gardenlet restores the state (wait-for-state)', async () => {
    const t = setup({}, hello({ operation: 'wait-for-state' }));
    await t.run();
    expect(t.calls).toEqual([]);
    expect(t.current().status).toBeUndefined();
  });

  it('hands the saved state to restore and removes the annotation only after success', async () => {
    const ext = { ...hello({ operation: 'restore' }), status: { state: { greeting: 'hi' } } };
    let stateSeen: unknown;
    const t = setup({ restore: async (_ctx, obj) => void (stateSeen = obj.status?.state) }, ext);
    await t.run();
    expect(stateSeen).toEqual({ greeting: 'hi' });
    expect(t.current().metadata?.annotations?.['gardener.cloud/operation']).toBeUndefined();
    expect(t.current().status?.lastOperation).toMatchObject({ type: 'Restore', state: 'Succeeded' });
    expect(t.current().metadata?.finalizers).toEqual(['extensions.gardener.cloud/extension']);
  });
});
