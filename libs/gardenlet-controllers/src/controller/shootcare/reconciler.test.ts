import { describe, expect, it } from 'vitest';
import {
  ApiError,
  type Condition,
  type KubernetesObject,
  type Patch,
  type ReconcileContext,
} from '@gardener-ts/controller-runtime';
import { ShootCareReconciler, UnscheduledRequeueMs, type ShootClientSource } from './reconciler.js';
import type { ShootClient } from './shoot-client.js';

type Obj = KubernetesObject & Record<string, any>;
const NS = 'shoot--local--local';
const T = '2026-01-01T00:00:00Z';
const clock = { now: () => new Date(T) };
const log = { info: () => undefined, error: () => undefined, debug: () => undefined, warn: () => undefined };
const ctx = { signal: new AbortController().signal, log, controller: 'shoot-care' } as unknown as ReconcileContext;

function shootObject(status: Record<string, unknown> = {}, seedName: string | null = 'local'): Obj {
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: { name: 'local', namespace: 'garden-local', resourceVersion: '1' },
    spec: {
      ...(seedName ? { seedName } : {}),
      kubernetes: { version: '1.33.1' },
      provider: { type: 'local', workers: [{ name: 'local', minimum: 1, maximum: 2, machine: { type: 'local' } }] },
    },
    status: { technicalID: NS, ...status },
  };
}

/** The garden: one Shoot with the API server's optimistic locking on status patches. */
function fakeGarden(shoot: Obj) {
  const patches: Record<string, any>[] = [];
  let rv = 1;
  return {
    shoot,
    patches,
    /** Runs before the next status patch is applied: a concurrent writer. */
    beforePatch: undefined as (() => void) | undefined,
    write(status: Record<string, unknown>) {
      shoot.status = { ...shoot.status, ...status };
      shoot.metadata!.resourceVersion = String(++rv);
    },
    async get(kind: { kind: string }) {
      if (kind.kind !== 'Shoot') throw new ApiError(404, 'NotFound', `${kind.kind} not found`);
      return structuredClone(shoot);
    },
    async list() {
      return { items: [], metadata: {} };
    },
    async patch(_kind: unknown, _key: unknown, patch: Patch, opts?: { subresource?: string }) {
      expect(opts?.subresource).toBe('status');
      const body = patch.patch as { metadata: { resourceVersion: string }; status: Record<string, unknown> };
      const hook = this.beforePatch;
      this.beforePatch = undefined;
      hook?.();
      if (body.metadata.resourceVersion !== shoot.metadata!.resourceVersion) {
        throw new ApiError(409, 'Conflict', 'the object has been modified');
      }
      patches.push(structuredClone(body.status));
      this.write(body.status);
      return structuredClone(shoot);
    },
  };
}

/** The seed: objects by kind, and the deletes it received. */
function fakeSeed(objects: Record<string, Obj[]> = {}) {
  const deleted: string[] = [];
  return {
    deleted,
    async get(kind: { kind: string }, key: { name: string }) {
      const found = (objects[kind.kind] ?? []).find((o) => o.metadata?.name === key.name);
      if (!found) throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
      return structuredClone(found);
    },
    async list(kind: { kind: string }) {
      return { items: structuredClone(objects[kind.kind] ?? []), metadata: {} };
    },
    async delete(_kind: unknown, key: { name: string }) {
      deleted.push(key.name);
    },
  };
}

const noShootClient: ShootClientSource = {
  forShoot: () => Promise.resolve({ missing: 'not used' }),
  forget: () => undefined,
};

function reconciler(garden: ReturnType<typeof fakeGarden>, seed = fakeSeed(), shootClients = noShootClient) {
  return new ShootCareReconciler({
    garden: garden as never,
    seed: seed as never,
    shootClients,
    seedName: 'local',
    syncPeriodMs: 60_000,
    thresholds: {},
    clock,
  });
}
const request = { namespace: 'garden-local', name: 'local' };
const byType = (shoot: Obj) =>
  Object.fromEntries(((shoot.status?.conditions ?? []) as Condition[]).map((c) => [c.type, c]));

describe('ShootCareReconciler', () => {
  it('leaves a shoot the Shoot controller has not claimed yet alone: no conditions written', async () => {
    const garden = fakeGarden(shootObject());
    expect(await reconciler(garden).reconcile(request, ctx)).toEqual({ requeueAfter: 30_000 });
    expect(garden.shoot.status?.conditions).toBeUndefined();
  });

  it('pardons a shoot that is still being created and says why shoot checks cannot run', async () => {
    const garden = fakeGarden(
      shootObject({ lastOperation: { type: 'Create', state: 'Processing', lastUpdateTime: T } }),
    );
    expect(await reconciler(garden).reconcile(request, ctx)).toEqual({ requeueAfter: 60_000 });
    const c = byType(garden.shoot);
    expect(c.ControlPlaneHealthy).toMatchObject({ status: 'Progressing', reason: 'EtcdMissing' });
    expect(c.APIServerAvailable).toMatchObject({ status: 'Progressing', reason: 'APIServerDown' });
    expect(c.EveryNodeReady).toMatchObject({
      status: 'Unknown',
      message: 'Shoot control plane has not been fully created yet.',
    });
    expect(c.ObservabilityComponentsHealthy?.status).toBe('True');
  });

  it('recomputes its write on a conflict and keeps what the Shoot reconciler wrote meanwhile', async () => {
    const garden = fakeGarden(
      shootObject({ lastOperation: { type: 'Reconcile', state: 'Succeeded', lastUpdateTime: T } }),
    );
    garden.beforePatch = () =>
      garden.write({ lastOperation: { type: 'Reconcile', state: 'Processing', progress: 40, lastUpdateTime: T } });
    await reconciler(garden).reconcile(request, ctx);
    expect(garden.patches).toHaveLength(1);
    expect(Object.keys(garden.patches[0]!)).toEqual(['conditions', 'constraints']);
    expect(garden.shoot.status.lastOperation).toMatchObject({ state: 'Processing', progress: 40 });
    expect(byType(garden.shoot).ControlPlaneHealthy?.status).toBe('False');
  });

  it('writes nothing when nothing changed', async () => {
    const garden = fakeGarden(
      shootObject({ lastOperation: { type: 'Reconcile', state: 'Succeeded', lastUpdateTime: T } }),
    );
    await reconciler(garden).reconcile(request, ctx);
    await reconciler(garden).reconcile(request, ctx);
    expect(garden.patches).toHaveLength(1);
  });

  it('leaves shoots of other seeds alone and waits for an unscheduled one', async () => {
    const other = fakeGarden(shootObject({}, 'other'));
    expect(await reconciler(other).reconcile(request, ctx)).toBeUndefined();
    const unscheduled = fakeGarden(shootObject({}, null));
    expect(await reconciler(unscheduled).reconcile(request, ctx)).toEqual({ requeueAfter: UnscheduledRequeueMs });
    expect([...other.patches, ...unscheduled.patches]).toEqual([]);
  });

  it('checks through the shoot client once kube-apiserver runs, and collects evicted pods in both clusters', async () => {
    const garden = fakeGarden(
      shootObject({
        lastOperation: { type: 'Reconcile', state: 'Succeeded', lastUpdateTime: T },
        advertisedAddresses: [{ name: 'unmanaged', url: 'https://127.0.0.1:31443' }],
      }),
    );
    const evicted = (namespace: string): Obj => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `evicted-in-${namespace}`, namespace },
      status: { phase: 'Failed', reason: 'Evicted' },
    });
    const seed = fakeSeed({
      Deployment: [
        { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'kube-apiserver' }, spec: { replicas: 1 } },
      ],
      Pod: [evicted(NS)],
    });
    const shootSide = fakeSeed({ Pod: [evicted('kube-system')] });
    const asked: string[] = [];
    const shootClient: ShootClient = {
      healthz: () => Promise.resolve({ statusCode: 200, body: 'ok' }),
      client: shootSide as never,
    };
    const clients: ShootClientSource = {
      forShoot: (_seed, namespace, server) => {
        asked.push(`${namespace} ${server}`);
        return Promise.resolve({ shoot: shootClient });
      },
      forget: () => undefined,
    };
    await reconciler(garden, seed, clients).reconcile(request, ctx);
    expect(asked).toEqual([`${NS} https://127.0.0.1:31443`]);
    const c = byType(garden.shoot);
    expect(c.APIServerAvailable).toMatchObject({ status: 'True', reason: 'HealthzRequestSucceeded' });
    expect(c.EveryNodeReady).toMatchObject({ status: 'False', reason: 'MissingNodes' });
    expect(c.SystemComponentsHealthy).toMatchObject({ status: 'True' });
    expect(seed.deleted).toEqual([`evicted-in-${NS}`]);
    expect(shootSide.deleted).toEqual(['evicted-in-kube-system']);
  });

  it('writes the constraints: not checked while the control plane is down, CA validity only while a CA expires soon', async () => {
    const garden = fakeGarden(
      shootObject({
        lastOperation: { type: 'Reconcile', state: 'Succeeded', lastUpdateTime: T },
        constraints: [
          { type: 'SomeoneElses', status: 'True', reason: 'R', message: 'm', lastTransitionTime: T, lastUpdateTime: T },
        ],
      }),
    );
    const caSecret = (validUntil: string): Obj => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'ca-1234',
        labels: { name: 'ca', persist: 'true', 'valid-until-time': String(Date.parse(validUntil) / 1000) },
      },
      data: { 'ca.crt': 'Y2E=', 'ca.key': 'a2V5' },
    });
    const objects: Record<string, Obj[]> = { Secret: [caSecret('2026-03-01T00:00:00Z')] };
    await reconciler(garden, fakeSeed(objects)).reconcile(request, ctx);
    const constraints = () => (garden.shoot.status.constraints as Condition[]).map((c) => [c.type, c.status, c.reason]);
    expect(constraints()).toEqual([
      ['SomeoneElses', 'True', 'R'],
      ['HibernationPossible', 'False', 'ConstraintNotChecked'],
      ['MaintenancePreconditionsSatisfied', 'False', 'ConstraintNotChecked'],
      ['CACertificateValiditiesAcceptable', 'False', 'ExpiringCACertificates'],
    ]);
    objects.Secret = [caSecret('2036-01-01T00:00:00Z')];
    await reconciler(garden, fakeSeed(objects)).reconcile(request, ctx);
    expect(constraints()).toEqual([
      ['SomeoneElses', 'True', 'R'],
      ['HibernationPossible', 'False', 'ConstraintNotChecked'],
      ['MaintenancePreconditionsSatisfied', 'False', 'ConstraintNotChecked'],
    ]);
  });
});
