import { describe, expect, it } from 'vitest';
import { ApiError, type Condition } from '@gardener-ts/controller-runtime';
import { HealthCheckReconciler, kindSpecFor, type ExtensionObject } from '@gardener-ts/extensions';
import { ShootWebhooksManagedResourceName } from '../controlplane/actuator.js';
import { StorageClassesManagedResourceName } from '../controlplane/storage-classes.js';
import { controlPlaneHealthChecks, workerHealthChecks } from './add.js';

const namespace = 'shoot--p--s';
const worker: ExtensionObject = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'Worker',
  metadata: { name: 'w', namespace, generation: 1 },
  spec: { type: 'local' },
  status: { lastOperation: { type: 'Reconcile', state: 'Succeeded' } },
} as ExtensionObject;

/** A seed with the Worker, one MachineDeployment of two machines (one Running, one Pending) and no shoot Secret. */
function seed() {
  const patches: Record<string, unknown>[] = [];
  const client = {
    get: async (kind: { kind: string }, key: { name: string }) => {
      if (kind.kind === 'Worker') return structuredClone(worker);
      throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
    },
    list: async (kind: { kind: string }) => {
      if (kind.kind === 'MachineDeployment')
        return {
          items: [
            { metadata: { name: 'pool', generation: 1 }, spec: { replicas: 2 }, status: { observedGeneration: 1 } },
          ],
        };
      if (kind.kind === 'Machine')
        return {
          items: [
            { metadata: { name: 'm1' }, status: { currentStatus: { phase: 'Running' } } },
            { metadata: { name: 'm2' }, status: { currentStatus: { phase: 'Pending' } } },
          ],
        };
      return { items: [] };
    },
    patch: async (_kind: unknown, _key: unknown, patch: { patch: Record<string, unknown> }) => {
      patches.push(patch.patch);
      return {};
    },
  };
  return { client, patches };
}

describe("provider-local's health checks", () => {
  it('register the Worker conditions Gardener reports and a ControlPlane SystemComponentsHealthy', () => {
    expect(workerHealthChecks().map((r) => r.conditionType)).toEqual([
      'ControlPlaneHealthy',
      'SystemComponentsHealthy',
      'EveryNodeReady',
    ]);
    const [cp] = controlPlaneHealthChecks();
    expect(cp.conditionType).toBe('SystemComponentsHealthy');
    const purpose = (p: string) => ({ spec: { type: 'local', purpose: p } }) as unknown as ExtensionObject;
    expect(cp.preCheck?.(purpose('normal'), {} as never)).toBe(true);
    expect(cp.preCheck?.(purpose('exposure'), {} as never)).toBe(false);
  });

  it("write the Worker's conditions through the SDK's reconciler", async () => {
    const { client, patches } = seed();
    const reconciler = new HealthCheckReconciler({
      kind: kindSpecFor({ kind: 'Worker', types: ['local'] }),
      client: client as never,
      registrations: workerHealthChecks({
        shootClient: async () =>
          ({
            list: async () => ({
              items: [
                { metadata: { name: 'n1' }, spec: {}, status: { conditions: [{ type: 'Ready', status: 'True' }] } },
              ],
            }),
          }) as never,
      }),
      responsibleFor: () => true,
    });
    await reconciler.reconcile({ namespace, name: 'w' }, { log: console } as never);
    const conditions = (patches.at(-1)?.status as { conditions: Condition[] }).conditions;
    const byType = Object.fromEntries(conditions.map((c) => [c.type, c]));
    expect(byType.ControlPlaneHealthy.status).toBe('True');
    expect(byType.SystemComponentsHealthy).toMatchObject({ status: 'False', reason: 'HealthCheckUnsuccessful' });
    expect(byType.EveryNodeReady).toMatchObject({
      status: 'Progressing',
      message: '1 node is provisioning and should join the cluster soon',
    });
  });
});

describe("provider-local's ControlPlane SystemComponentsHealthy", () => {
  const controlPlane: ExtensionObject = {
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'ControlPlane',
    metadata: { name: 'cp', namespace, generation: 1 },
    spec: { type: 'local', purpose: 'normal' },
    status: { lastOperation: { type: 'Reconcile', state: 'Succeeded' } },
  } as unknown as ExtensionObject;
  const healthy = (name: string) => ({
    metadata: { name, namespace, generation: 2 },
    status: {
      observedGeneration: 2,
      conditions: [
        { type: 'ResourcesApplied', status: 'True' },
        { type: 'ResourcesHealthy', status: 'True' },
      ],
    },
  });

  /** The condition the SDK's reconciler writes for the ControlPlane, the seed holding `managedResources`. */
  async function condition(
    managedResources: Record<string, unknown>,
    options: Parameters<typeof controlPlaneHealthChecks>[0] = {},
  ): Promise<Condition> {
    const patches: Record<string, unknown>[] = [];
    const client = {
      get: async (kind: { kind: string }, key: { name: string }) => {
        if (kind.kind === 'ControlPlane') return structuredClone(controlPlane);
        if (kind.kind === 'ManagedResource' && managedResources[key.name]) return managedResources[key.name];
        throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
      },
      list: async () => ({ items: [] }),
      patch: async (_kind: unknown, _key: unknown, patch: { patch: Record<string, unknown> }) => {
        patches.push(patch.patch);
        return {};
      },
    };
    const reconciler = new HealthCheckReconciler({
      kind: kindSpecFor({ kind: 'ControlPlane', types: ['local'] }),
      client: client as never,
      registrations: controlPlaneHealthChecks(options),
      responsibleFor: () => true,
    });
    await reconciler.reconcile({ namespace, name: 'cp' }, { log: console } as never);
    const conditions = (patches.at(-1)?.status as { conditions: Condition[] }).conditions;
    return conditions.find((c) => c.type === 'SystemComponentsHealthy')!;
  }

  it('is True when the shoot webhooks and the StorageClass ManagedResources are healthy', async () => {
    const c = await condition({
      [ShootWebhooksManagedResourceName]: healthy(ShootWebhooksManagedResourceName),
      [StorageClassesManagedResourceName]: healthy(StorageClassesManagedResourceName),
    });
    expect(c.status).toBe('True');
  });

  it('is False naming extension-controlplane-shoot-webhooks when it is missing or unhealthy', async () => {
    const missing = await condition({
      [StorageClassesManagedResourceName]: healthy(StorageClassesManagedResourceName),
    });
    expect(missing).toMatchObject({ status: 'False', reason: 'HealthCheckUnsuccessful' });
    expect(missing.message).toContain('ManagedResource "extension-controlplane-shoot-webhooks"');

    const unhealthy = healthy(ShootWebhooksManagedResourceName);
    unhealthy.status.conditions[1] = {
      type: 'ResourcesHealthy',
      status: 'False',
      reason: 'ObjectMissing',
      message: 'MutatingWebhookConfiguration is missing',
    } as never;
    const c = await condition({
      [ShootWebhooksManagedResourceName]: unhealthy,
      [StorageClassesManagedResourceName]: healthy(StorageClassesManagedResourceName),
    });
    expect(c.status).toBe('False');
    expect(c.message).toContain('extension-controlplane-shoot-webhooks');
    expect(c.message).toContain('ObjectMissing');
  });

  it('does not look for the shoot webhooks ManagedResource when provider-local serves no webhooks', async () => {
    const c = await condition(
      { [StorageClassesManagedResourceName]: healthy(StorageClassesManagedResourceName) },
      { shootWebhooks: false },
    );
    expect(c.status).toBe('True');
  });
});
