// The restore half of a control plane migration in the destination seed (Gardener's
// `restoreSecretsFromShootStateForSecretsManagerAdoption` and `RestoreExtensionWithDeployFunction`): the persisted
// secrets of the ShootState are created before the secrets manager runs, so it adopts them instead of generating new
// CAs and keys; every extension resource the flow deploys is first written with `gardener.cloud/operation=wait-for-state`
// (its extension leaves it alone), gets its `status.state`/`status.resources` from the ShootState and the objects they
// reference, and only then is annotated `restore` — keeping the flow's `gardener.cloud/timestamp`, so the flow's waits
// see the extension's Restore answer that request. The shoot's Worker also gets the ShootState's machine state in its
// `status.state` (`machineDeployments`, see ./shootstate-machines.ts): its extension recreates the machines from it.
import { Annotations, Operations } from '@gardener-ts/api';
import { isAlreadyExists, kind, type Client, type Kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { extensionStateFor, persistedSecretsOf, referencedObjectsFor, type ShootStateSpec } from './shootstate.js';
import { machineStateFrom, workerRestoreState } from './shootstate-machines.js';

/** The API group of extension resources. */
const ExtensionsGroup = 'extensions.gardener.cloud';

type SeedClient = Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'>;

/**
 * Creates the ShootState's persisted secrets in the control plane namespace; one that exists already (a restore that
 * is retried) is kept.
 */
export async function restorePersistedSecrets(
  seed: Pick<Client, 'create'>,
  spec: ShootStateSpec | undefined,
  namespace: string,
): Promise<number> {
  const secrets = persistedSecretsOf(spec, namespace);
  for (const secret of secrets) {
    try {
      await seed.create(secret);
    } catch (err) {
      if (isAlreadyExists(err)) continue;
      throw new Error(`restoring secret ${namespace}/${secret.metadata?.name} from the ShootState failed`, {
        cause: err,
      });
    }
  }
  return secrets.length;
}

/** Creates an object kept in the ShootState again, or overwrites it with the kept content. */
async function createOrReplace(seed: SeedClient, obj: KubernetesObject): Promise<void> {
  try {
    await seed.create(obj);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    const { metadata, ...content } = obj;
    await seed.patch(
      kind(obj.apiVersion ?? 'v1', obj.kind ?? ''),
      { namespace: metadata?.namespace, name: metadata?.name ?? '' },
      {
        type: 'merge',
        patch: { ...content, metadata: { labels: metadata?.labels, annotations: metadata?.annotations } },
      },
    );
  }
}

/** Whether a write is the deployment of an extension resource with a reconcile request (what the restore takes over). */
function isExtensionReconcileRequest(k: Kind, obj: KubernetesObject | undefined): boolean {
  return (
    k.group === ExtensionsGroup &&
    obj?.metadata?.annotations?.[Annotations.GardenerOperation] === Operations.OperationReconcile
  );
}

/**
 * A seed client for the restore flow: server-side applies of extension resources with a reconcile request become
 * Gardener's restore sequence (once per object and flow run — a later deployment in the same run is a normal
 * reconcile request); every other call passes through. The deploy steps of every extension kind therefore restore
 * without knowing about it.
 */
export function restoringSeedClient<C extends SeedClient>(seed: C, spec: ShootStateSpec | undefined): C {
  const restored = new Set<string>();
  const patch: Client['patch'] = async (k, key, body, opts) => {
    const id = `${k.kind}/${key.namespace ?? ''}/${key.name}`;
    if (body.type !== 'apply') return seed.patch(k, key, body, opts);
    const obj = body.patch as KubernetesObject;
    if (!isExtensionReconcileRequest(k, obj) || restored.has(id)) return seed.patch(k, key, body, opts);
    const annotations = obj.metadata?.annotations ?? {};
    const waiting = {
      ...obj,
      metadata: {
        ...obj.metadata,
        annotations: { ...annotations, [Annotations.GardenerOperation]: Operations.OperationWaitForState },
      },
    };
    await seed.patch(k, key, { ...body, patch: waiting as unknown as Record<string, unknown> }, opts);
    const purpose = (obj as { spec?: { purpose?: string } }).spec?.purpose;
    const state = extensionStateFor(spec, k.kind, key.name, purpose);
    const restoredState =
      k.kind === 'Worker' ? workerRestoreState(state?.state, machineStateFrom(spec)) : (state?.state ?? undefined);
    if (state || restoredState !== undefined) {
      if (state) {
        for (const ref of referencedObjectsFor(spec, state, key.namespace ?? '')) await createOrReplace(seed, ref);
      }
      await seed.patch(
        k,
        key,
        {
          type: 'merge',
          patch: { status: { state: restoredState ?? null, resources: state?.resources ?? null } },
        },
        { subresource: 'status' },
      );
    }
    const result = await seed.patch(k, key, {
      type: 'merge',
      patch: { metadata: { annotations: { [Annotations.GardenerOperation]: Operations.OperationRestore } } },
    });
    restored.add(id);
    return result;
  };
  return new Proxy(seed, {
    get(target, property, receiver) {
      if (property === 'patch') return patch;
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
