// Deploying an extension resource and waiting for its extension (Gardener's `pkg/component/extensions` helpers
// `DeployExtensionObject`, `WaitUntilExtensionObjectReady`, `DeleteExtensionObject`, `WaitUntilExtensionObjectDeleted`):
// a pure readiness check of the object's status against the reconcile request the gardenlet made, and a thin shell
// that applies, waits (a watch of the object and polls besides) and deletes through a controller-runtime client.
import { Annotations } from '@gardener-ts/api';
import { gvkOf, isNotFound, kind, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { waitForObject, type ObjectWaitClient, type WaitSubject } from './poll.js';

/** The status fields of an extension resource the gardenlet reads. */
interface ExtensionStatusView {
  observedGeneration?: number;
  lastOperation?: { state?: string; lastUpdateTime?: string; description?: string; type?: string };
  lastError?: { description?: string; codes?: string[] };
}

/** Where an extension resource stands with respect to the reconcile request of `expectedTimestamp`. */
export type ExtensionReadiness =
  { readonly ready: true } | { readonly ready: false; readonly reason: string; readonly lastError?: string };

/**
 * Whether an extension has handled the object (Gardener's `health.CheckExtensionObject` plus the timestamp checks of
 * `WaitUntilExtensionObjectReady`): the operation annotation was picked up, the latest generation observed, the last
 * operation `Succeeded` and updated no earlier than the request's `gardener.cloud/timestamp`.
 */
export function extensionReadiness(
  obj: KubernetesObject & { status?: unknown },
  expectedTimestamp?: string,
): ExtensionReadiness {
  const name = `${obj.kind} ${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata?.name}`;
  const status = (obj.status ?? {}) as ExtensionStatusView;
  const lastError = status.lastError?.description;
  const notReady = (reason: string): ExtensionReadiness => ({
    ready: false,
    reason: `${name}: ${reason}`,
    ...(lastError ? { lastError } : {}),
  });
  const annotations = obj.metadata?.annotations ?? {};
  if (expectedTimestamp !== undefined && annotations[Annotations.GardenerTimestamp] !== expectedTimestamp) {
    return notReady(`annotation ${Annotations.GardenerTimestamp} is not ${expectedTimestamp} yet`);
  }
  if (annotations[Annotations.GardenerOperation] !== undefined) {
    return notReady(`the extension has not picked up the ${annotations[Annotations.GardenerOperation]} request yet`);
  }
  if ((status.observedGeneration ?? 0) < (obj.metadata?.generation ?? 0)) {
    return notReady(
      `observed generation ${status.observedGeneration ?? 0} is behind generation ${obj.metadata?.generation}`,
    );
  }
  const last = status.lastOperation;
  if (!last) return notReady('no last operation yet');
  if (last.state !== 'Succeeded') {
    return notReady(
      `last operation ${last.type ?? ''} is ${last.state}${last.description ? `: ${last.description}` : ''}`,
    );
  }
  if (
    expectedTimestamp !== undefined &&
    last.lastUpdateTime &&
    Date.parse(last.lastUpdateTime) < Date.parse(expectedTimestamp) - 1000
  ) {
    return notReady(`last operation was updated before the request at ${expectedTimestamp}`);
  }
  return { ready: true };
}

/** Polling of the waits; Gardener waits up to a few minutes per extension resource. */
export interface WaitOptions {
  readonly signal?: AbortSignal;
  /** Between two reads, milliseconds (default 2000). */
  readonly interval?: number;
  /** Overall, milliseconds (default 180000). */
  readonly timeout?: number;
}

/** A key of an extension resource. */
export interface ExtensionKey {
  readonly apiVersion?: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

function kindOfKey(key: ExtensionKey) {
  return kind(key.apiVersion ?? 'extensions.gardener.cloud/v1alpha1', key.kind);
}

function describeKey(key: ExtensionKey): string {
  return `${key.kind} ${key.namespace ? `${key.namespace}/` : ''}${key.name}`;
}

/** The field manager of the gardenlet's server-side applies. */
export const GardenletFieldManager = 'gardenlet';

/** Deploys, waits for and deletes extension resources in the seed. */
export class ExtensionResources {
  /** Over a seed client with get, patch and delete, and watch for the waits when it has it. */
  constructor(private readonly client: Pick<Client, 'get' | 'patch' | 'delete'> & ObjectWaitClient) {}

  /** Server-side applies a rendered object as the gardenlet (extension resources carry their reconcile request). */
  async deploy<T extends KubernetesObject>(obj: T): Promise<T> {
    try {
      const key = { name: obj.metadata?.name ?? '', namespace: obj.metadata?.namespace };
      const patch = obj as unknown as Record<string, unknown>;
      return (await this.client.patch(kind<T>(obj.apiVersion ?? '', obj.kind ?? ''), key, {
        type: 'apply',
        patch,
        fieldManager: GardenletFieldManager,
        force: true,
      })) as T;
    } catch (err) {
      throw new Error(`deploying ${obj.kind} ${obj.metadata?.namespace}/${obj.metadata?.name} failed`, { cause: err });
    }
  }

  /**
   * Waits until the extension has handled the request of `expectedTimestamp` (watching the object when the client
   * can, polling besides); on timeout the error names the object, why it is not ready, and the extension's last error.
   */
  async waitUntilReady(key: ExtensionKey, expectedTimestamp?: string, options: WaitOptions = {}): Promise<void> {
    await this.waitFor(key, options, `${describeKey(key)} is not ready`, (obj) => {
      if (!obj) return `${describeKey(key)} does not exist`;
      const readiness = extensionReadiness(obj, expectedTimestamp);
      if (readiness.ready) return undefined;
      return `${readiness.reason}${readiness.lastError ? ` (last error: ${readiness.lastError})` : ''}`;
    });
  }

  /** Confirms the deletion (`confirmation.gardener.cloud/deletion=true`, which the seed's webhook demands) and deletes. */
  async destroy(key: ExtensionKey): Promise<void> {
    const kindOf = kindOfKey(key);
    try {
      await this.client.patch(
        kindOf,
        { name: key.name, namespace: key.namespace },
        { type: 'merge', patch: { metadata: { annotations: { [Annotations.ConfirmationDeletion]: 'true' } } } },
      );
      await this.client.delete(kindOf, { name: key.name, namespace: key.namespace });
    } catch (err) {
      if (isNotFound(err)) return;
      throw new Error(`deleting ${describeKey(key)} failed`, { cause: err });
    }
  }

  /** Waits until the object is gone; on timeout the error carries the extension's last error. */
  async waitUntilDeleted(key: ExtensionKey, options: WaitOptions = {}): Promise<void> {
    await this.waitFor(
      key,
      options,
      (lastError) => `${describeKey(key)} is not deleted yet${lastError ? ` (last error: ${lastError})` : ''}`,
      // The reason is the extension's last error, '' without one.
      (obj) => (obj ? ((obj as { status?: ExtensionStatusView }).status?.lastError?.description ?? '') : undefined),
    );
  }

  private async waitFor(
    key: ExtensionKey,
    options: WaitOptions,
    what: WaitSubject,
    notReady: (obj: (KubernetesObject & { status?: unknown }) | undefined) => string | undefined,
  ): Promise<void> {
    await waitForObject(
      this.client,
      kindOfKey(key),
      { name: key.name, namespace: key.namespace },
      notReady,
      { interval: options.interval ?? 2000, timeout: options.timeout ?? 180_000 },
      options.signal ?? new AbortController().signal,
      what,
    );
  }
}

/** The key of a rendered extension resource. */
export function extensionKeyOf(obj: KubernetesObject): ExtensionKey {
  const gvk = gvkOf(obj);
  return {
    apiVersion: obj.apiVersion,
    kind: gvk.kind,
    name: obj.metadata?.name ?? '',
    ...(obj.metadata?.namespace ? { namespace: obj.metadata.namespace } : {}),
  };
}
