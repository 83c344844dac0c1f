import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ApiError, type Client, type KubernetesObject, type Secret } from '@gardener-ts/controller-runtime';
import { RequeueAfterError, type ActuatorContext, type ExtensionObject } from '@gardener-ts/extensions';
import { createLogger } from '@gardener-ts/logging';
import { shootWebhookConfiguration } from '../../webhook/configurations.js';
import { ControlPlaneActuator } from './actuator.js';

const namespace = 'shoot--local--local';
const controlPlane: ExtensionObject = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'ControlPlane',
  metadata: { name: 'local', namespace },
  spec: { type: 'local', region: 'local', secretRef: { name: 'cloudprovider', namespace } },
};

/** A client over a map of objects ("Kind/name"), recording every write. */
function fakeClient(objects: Map<string, KubernetesObject>) {
  const writes: string[] = [];
  const notFound = () => new ApiError(404, 'NotFound', 'not found');
  const client = {
    get: async (kind: { kind: string }, key: { name: string }) => {
      const obj = objects.get(`${kind.kind}/${key.name}`);
      if (!obj) throw notFound();
      return obj;
    },
    patch: async (kind: { kind: string }, key: { name: string }, patch: { type: string; patch: KubernetesObject }) => {
      writes.push(`${patch.type} ${kind.kind}/${key.name}`);
      if (patch.type === 'apply') objects.set(`${kind.kind}/${key.name}`, patch.patch);
      else if (!objects.has(`${kind.kind}/${key.name}`)) throw notFound();
      return patch.patch;
    },
    delete: async (kind: { kind: string }, key: { name: string }) => {
      writes.push(`delete ${kind.kind}/${key.name}`);
      if (!objects.delete(`${kind.kind}/${key.name}`)) throw notFound();
    },
  } as unknown as Client;
  return { client, writes };
}

const context = (client: Client): ActuatorContext => ({
  client,
  log: createLogger({ name: 'test', level: 'silent' }),
  signal: new AbortController().signal,
});

describe('ControlPlaneActuator', () => {
  it('writes the Secret before the ManagedResource and tells that the provisioner is left out', async () => {
    const { client, writes } = fakeClient(new Map());
    const events: string[] = [];
    const actuator = new ControlPlaneActuator({
      events: { event: (obj, type, reason) => void events.push(`${obj.kind} ${type} ${reason}`) },
    });
    await actuator.reconcile(context(client), controlPlane);
    expect(writes).toEqual([
      'apply Secret/extension-controlplane-storageclasses',
      'apply ManagedResource/extension-controlplane-storageclasses',
    ]);
    expect(events).toEqual(['ControlPlane Normal LocalPathProvisionerNotDeployed']);
  });

  it('waits on deletion until the ManagedResource is gone, and only then deletes its Secret', async () => {
    const objects = new Map<string, KubernetesObject>();
    const { client, writes } = fakeClient(objects);
    const actuator = new ControlPlaneActuator({ deletionPollMs: 1234 });
    await actuator.reconcile(context(client), controlPlane);
    writes.length = 0;

    // The shoot's resource manager holds the ManagedResource (its finalizer) while it deletes the StorageClass.
    const held = objects.get('ManagedResource/extension-controlplane-storageclasses')!;
    const apiReader = { get: async () => held, list: async () => ({ items: [held] }) } as unknown as Client;
    const waiting = new ControlPlaneActuator({ apiReader, deletionPollMs: 1234 });
    const err = await waiting.delete(context(client), controlPlane).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequeueAfterError);
    expect((err as RequeueAfterError).requeueAfterMs).toBe(1234);
    expect((err as Error).message).toMatch(/waiting for ManagedResource shoot--local--local\/extension-controlplane/);
    expect(objects.has('Secret/extension-controlplane-storageclasses')).toBe(true);

    await actuator.delete(context(client), controlPlane);
    expect(objects.size).toBe(0);
    // Deleting again (a retry) finds nothing and succeeds.
    await actuator.delete(context(client), controlPlane);
  });

  it('keeps the StorageClass in the shoot when the shoot migrates', async () => {
    const { client, writes } = fakeClient(new Map());
    const actuator = new ControlPlaneActuator();
    await actuator.reconcile(context(client), controlPlane);
    writes.length = 0;
    await actuator.migrate(context(client), controlPlane);
    expect(writes).toEqual([
      'merge ManagedResource/extension-controlplane-storageclasses',
      'merge ManagedResource/extension-controlplane-shoot-webhooks',
      'delete ManagedResource/extension-controlplane-storageclasses',
      'delete ManagedResource/extension-controlplane-shoot-webhooks',
      'delete Secret/extension-controlplane-storageclasses',
      'delete Secret/managedresource-extension-controlplane-shoot-webhooks',
    ]);
  });

  it("deploys the shoot's webhook configuration through a ManagedResource when provider-local serves webhooks", async () => {
    const objects = new Map<string, KubernetesObject>();
    const { client, writes } = fakeClient(objects);
    const configuration = shootWebhookConfiguration('extension-provider-local-x1y2z', 'CA');
    const actuator = new ControlPlaneActuator({ shootWebhookConfiguration: () => configuration });
    await actuator.reconcile(context(client), controlPlane);
    expect(writes).toEqual([
      'apply Secret/extension-controlplane-storageclasses',
      'apply ManagedResource/extension-controlplane-storageclasses',
      'apply Secret/managedresource-extension-controlplane-shoot-webhooks',
      'apply ManagedResource/extension-controlplane-shoot-webhooks',
    ]);
    expect(objects.get('ManagedResource/extension-controlplane-shoot-webhooks')).toMatchObject({
      metadata: { namespace },
      spec: { secretRefs: [{ name: 'managedresource-extension-controlplane-shoot-webhooks' }] },
    });
    const secret = objects.get('Secret/managedresource-extension-controlplane-shoot-webhooks') as Secret;
    const [content] = Object.values(secret.data ?? {});
    expect(parse(Buffer.from(content!, 'base64').toString())).toEqual(configuration);

    // Deletion waits for both ManagedResources and then removes both Secrets.
    await actuator.delete(context(client), controlPlane);
    expect(objects.size).toBe(0);
  });

  it('deploys no webhook configuration before the webhook server has its CA', async () => {
    const { client, writes } = fakeClient(new Map());
    await new ControlPlaneActuator({ shootWebhookConfiguration: () => undefined }).reconcile(
      context(client),
      controlPlane,
    );
    expect(writes).toEqual([
      'apply Secret/extension-controlplane-storageclasses',
      'apply ManagedResource/extension-controlplane-storageclasses',
    ]);
  });
});
