// The shoot's ContainerRuntime resources in the flows (Gardener's `pkg/component/extensions/containerruntime`): one
// per `cri.containerRuntimes` entry of each worker pool, named `<type>-<pool>`, deployed with a reconcile request and
// waited for; those of entries no longer configured are deleted as stale, and the delete flow deletes them all. A
// type no ControllerRegistration serves fails the deploy step naming it (no extension would ever handle it).
import { kind, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { containerRuntimeName, renderContainerRuntimes } from '../component/extensions.js';
import type { ShootValues } from '../component/values.js';
import { ExtensionResources, type WaitOptions } from './extension-resources.js';

const ContainerRuntimeKind = kind<KubernetesObject>('extensions.gardener.cloud/v1alpha1', 'ContainerRuntime');

/** The names of the ContainerRuntime resources the shoot's pools want (pure). */
export function wantedContainerRuntimeNames(values: Pick<ShootValues, 'shoot'>): Set<string> {
  return new Set(
    (values.shoot.spec.provider.workers ?? []).flatMap((pool) =>
      (pool.cri?.containerRuntimes ?? []).map((runtime) => containerRuntimeName(runtime.type, pool.name)),
    ),
  );
}

/** The ContainerRuntime steps of one flow run (it remembers the time of each reconcile request for the waits). */
export class ContainerRuntimeSteps {
  private readonly requests = new Map<string, string>();
  private readonly resources: ExtensionResources;

  constructor(
    private readonly seed: Pick<Client, 'get' | 'list' | 'patch' | 'delete'>,
    private readonly values: ShootValues,
    /** Whether a ControllerRegistration serves ContainerRuntime of a type. */
    private readonly served: (type: string) => boolean,
    private readonly options: { now?: () => Date; wait?: Omit<WaitOptions, 'signal'> } = {},
  ) {
    this.resources = new ExtensionResources(seed);
  }

  private key(name: string) {
    return { kind: 'ContainerRuntime', name, namespace: this.values.namespace };
  }

  /** "Deploying container runtime resources". */
  async deploy(): Promise<void> {
    const now = (this.options.now?.() ?? new Date()).toISOString();
    const runtimes = renderContainerRuntimes(this.values, { now });
    const unserved = [...new Set(runtimes.map((r) => r.spec.type).filter((type) => !this.served(type)))];
    if (unserved.length > 0) {
      const shoot = this.values.shoot.metadata;
      throw new Error(
        `Shoot ${shoot?.namespace}/${shoot?.name} needs ContainerRuntime type(s) ${unserved.join(', ')}, which no ControllerRegistration serves`,
      );
    }
    await Promise.all(
      runtimes.map(async (runtime) => {
        this.requests.set(runtime.metadata?.name ?? '', now);
        await this.resources.deploy(runtime as unknown as KubernetesObject);
      }),
    );
  }

  /** "Waiting until container runtime resources are ready": each has handled this run's request. */
  async waitUntilReady(signal: AbortSignal): Promise<void> {
    await Promise.all(
      [...wantedContainerRuntimeNames(this.values)].map((name) =>
        this.resources.waitUntilReady(this.key(name), this.requests.get(name), { ...this.options.wait, signal }),
      ),
    );
  }

  // The shoot's ContainerRuntime resources that `keep` does not keep.
  private async others(keep: Set<string>): Promise<string[]> {
    const list = await this.seed.list(ContainerRuntimeKind, { namespace: this.values.namespace });
    return list.items.map((r) => r.metadata?.name ?? '').filter((name) => name && !keep.has(name));
  }

  /** "Deleting stale container runtime resources" (every one with `all`, for the delete flow). */
  async destroy(all = false): Promise<void> {
    const names = await this.others(all ? new Set() : wantedContainerRuntimeNames(this.values));
    await Promise.all(names.map((name) => this.resources.destroy(this.key(name))));
  }

  /** "Waiting until stale container runtime resources are deleted" (every one with `all`). */
  async waitUntilDeleted(signal: AbortSignal, all = false): Promise<void> {
    const names = await this.others(all ? new Set() : wantedContainerRuntimeNames(this.values));
    await Promise.all(
      names.map((name) => this.resources.waitUntilDeleted(this.key(name), { ...this.options.wait, signal })),
    );
  }
}
