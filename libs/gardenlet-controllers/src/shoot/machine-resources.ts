// The migrate flow's "Shallow-deleting machine resources from the Shoot namespace" and "Waiting until machine resources
// have been deleted" (Gardener's `Botanist.ShallowDeleteMachineResources` and `WaitUntilMachineResourcesDeleted`):
// after the ShootState kept the machine state, the machine objects of the control plane namespace are released — the
// machine-controller-manager finalizers removed — and deleted, so their VMs and the shoot's Nodes stay (the destination
// seed recreates the objects from the ShootState). The `cloudprovider` Secret only loses the finalizers.
import {
  Kinds,
  NoKindMatchError,
  apiVersionOf,
  ignoreNotFound,
  isNotFound,
  kind,
  removeFinalizer,
  type Client,
  type Kind,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import { pollUntil, type BotanistWait } from './poll.js';

/** machine-controller-manager's finalizers (its controller and its machine controller). */
export const MachineControllerManagerFinalizers = [
  'machine.sapcloud.io/machine-controller-manager',
  'machine.sapcloud.io/machine-controller',
] as const;

const machineKind = (name: string) => kind<KubernetesObject>('machine.sapcloud.io/v1alpha1', name);

/** The kinds released, in Gardener's order, with the label selector and whether the objects are kept. */
const MachineResources: { kind: Kind<KubernetesObject>; labelSelector?: Record<string, string>; keep?: boolean }[] = [
  { kind: machineKind('Machine') },
  { kind: machineKind('MachineSet') },
  { kind: machineKind('MachineDeployment') },
  { kind: machineKind('MachineClass') },
  { kind: Kinds.Secret as Kind<KubernetesObject>, labelSelector: { 'gardener.cloud/purpose': 'machineclass' } },
  {
    kind: Kinds.Secret as Kind<KubernetesObject>,
    labelSelector: { 'gardener.cloud/purpose': 'cloudprovider' },
    keep: true,
  },
];

async function listOrNone(
  seed: Pick<Client, 'list'>,
  k: Kind<KubernetesObject>,
  namespace: string,
  labelSelector?: Record<string, string>,
): Promise<KubernetesObject[]> {
  try {
    return (await seed.list(k, { namespace, ...(labelSelector ? { labelSelector } : {}) })).items;
  } catch (err) {
    // A seed without the machine API has no machine objects.
    if (err instanceof NoKindMatchError || isNotFound(err)) return [];
    throw err;
  }
}

/** Removes machine-controller-manager's finalizers from every machine object of the namespace and deletes it. */
export async function shallowDeleteMachineResources(
  seed: Pick<Client, 'list' | 'get' | 'patch' | 'delete'>,
  namespace: string,
): Promise<void> {
  for (const { kind: k, labelSelector, keep } of MachineResources) {
    for (const item of await listOrNone(seed, k, namespace, labelSelector)) {
      const obj = { ...item, apiVersion: apiVersionOf(k), kind: k.kind };
      const name = obj.metadata?.name ?? '';
      try {
        let current = obj;
        for (const finalizer of MachineControllerManagerFinalizers) {
          current = await removeFinalizer(seed, current, finalizer);
        }
        if (!keep) await seed.delete(k, { namespace, name }).catch(ignoreNotFound);
      } catch (err) {
        throw new Error(`failed to remove machine-controller-manager finalizers from ${k.kind} ${namespace}/${name}`, {
          cause: err,
        });
      }
    }
  }
}

/** Waits until no Machine, MachineSet, MachineDeployment, MachineClass or MachineClass Secret is left. */
export async function waitUntilMachineResourcesDeleted(
  seed: Pick<Client, 'list'>,
  namespace: string,
  wait: BotanistWait,
  signal: AbortSignal,
): Promise<void> {
  await pollUntil(
    'machine resources are deleted',
    async () => {
      const left: string[] = [];
      for (const { kind: k, labelSelector, keep } of MachineResources) {
        if (keep) continue;
        const items = await listOrNone(seed, k, namespace, labelSelector);
        if (items.length > 0) left.push(`${items.length} ${k.kind}(s)`);
      }
      return left.length > 0 ? `still there: ${left.join(', ')}` : undefined;
    },
    wait,
    signal,
  );
}
