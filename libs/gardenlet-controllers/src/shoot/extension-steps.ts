// The shoot's Extension resources in the flows (Gardener's `pkg/component/extensions/extension` as the botanist
// configures it): one Extension per type the shoot needs — the types ControllerRegistrations enable for every shoot
// (`autoEnable: [shoot]`, or the older `globallyEnabled`) and the shoot's `spec.extensions`, minus the disabled ones;
// for a workerless shoot only types that declare `workerlessSupported`. Each is deployed and waited for in its
// registration's lifecycle phase (reconcile: AfterKubeAPIServer unless the registration says otherwise), Extensions of
// types no longer needed are deleted as stale, and the delete flow deletes them before or after kube-apiserver
// (BeforeKubeAPIServer unless the registration says otherwise). Extensions of the shoot have no class (`shoot`).
import type { corev1beta1, Shoot } from '@gardener-ts/api';
import { kind, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { renderExtensions } from '../component/extensions.js';
import { isWorkerless, type ShootValues } from '../component/values.js';
import { ExtensionResources, type ExtensionKey, type WaitOptions } from './extension-resources.js';

/** When in a flow an Extension is reconciled or deleted. */
export type LifecyclePhase = 'BeforeKubeAPIServer' | 'AfterKubeAPIServer' | 'AfterWorker';

/** The lifecycle of one Extension type. */
export interface ExtensionLifecycle {
  readonly reconcile: LifecyclePhase;
  readonly delete: LifecyclePhase;
}

/** What the steps know of the ControllerRegistrations: per Extension type its lifecycle, and the types for shoots. */
export interface ExtensionRegistrations {
  readonly lifecycles: ReadonlyMap<string, ExtensionLifecycle>;
  /** Types enabled for every shoot. */
  readonly autoEnabled: readonly string[];
  /** Types that may run for workerless shoots. */
  readonly workerless: ReadonlySet<string>;
}

/** Reads the Extension resources of ControllerRegistrations (pure); Gardener's lifecycle defaults where unset. */
export function extensionRegistrations(
  registrations: readonly corev1beta1.ControllerRegistration[],
): ExtensionRegistrations {
  const lifecycles = new Map<string, ExtensionLifecycle>();
  const autoEnabled = new Set<string>();
  const workerless = new Set<string>();
  for (const registration of registrations) {
    for (const resource of registration.spec.resources ?? []) {
      if (resource.kind !== 'Extension') continue;
      lifecycles.set(resource.type, {
        reconcile: resource.lifecycle?.reconcile ?? 'AfterKubeAPIServer',
        delete: resource.lifecycle?.delete ?? 'BeforeKubeAPIServer',
      });
      if (resource.globallyEnabled === true || resource.autoEnable?.includes('shoot')) autoEnabled.add(resource.type);
      if (resource.workerlessSupported === true) workerless.add(resource.type);
    }
  }
  return { lifecycles, autoEnabled: [...autoEnabled].sort(), workerless };
}

/**
 * The Extension types a shoot needs (pure): auto-enabled and its own, minus the disabled ones; a workerless shoot only
 * gets types that support it. Throws when the shoot names a type no registration serves (it would never be handled).
 */
export function wantedExtensionTypes(shoot: Shoot, registrations: ExtensionRegistrations): string[] {
  const { types, unserved } = neededTypes(shoot, registrations);
  if (unserved.length > 0) {
    throw new Error(
      `Shoot ${shoot.metadata?.namespace}/${shoot.metadata?.name} needs Extension type(s) ${unserved.join(', ')}, which no ControllerRegistration serves`,
    );
  }
  return types;
}

// The types a shoot needs, and those of them no registration serves (deleting stale Extensions must not fail on these).
function neededTypes(shoot: Shoot, registrations: ExtensionRegistrations): { types: string[]; unserved: string[] } {
  const types = new Set(registrations.autoEnabled);
  for (const extension of shoot.spec.extensions ?? []) {
    if (extension.disabled === true) types.delete(extension.type);
    else types.add(extension.type);
  }
  const unserved = [...types].filter((type) => !registrations.lifecycles.has(type));
  const workerless = isWorkerless(shoot);
  return { types: [...types].filter((type) => !workerless || registrations.workerless.has(type)).sort(), unserved };
}

const ExtensionKind = kind<KubernetesObject & { spec?: { type?: string; class?: string } }>(
  'extensions.gardener.cloud/v1alpha1',
  'Extension',
);

/** The Extension steps of one flow run (it remembers the time of each reconcile request for the waits). */
export class ExtensionSteps {
  private readonly requests = new Map<string, string>();
  private readonly resources: ExtensionResources;

  constructor(
    private readonly seed: Pick<Client, 'get' | 'list' | 'patch' | 'delete'>,
    private readonly values: ShootValues,
    private readonly registrations: ExtensionRegistrations,
    private readonly options: { now?: () => Date; wait?: Omit<WaitOptions, 'signal'> } = {},
  ) {
    this.resources = new ExtensionResources(seed);
  }

  private get namespace(): string {
    return this.values.namespace;
  }

  private lifecycleOf(type: string): ExtensionLifecycle {
    return (
      this.registrations.lifecycles.get(type) ?? { reconcile: 'AfterKubeAPIServer', delete: 'BeforeKubeAPIServer' }
    );
  }

  private key(type: string): ExtensionKey {
    return { kind: 'Extension', name: type, namespace: this.namespace };
  }

  /** "Deploying extension resources ...": the wanted Extensions reconciled in `phase`, with a new reconcile request. */
  async deploy(phase: LifecyclePhase): Promise<void> {
    const now = (this.options.now?.() ?? new Date()).toISOString();
    const wanted = new Set(wantedExtensionTypes(this.values.shoot as Shoot, this.registrations));
    const extensions = renderExtensions(this.values, {
      now,
      autoEnabledExtensionTypes: this.registrations.autoEnabled,
    });
    for (const extension of extensions) {
      const type = extension.spec.type;
      if (!wanted.has(type) || this.lifecycleOf(type).reconcile !== phase) continue;
      this.requests.set(type, now);
      await this.resources.deploy(extension as unknown as KubernetesObject);
    }
  }

  /** "Waiting until extension resources handled ... are ready": each reconciled in `phase` has handled its request. */
  async waitUntilReady(phase: LifecyclePhase, signal: AbortSignal): Promise<void> {
    for (const type of wantedExtensionTypes(this.values.shoot as Shoot, this.registrations)) {
      if (this.lifecycleOf(type).reconcile !== phase) continue;
      await this.resources.waitUntilReady(this.key(type), this.requests.get(type), { ...this.options.wait, signal });
    }
  }

  // The shoot's Extensions in the control plane namespace (class unset or `shoot`), by type.
  private async existing(): Promise<string[]> {
    const list = await this.seed.list(ExtensionKind, { namespace: this.namespace });
    return list.items
      .filter((e) => !e.spec?.class || e.spec.class === 'shoot')
      .map((e) => e.metadata?.name ?? '')
      .filter(Boolean);
  }

  private async stale(): Promise<string[]> {
    const wanted = new Set(neededTypes(this.values.shoot as Shoot, this.registrations).types);
    return (await this.existing()).filter((name) => !wanted.has(name));
  }

  /** "Deleting stale extension resources": Extensions of types the shoot no longer needs. */
  async deleteStale(): Promise<void> {
    for (const name of await this.stale()) await this.resources.destroy(this.key(name));
  }

  /** "Waiting until stale extension resources are deleted". */
  async waitUntilStaleDeleted(signal: AbortSignal): Promise<void> {
    for (const name of await this.stale()) {
      await this.resources.waitUntilDeleted(this.key(name), { ...this.options.wait, signal });
    }
  }

  // The existing Extensions deleted in `phase` (every one when `phase` is undefined).
  private async deletedIn(phase: LifecyclePhase | undefined): Promise<string[]> {
    return (await this.existing()).filter((name) => !phase || this.lifecycleOf(name).delete === phase);
  }

  /** "Deleting extension resources before/after kube-apiserver". */
  async destroy(phase: LifecyclePhase): Promise<void> {
    for (const name of await this.deletedIn(phase)) await this.resources.destroy(this.key(name));
  }

  /** "Waiting until extension resources that should be handled ... have been deleted" (all of them without `phase`). */
  async waitUntilDeleted(phase: LifecyclePhase | undefined, signal: AbortSignal): Promise<void> {
    for (const name of await this.deletedIn(phase)) {
      await this.resources.waitUntilDeleted(this.key(name), { ...this.options.wait, signal });
    }
  }
}
