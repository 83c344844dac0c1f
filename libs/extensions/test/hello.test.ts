// The sample "hello" extension (examples/hello) against the local API server with Gardener's extension CRDs: the
// extension contract end to end — operation annotation (reconcile / migrate / restore / none), migrate → restore of
// status.state into a new namespace, force deletion, lastOperation/lastError with progress and error codes, class
// filtering, failed shoots, the heartbeat Lease and health conditions. gardenlet's side is played by the test with
// Gardener's example Shoot, Seed and CloudProfile.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseManifests } from '@gardener-ts/api';
import {
  ApiClient,
  Kinds,
  Manager,
  isNotFound,
  kind,
  type KubernetesObject,
  type Lease,
} from '@gardener-ts/controller-runtime';
// eslint-disable-next-line @nx/enforce-module-boundaries -- by package name on purpose: the sample uses only the public API
import type { ClusterObject, ExtensionObject } from '@gardener-ts/extensions';
// eslint-disable-next-line @nx/enforce-module-boundaries -- by package name on purpose: the sample uses only the public API
import { clusterObject, extensionResource } from '@gardener-ts/extensions/testing';
import { gardenerAsset, startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { addHelloExtension } from '../examples/hello/add.js';
import { GreetingConfigMap, HelloServer, InUseAnnotation } from '../examples/hello/actuator.js';

const crd = (plural: string) => gardenerAsset('crds', `10-crd-extensions.gardener.cloud_${plural}.yaml`);
const example = (...path: string[]) =>
  parseManifests(readFileSync(gardenerAsset('examples', ...path), 'utf8'))[0] as Record<string, any>;
const ExtensionKind = kind<ExtensionObject>('extensions.gardener.cloud/v1alpha1', 'Extension');
const ClusterKind = kind<ClusterObject>('extensions.gardener.cloud/v1alpha1', 'Cluster');
const EXTENSION_NAMESPACE = 'extension-hello';
const FINALIZER = 'extensions.gardener.cloud/hello';

let env: TestEnvironment;
let client: ApiClient;
let mgr: Manager;
let counter = 0;

/** A shoot namespace and its Cluster, built from Gardener's example Shoot, Seed and CloudProfile. */
async function shootNamespace(change: (shoot: Record<string, any>) => void = () => undefined): Promise<string> {
  const namespace = `shoot--local--hello${++counter}`;
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const shoot = structuredClone(example('local', 'shoot.yaml'));
  shoot.metadata = { ...shoot.metadata, name: `hello${counter}`, generation: 1 };
  shoot.status = {
    lastOperation: {
      type: 'Reconcile',
      state: 'Processing',
      progress: 10,
      description: '',
      lastUpdateTime: '2026-01-01T00:00:00Z',
    },
    observedGeneration: 1,
  };
  change(shoot);
  await client.create(
    clusterObject(namespace, {
      shoot,
      seed: example('50-seed.yaml'),
      cloudProfile: example('local', 'cloudprofile.yaml'),
    }),
  );
  return namespace;
}

function hello(
  namespace: string,
  greeting: string,
  options: { operation?: string | undefined; class?: string } = { operation: 'reconcile' },
): ExtensionObject {
  const spec: ExtensionObject['spec'] = {
    type: 'hello',
    providerConfig: { greeting },
    ...(options.class ? { class: options.class } : {}),
  };
  return extensionResource('Extension', namespace, 'hello', spec, { operation: options.operation });
}

const get = (namespace: string) => client.get(ExtensionKind, { namespace, name: 'hello' });
const annotate = (namespace: string, operation: string) =>
  client.patch(
    ExtensionKind,
    { namespace, name: 'hello' },
    { type: 'merge', patch: { metadata: { annotations: { 'gardener.cloud/operation': operation } } } },
  );

/** Waits until the Extension's last operation is `type` in `state`. */
function lastOperation(namespace: string, type: string, state: string, timeoutMs = 60_000): Promise<ExtensionObject> {
  let seen: ExtensionObject | undefined;
  return waitFor(
    `Extension ${namespace}/hello to report ${type} ${state}`,
    async () => {
      const ext = (seen = await get(namespace));
      return ext.status?.lastOperation?.type === type && ext.status.lastOperation.state === state ? ext : undefined;
    },
    { timeoutMs },
  ).catch((err: Error) => {
    // What the object said last: which operation, state and generations it was stuck at.
    const { metadata, status } = seen ?? {};
    throw new Error(
      `${err.message}; last seen: generation ${metadata?.generation}, annotations ${JSON.stringify(metadata?.annotations ?? {})}, ` +
        `status ${JSON.stringify({ lastOperation: status?.lastOperation, lastError: status?.lastError, observedGeneration: status?.observedGeneration })}`,
    );
  });
}

/** The first version of the Extension written after `resourceVersion` that satisfies `done`, seen by a watch. */
async function firstWrite(
  namespace: string,
  resourceVersion: string,
  done: (ext: ExtensionObject) => boolean,
  timeoutMs = 60_000,
): Promise<ExtensionObject> {
  const abort = new AbortController();
  let last: ExtensionObject | undefined;
  let found: ExtensionObject | undefined;
  const watching = client
    .watch(ExtensionKind, { namespace, resourceVersion, signal: abort.signal }, (event) => {
      if (found || event.object.metadata?.name !== 'hello') return;
      last = event.object;
      if (done(event.object)) found = event.object;
    })
    .catch(() => undefined);
  try {
    return await waitFor(`a write of Extension ${namespace}/hello after ${resourceVersion}`, () => found, {
      timeoutMs,
    }).catch((err: Error) => {
      throw new Error(`${err.message}; last written: ${JSON.stringify(last?.status ?? {})}`);
    });
  } finally {
    abort.abort();
    await watching;
  }
}

/** An Extension that is asked to reconcile, reconciled: proof that the controller has handled the events before it. */
async function marker(): Promise<void> {
  const namespace = await shootNamespace();
  await client.create(hello(namespace, 'marker'));
  await lastOperation(namespace, 'Create', 'Succeeded');
}

const greetingOf = async (namespace: string) =>
  (await client.get(Kinds.ConfigMap, { namespace, name: GreetingConfigMap })).data;

beforeAll(async () => {
  env = await startTestEnvironment({ crds: [crd('clusters'), crd('extensions')] });
  client = await ApiClient.create(env.kubeconfigPath);
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: EXTENSION_NAMESPACE } });
  mgr = await Manager.create({
    clusters: {
      seed: {
        kubeConfig: env.kubeconfigPath,
        cache: { scopes: [{ kind: Kinds.Lease, scope: { namespace: EXTENSION_NAMESPACE } }] },
      },
    },
    gracefulShutdownTimeoutMs: 0,
  });
  addHelloExtension(mgr, { namespace: EXTENSION_NAMESPACE, healthSyncPeriodMs: 300, heartbeatRenewIntervalSeconds: 1 });
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  client?.close();
  await env?.stop();
});

// Each wait allows 60 s on a loaded machine; a test may hold two of them.
describe('the hello extension', { timeout: 150_000 }, () => {
  it('reconciles an Extension gardenlet asks for and removes the reconcile annotation at once', async () => {
    const namespace = await shootNamespace();
    await client.create(hello(namespace, 'Hello from the seed'));
    const ext = await lastOperation(namespace, 'Create', 'Succeeded');

    expect(ext.status?.lastOperation).toMatchObject({
      progress: 100,
      description: 'Successfully reconciled Extension',
    });
    expect(ext.status?.lastOperation?.lastUpdateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(ext.status?.observedGeneration).toBe(1);
    expect(ext.status?.lastError).toBeUndefined();
    expect(ext.metadata?.annotations?.['gardener.cloud/operation']).toBeUndefined();
    expect(ext.metadata?.finalizers).toEqual([FINALIZER]);
    expect(ext.status?.state).toMatchObject({ greeting: 'Hello from the seed' });
    expect(ext.status?.providerStatus).toEqual({ greeted: `hello${counter}` });
    expect(await greetingOf(namespace)).toMatchObject({ greeting: 'Hello from the seed' });
  });

  it('does not act on a spec change until gardenlet annotates it with reconcile', async () => {
    const namespace = await shootNamespace();
    await client.create(hello(namespace, 'first'));
    await lastOperation(namespace, 'Create', 'Succeeded');

    await client.patch(
      ExtensionKind,
      { namespace, name: 'hello' },
      { type: 'merge', patch: { spec: { providerConfig: { greeting: 'second' } } } },
    );
    await marker();
    const untouched = await get(namespace);
    expect(untouched.metadata?.generation).toBe(2);
    expect(untouched.status?.observedGeneration).toBe(1);
    expect(await greetingOf(namespace)).toMatchObject({ greeting: 'first' });

    await annotate(namespace, 'reconcile');
    const ext = await waitFor('generation 2 to be reconciled', async () => {
      const e = await get(namespace);
      return e.status?.observedGeneration === 2 && e.status.lastOperation?.state === 'Succeeded' ? e : undefined;
    });
    expect(ext.status?.lastOperation?.type).toBe('Reconcile');
    expect(ext.metadata?.annotations?.['gardener.cloud/operation']).toBeUndefined();
    expect(await greetingOf(namespace)).toMatchObject({ greeting: 'second' });
  });

  it('reports a bad providerConfig in lastError with ERR_CONFIGURATION_PROBLEM and clears it once fixed', async () => {
    const namespace = await shootNamespace();
    await client.create(hello(namespace, ''));
    const failed = await lastOperation(namespace, 'Create', 'Error');
    expect(failed.status?.lastOperation?.progress).toBe(50);
    expect(failed.status?.lastOperation?.description).toContain('Error reconciling Extension');
    expect(failed.status?.lastError?.description).toContain('spec.providerConfig.greeting');
    expect(failed.status?.lastError?.codes).toEqual(['ERR_CONFIGURATION_PROBLEM']);
    expect(failed.status?.observedGeneration).toBe(1);

    const patched = await client.patch(
      ExtensionKind,
      { namespace, name: 'hello' },
      {
        type: 'merge',
        patch: {
          metadata: { annotations: { 'gardener.cloud/operation': 'reconcile' } },
          spec: { providerConfig: { greeting: 'fixed' } },
        },
      },
    );
    // Every write after the fix, seen through a watch: a back-off retry of the failed Create that was already queued
    // may reconcile once more after the success (as in Gardener), so polling could miss the success that matters.
    const fixed = await firstWrite(
      namespace,
      patched.metadata?.resourceVersion ?? '',
      (e) => e.status?.observedGeneration === 2 && e.status.lastOperation?.state === 'Succeeded',
    );
    // A Create that failed continues as Create until it succeeds.
    expect(fixed.status?.lastOperation?.type).toBe('Create');
    expect(fixed.status?.lastError).toBeUndefined();
  });

  it('migrates, then restores status.state into a new namespace as gardenlet does on the new seed', async () => {
    const source = await shootNamespace();
    await client.create(hello(source, 'travelling'));
    const before = await lastOperation(source, 'Create', 'Succeeded');
    const state = before.status?.state as { greeting: string; since: string };

    await annotate(source, 'migrate');
    const migrated = await waitFor('the migrate annotation to be removed after success', async () => {
      const e = await get(source);
      return e.status?.lastOperation?.type === 'Migrate' &&
        e.status.lastOperation.state === 'Succeeded' &&
        !e.metadata?.annotations?.['gardener.cloud/operation']
        ? e
        : undefined;
    });
    expect(migrated.metadata?.finalizers ?? []).toEqual([]);
    expect(migrated.status?.state).toEqual(state);
    await expect(client.get(Kinds.ConfigMap, { namespace: source, name: GreetingConfigMap })).rejects.toSatisfy(
      isNotFound,
    );

    // A migrated object is left alone, even when asked to reconcile; its deletion needs no finalizer.
    await annotate(source, 'reconcile');
    await marker();
    expect((await get(source)).status?.lastOperation?.type).toBe('Migrate');

    // gardenlet on the new seed: create with wait-for-state, copy the state in, then ask for restore.
    const target = await shootNamespace();
    await client.create(hello(target, 'travelling', { operation: 'wait-for-state' }));
    await client.patch(
      ExtensionKind,
      { namespace: target, name: 'hello' },
      { type: 'merge', patch: { status: { state } } },
      { subresource: 'status' },
    );
    await marker();
    expect((await get(target)).status?.lastOperation).toBeUndefined();
    await annotate(target, 'restore');
    const restored = await waitFor('the restore annotation to be removed after success', async () => {
      const e = await get(target);
      return e.status?.lastOperation?.type === 'Restore' &&
        e.status.lastOperation.state === 'Succeeded' &&
        !e.metadata?.annotations?.['gardener.cloud/operation']
        ? e
        : undefined;
    });
    expect(restored.metadata?.finalizers).toEqual([FINALIZER]);
    expect(restored.status?.state).toEqual(state);
    expect(await greetingOf(target)).toEqual({ greeting: 'travelling', since: state.since });

    await client.delete(ExtensionKind, { namespace: source, name: 'hello' });
    await waitFor('the migrated Extension to be gone', () =>
      get(source).then(
        () => false,
        (err: unknown) => isNotFound(err),
      ),
    );
  });

  it('deletes normally, waits while in use, and force-deletes once the Shoot confirms force deletion', async () => {
    const namespace = await shootNamespace();
    await client.create(hello(namespace, 'bye'));
    await lastOperation(namespace, 'Create', 'Succeeded');
    await client.patch(
      Kinds.ConfigMap,
      { namespace, name: GreetingConfigMap },
      { type: 'merge', patch: { metadata: { annotations: { [InUseAnnotation]: 'true' } } } },
    );

    await client.delete(ExtensionKind, { namespace, name: 'hello' });
    const blocked = await lastOperation(namespace, 'Delete', 'Error');
    expect(blocked.status?.lastError?.description).toContain('still in use');
    expect(blocked.metadata?.finalizers).toEqual([FINALIZER]);

    const cluster = await client.get(ClusterKind, { name: namespace });
    const shoot = cluster.spec.shoot as Record<string, any>;
    shoot.metadata.annotations = {
      ...(shoot.metadata.annotations ?? {}),
      'confirmation.gardener.cloud/force-deletion': 'true',
    };
    await client.update(cluster);

    await waitFor('the force-deleted Extension to be gone', () =>
      get(namespace).then(
        () => false,
        (err: unknown) => isNotFound(err),
      ),
    );
    await expect(client.get(Kinds.ConfigMap, { namespace, name: GreetingConfigMap })).rejects.toSatisfy(isNotFound);
  });

  it('deletes what it created when an Extension without blockers is deleted', async () => {
    const namespace = await shootNamespace();
    await client.create(hello(namespace, 'short-lived'));
    await lastOperation(namespace, 'Create', 'Succeeded');
    await client.delete(ExtensionKind, { namespace, name: 'hello' });
    await waitFor('the Extension to be gone', () =>
      get(namespace).then(
        () => false,
        (err: unknown) => isNotFound(err),
      ),
    );
    await expect(client.get(Kinds.Deployment, { namespace, name: HelloServer })).rejects.toSatisfy(isNotFound);
  });

  it('leaves Extensions of another class and of failed shoots alone', async () => {
    const seedClass = await shootNamespace();
    await client.create(hello(seedClass, 'for the seed class', { operation: 'reconcile', class: 'seed' }));
    const failedShoot = await shootNamespace((shoot) => {
      shoot.status.lastOperation.state = 'Failed';
    });
    await client.create(hello(failedShoot, 'for a failed shoot'));
    await marker();
    for (const namespace of [seedClass, failedShoot]) {
      const ext = await get(namespace);
      expect(ext.status?.lastOperation).toBeUndefined();
      expect(ext.metadata?.finalizers).toBeUndefined();
    }
    // Not ours: untouched. A failed shoot's request is consumed (as Gardener's annotation wrapper does) without acting.
    expect((await get(seedClass)).metadata?.annotations?.['gardener.cloud/operation']).toBe('reconcile');
    expect((await get(failedShoot)).metadata?.annotations?.['gardener.cloud/operation']).toBeUndefined();
    await expect(client.get(Kinds.ConfigMap, { namespace: failedShoot, name: GreetingConfigMap })).rejects.toSatisfy(
      isNotFound,
    );
  });

  it('renews its heartbeat Lease', async () => {
    const read = () =>
      client.get(Kinds.Lease, {
        namespace: EXTENSION_NAMESPACE,
        name: 'gardener-extension-heartbeat',
      }) as Promise<Lease>;
    const first = await waitFor('the heartbeat Lease', () => read());
    expect(first.spec).toMatchObject({ holderIdentity: 'gardener-extension-hello', leaseDurationSeconds: 1 });
    const renewed = await waitFor('the heartbeat Lease to be renewed', async () => {
      const lease = await read();
      return lease.spec?.renewTime !== first.spec?.renewTime ? lease : undefined;
    });
    expect(Date.parse(renewed.spec!.renewTime!)).toBeGreaterThan(Date.parse(first.spec!.renewTime!));

    // Once per renew interval (1 s here), not again on its own write: 3 s see at most a handful of writes.
    let writes = 0;
    const abort = new AbortController();
    const watching = client
      .watch(
        Kinds.Lease,
        { namespace: EXTENSION_NAMESPACE, resourceVersion: renewed.metadata!.resourceVersion, signal: abort.signal },
        (event) => {
          if (event.type === 'MODIFIED' && event.object.metadata?.name === 'gardener-extension-heartbeat') writes++;
        },
      )
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    abort.abort();
    await watching;
    expect(writes).toBeGreaterThanOrEqual(1);
    expect(writes).toBeLessThanOrEqual(5);
  });

  it('reports a hibernated shoot as healthy without checking', async () => {
    const namespace = await shootNamespace((shoot) => {
      shoot.spec.hibernation = { enabled: true };
    });
    await client.create(hello(namespace, 'sleeping'));
    const condition = await waitFor('ControlPlaneHealthy of a hibernated shoot', async () =>
      (await get(namespace)).status?.conditions?.find((c) => c.type === 'ControlPlaneHealthy'),
    );
    expect(condition).toMatchObject({
      status: 'True',
      reason: 'HealthCheckSuccessful',
      message: 'Shoot is hibernated',
    });
  });

  it('reports the health of its Deployment as the ControlPlaneHealthy condition', async () => {
    const namespace = await shootNamespace();
    await client.create(hello(namespace, 'healthy?'));
    await lastOperation(namespace, 'Create', 'Succeeded');
    const condition = (status: string) =>
      waitFor(`ControlPlaneHealthy ${status}`, async () => {
        const c = (await get(namespace)).status?.conditions?.find((x) => x.type === 'ControlPlaneHealthy');
        return c?.status === status ? c : undefined;
      });

    const unhealthy = await condition('False');
    expect(unhealthy).toMatchObject({ reason: 'HealthCheckUnsuccessful' });
    expect(unhealthy.message).toContain(`Deployment "${HelloServer}"`);

    // What the deployment controller would report once the server runs.
    const deployment = (await client.get(Kinds.Deployment, { namespace, name: HelloServer })) as KubernetesObject;
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    await client.patch(
      Kinds.Deployment,
      { namespace, name: HelloServer },
      {
        type: 'merge',
        patch: {
          status: {
            observedGeneration: deployment.metadata?.generation,
            replicas: 1,
            readyReplicas: 1,
            availableReplicas: 1,
            updatedReplicas: 1,
            conditions: [
              {
                type: 'Available',
                status: 'True',
                reason: 'MinimumReplicasAvailable',
                message: 'ok',
                lastUpdateTime: now,
                lastTransitionTime: now,
              },
            ],
          },
        },
      },
      { subresource: 'status' },
    );
    const healthy = await condition('True');
    expect(healthy).toMatchObject({ reason: 'HealthCheckSuccessful', message: 'All health checks successful' });
  });
});
