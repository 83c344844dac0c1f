// The health check reconciler driven with plain fakes: which conditions it writes for a reconciled, a not yet
// reconciled, a hibernated and a migrating shoot, and that it writes only when something changed.
import { describe, expect, it } from 'vitest';
import { createLogger } from '@gardener-ts/logging';
import {
  ApiError,
  type Client,
  type Condition,
  type KubernetesObject,
  type Patch,
  type PatchOptions,
  type ReconcileContext,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { clusterObject, extensionResource } from '../testing.js';
import { ExtensionKinds, type ExtensionObject } from '../controller/generic/kinds.js';
import type { HealthCheck } from './checks.js';
import { HealthCheckReconciler, type HealthCheckRegistration } from './reconciler.js';

const NS = 'shoot--dev--demo';
const ctx: ReconcileContext = {
  signal: new AbortController().signal,
  log: createLogger({ name: 'test', level: 'silent' }),
  controller: 'test',
};

/** Reads of a fixed set of objects and the status merge patches written. */
class FakeSeed {
  readonly statusPatches: Record<string, any>[] = [];

  constructor(readonly objects: KubernetesObject[]) {}

  async get(kind: { kind: string }, key: { namespace?: string; name: string }): Promise<any> {
    const obj = this.objects.find(
      (o) =>
        o.kind === kind.kind &&
        (o.metadata?.namespace ?? '') === (key.namespace ?? '') &&
        o.metadata?.name === key.name,
    );
    if (!obj) throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
    return structuredClone(obj);
  }

  async list(): Promise<any> {
    return { items: [] };
  }

  async patch(_kind: { kind: string }, _key: unknown, patch: Patch, opts: PatchOptions = {}): Promise<any> {
    if (patch.type !== 'merge' || opts.subresource !== 'status') throw new Error('expected a status merge patch');
    const body = patch.patch as { status: { conditions: Condition[] } };
    this.statusPatches.push(body);
    const ext = this.objects.find((o) => o.kind === 'Extension') as ExtensionObject;
    ext.status = { ...ext.status, conditions: body.status.conditions };
    return structuredClone(ext);
  }
}

const clock = (iso: string): WallClock => ({ now: () => new Date(iso) });

function setup(options: {
  lastOperation?: { type: string; state: string };
  shoot?: Record<string, unknown>;
  checks?: HealthCheck[];
}) {
  const ext = extensionResource('Extension', NS, 'hello', { type: 'hello' }, { operation: undefined });
  if (options.lastOperation) {
    ext.status = {
      lastOperation: { ...options.lastOperation, progress: 100, description: '', lastUpdateTime: '' },
    } as ExtensionObject['status'];
  }
  const cluster = clusterObject(NS, {
    shoot: { metadata: { name: 'demo', namespace: 'garden-dev' }, ...(options.shoot ?? {}) },
  });
  const seed = new FakeSeed([cluster, ext]);
  let calls = 0;
  const registration: HealthCheckRegistration = {
    conditionType: 'ControlPlaneHealthy',
    checks: (options.checks ?? [async () => ({ status: 'True' })]).map((check): HealthCheck => (hctx) => {
      calls++;
      return check(hctx);
    }),
  };
  const reconciler = (now = '2026-01-01T10:00:00Z') =>
    new HealthCheckReconciler({
      kind: ExtensionKinds.Extension,
      client: seed as unknown as Client,
      registrations: [registration],
      responsibleFor: (obj) => obj.spec.type === 'hello',
      clock: clock(now),
    });
  const run = (now?: string) => reconciler(now).reconcile({ namespace: NS, name: 'hello' }, ctx);
  const conditions = () => (ext.status?.conditions ?? []) as Condition[];
  return { seed, run, conditions, checkCalls: () => calls };
}

const succeeded = { type: 'Reconcile', state: 'Succeeded' };

describe('HealthCheckReconciler', () => {
  it('writes the checks as a condition once the extension was reconciled, and writes again only on a change', async () => {
    let status: 'True' | 'False' = 'True';
    const { seed, run, conditions } = setup({
      lastOperation: succeeded,
      checks: [async () => (status === 'True' ? { status } : { status, detail: 'Deployment hello is unavailable' })],
    });
    await run();
    expect(conditions()).toMatchObject([
      { type: 'ControlPlaneHealthy', status: 'True', reason: 'HealthCheckSuccessful' },
    ]);
    await run('2026-01-01T10:00:30Z');
    expect(seed.statusPatches).toHaveLength(1);
    status = 'False';
    await run('2026-01-01T10:01:00Z');
    expect(seed.statusPatches).toHaveLength(2);
    expect(conditions()).toMatchObject([
      { status: 'False', reason: 'HealthCheckUnsuccessful', message: 'Deployment hello is unavailable' },
    ]);
  });

  it('reports Unknown without running the checks before the first successful Create', async () => {
    const { run, conditions, checkCalls } = setup({ lastOperation: { type: 'Create', state: 'Processing' } });
    await run();
    expect(checkCalls()).toBe(0);
    expect(conditions()).toMatchObject([{ status: 'Unknown', reason: 'HealthCheckUnsuccessful' }]);
    expect(conditions()[0]!.message).toContain('has not been reconciled successfully yet');
  });

  it('reports a hibernated shoot as healthy without running the checks', async () => {
    const { run, conditions, checkCalls } = setup({
      lastOperation: succeeded,
      shoot: { spec: { hibernation: { enabled: true } } },
    });
    await run();
    expect(checkCalls()).toBe(0);
    expect(conditions()).toMatchObject([{ status: 'True', message: 'Shoot is hibernated' }]);
  });

  it('is Unknown when a check could not run', async () => {
    const { run, conditions } = setup({
      lastOperation: succeeded,
      checks: [
        async () => ({ status: 'True' }),
        async () => {
          throw new Error('no shoot client configured for a check in the shoot');
        },
      ],
    });
    await run();
    expect(conditions()).toMatchObject([{ status: 'Unknown' }]);
  });

  it('leaves a shoot in migration alone', async () => {
    const { seed, run, checkCalls } = setup({
      lastOperation: succeeded,
      shoot: { spec: { seedName: 'new-seed' }, status: { seedName: 'old-seed' } },
    });
    await run();
    expect(checkCalls()).toBe(0);
    expect(seed.statusPatches).toHaveLength(0);
  });
});
