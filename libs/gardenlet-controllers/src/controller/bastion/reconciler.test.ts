// The Bastion reconciler over in-memory fakes of the garden and the seed (merge, apply and status patches, deletion
// with finalizers) and a fixed clock: the finalizer and the extension Bastion with its request; the extension's
// progress, errors and success mirrored to `BastionReady`; the deletion (forced deletion passed on) until the
// extension Bastion is gone; a missing Shoot.
import { describe, expect, it } from 'vitest';
import { ApiError, type ReconcileContext } from '@gardener-ts/controller-runtime';
import { FakeCluster, type FakeObject } from '../../../test/support/fake-cluster.js';
import { renderUserData } from './objects.js';
import { BastionReconciler, RequeueWhileDeleting } from './reconciler.js';

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKp user@host';
const CONTROL_PLANE = 'shoot--p--s';
const now = new Date('2026-11-29T12:00:00.250Z');
const ctx = { log: { info: () => undefined } } as unknown as ReconcileContext;
const req = { namespace: 'garden-p', name: 'cli-abc' };

function setup(bastion: Partial<FakeObject['metadata']> = {}, seedName = 'local') {
  const garden = new FakeCluster();
  const seed = new FakeCluster();
  garden.put({
    apiVersion: 'operations.gardener.cloud/v1alpha1',
    kind: 'Bastion',
    metadata: { name: 'cli-abc', namespace: 'garden-p', generation: 1, ...bastion },
    spec: {
      shootRef: { name: 's' },
      seedName,
      providerType: 'local',
      sshPublicKey: KEY,
      ingress: [{ ipBlock: { cidr: '203.0.113.0/24' } }],
    },
  });
  garden.put({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: { name: 's', namespace: 'garden-p' },
    spec: { seedName: 'local' },
    status: { technicalID: CONTROL_PLANE },
  });
  const reconciler = new BastionReconciler({
    garden: garden as never,
    seed: seed as never,
    seedName: 'local',
    now: () => now,
  });
  const core = () => garden.find('Bastion', 'cli-abc', 'garden-p');
  const extension = () => seed.find('Bastion', 'cli-abc', CONTROL_PLANE);
  /** The extension's report on the extension Bastion. */
  const report = (status: Record<string, unknown>) => seed.put({ ...extension()!, status });
  const ready = () => core()?.status?.conditions?.find((c: { type: string }) => c.type === 'BastionReady');
  return { garden, seed, reconciler, core, extension, report, ready };
}

const lastOperation = (state: string) => ({
  type: 'Create',
  state,
  progress: 100,
  description: state,
  lastUpdateTime: '2026-11-29T12:00:01Z',
});

describe('BastionReconciler', () => {
  it('leaves Bastions of other seeds alone', async () => {
    const { garden, seed, reconciler, core } = setup({}, 'other');
    await reconciler.reconcile(req, ctx);
    expect(core()?.metadata?.finalizers).toBeUndefined();
    expect(garden.calls).toEqual([]);
    expect(seed.objects.size).toBe(0);
  });

  it('adds the finalizer and deploys the extension Bastion with the key in its user data and a reconcile request', async () => {
    const { reconciler, core, extension } = setup();
    expect(await reconciler.reconcile(req, ctx)).toBeUndefined();
    expect(core()?.metadata?.finalizers).toEqual(['gardener']);
    const deployed = extension()!;
    expect(deployed.metadata?.annotations).toEqual({
      'gardener.cloud/operation': 'reconcile',
      'gardener.cloud/timestamp': now.toISOString(),
    });
    expect(deployed.spec).toEqual({
      type: 'local',
      userData: Buffer.from(renderUserData(KEY)).toString('base64'),
      ingress: [{ ipBlock: { cidr: '203.0.113.0/24' } }],
    });
    // Nothing to say yet: the extension's status update brings the Bastion back.
    expect(core()?.status).toBeUndefined();
  });

  it('reports an extension Bastion without a last operation, then mirrors its success and ingress', async () => {
    const { seed, reconciler, core, report, ready } = setup();
    await reconciler.reconcile(req, ctx);
    const deploys = () => seed.calls.filter((c) => c.startsWith('apply')).length;
    await reconciler.reconcile(req, ctx);
    expect(ready()).toMatchObject({
      status: 'False',
      reason: 'FailedReconciling',
      message: `Error while waiting for Bastion ${CONTROL_PLANE}/cli-abc to become ready: extension did not record a last operation yet`,
    });
    expect(deploys()).toBe(1);

    report({ lastOperation: lastOperation('Succeeded'), ingress: { ip: '172.18.255.10' } });
    await reconciler.reconcile(req, ctx);
    expect(ready()).toMatchObject({
      status: 'True',
      reason: 'SuccessfullyReconciled',
      message: 'The bastion has been reconciled successfully.',
    });
    expect(core()?.status).toMatchObject({ ingress: { ip: '172.18.255.10' }, observedGeneration: 1 });
    expect(deploys()).toBe(1);
  });

  it("reports the extension's error; a Failed extension Bastion is deployed again", async () => {
    const { seed, reconciler, report, ready } = setup();
    await reconciler.reconcile(req, ctx);
    report({ lastOperation: lastOperation('Error'), lastError: { description: 'no capacity' } });
    await reconciler.reconcile(req, ctx);
    expect(ready()).toMatchObject({
      status: 'False',
      reason: 'FailedReconciling',
      message: `Error while waiting for Bastion ${CONTROL_PLANE}/cli-abc to become ready: error during reconciliation: no capacity`,
    });
    expect(seed.calls.filter((c) => c.startsWith('apply'))).toHaveLength(1);

    report({ lastOperation: lastOperation('Failed') });
    await reconciler.reconcile(req, ctx);
    expect(ready()?.message).toContain('extension state is not Succeeded but Failed');
    expect(seed.calls.filter((c) => c.startsWith('apply'))).toHaveLength(2);
  });

  it('deploys again when the Bastion changed (its ingress)', async () => {
    const { garden, seed, reconciler, core, report, extension } = setup();
    await reconciler.reconcile(req, ctx);
    report({ lastOperation: lastOperation('Succeeded') });
    garden.put({ ...core()!, spec: { ...core()!.spec, ingress: [{ ipBlock: { cidr: '0.0.0.0/0' } }] } });
    await reconciler.reconcile(req, ctx);
    expect(seed.calls.filter((c) => c.startsWith('apply'))).toHaveLength(2);
    expect(extension()?.spec.ingress).toEqual([{ ipBlock: { cidr: '0.0.0.0/0' } }]);
  });

  it('reports a failed deployment in BastionReady and retries', async () => {
    const { seed, reconciler, ready } = setup();
    seed.failWrites = new ApiError(403, 'Forbidden', 'bastions.extensions.gardener.cloud is forbidden');
    await expect(reconciler.reconcile(req, ctx)).rejects.toThrow('failed to ensure bastion extension resource');
    expect(ready()).toMatchObject({ status: 'False', reason: 'FailedReconciling' });
    expect(ready()?.message).toContain('bastions.extensions.gardener.cloud is forbidden');
  });

  it('deletes the extension Bastion, waits until it is gone, then releases the finalizer', async () => {
    const { garden, seed, reconciler, core, extension, ready } = setup();
    await reconciler.reconcile(req, ctx);
    seed.put({
      ...extension()!,
      metadata: { ...extension()!.metadata, finalizers: ['extensions.gardener.cloud/local'] },
    });
    garden.put({ ...core()!, metadata: { ...core()!.metadata, deletionTimestamp: '2026-11-29T12:00:00Z' } });

    expect(await reconciler.reconcile(req, ctx)).toEqual({ requeueAfter: RequeueWhileDeleting });
    expect(ready()).toMatchObject({
      status: 'False',
      reason: 'DeletionInProgress',
      message: 'The bastion is being deleted.',
    });
    expect(extension()?.metadata?.deletionTimestamp).toBeDefined();
    // Bastions are not deletion-protected in the seed: no deletion confirmation.
    expect(extension()?.metadata?.annotations?.['confirmation.gardener.cloud/deletion']).toBeUndefined();
    expect(core()?.metadata?.finalizers).toEqual(['gardener']);

    seed.put({ ...extension()!, metadata: { ...extension()!.metadata, finalizers: [] } });
    seed.objects.delete(`Bastion/${CONTROL_PLANE}/cli-abc`);
    expect(await reconciler.reconcile(req, ctx)).toBeUndefined();
    expect(core()).toBeUndefined();
  });

  it('passes a forced deletion on to the extension Bastion', async () => {
    const { garden, seed, reconciler, core, extension } = setup();
    await reconciler.reconcile(req, ctx);
    seed.put({
      ...extension()!,
      metadata: { ...extension()!.metadata, finalizers: ['extensions.gardener.cloud/local'] },
    });
    garden.put({
      ...core()!,
      metadata: {
        ...core()!.metadata,
        deletionTimestamp: '2026-11-29T12:00:00Z',
        annotations: { 'confirmation.gardener.cloud/force-deletion': 'true' },
      },
    });
    await reconciler.reconcile(req, ctx);
    expect(extension()?.metadata?.annotations?.['confirmation.gardener.cloud/force-deletion']).toBe('true');
  });

  it('fails for a missing Shoot, and releases a deleted Bastion whose Shoot is gone', async () => {
    const { garden, reconciler, core } = setup();
    garden.objects.delete('Shoot/garden-p/s');
    await expect(reconciler.reconcile(req, ctx)).rejects.toThrow('could not get shoot garden-p/s');
    garden.put({
      ...core()!,
      metadata: { ...core()!.metadata, finalizers: ['gardener'], deletionTimestamp: '2026-11-29T12:00:00Z' },
    });
    await reconciler.reconcile(req, ctx);
    expect(core()).toBeUndefined();
  });
});
