// Gardener's generic reference reconciler (pkg/controller/reference), used for Shoots and Seeds: the Secrets and
// ConfigMaps an object references get the finalizer `gardener.cloud/reference-protection` — the object too, while it
// references any — and user-managed ones (no `gardener.cloud/role` label) that no object of the kind references any
// more lose it.
import { Finalizers, Labels } from '@gardener-ts/api';
import {
  addFinalizer,
  apiVersionOf,
  hasFinalizer,
  ignoreNotFound,
  Kinds,
  removeFinalizer,
  wrapError,
  type Client,
  type Kind,
  type KubernetesObject,
  type ReconcileContext,
  type Request,
} from '@gardener-ts/controller-runtime';

/** The finalizer on referencing and referenced objects (Gardener's ReferenceProtectionFinalizerName). */
export const ReferenceProtectionFinalizer = Finalizers.ReferenceProtectionFinalizer;

/** What the reconciler needs to know about one referencing kind. */
export interface ReferencingKind<T extends KubernetesObject> {
  kind: Kind<T>;
  /** The namespace of the Secrets and ConfigMaps an object references (its own, or `garden` for Seeds). */
  namespaceOf: (obj: T) => string;
  secretNames: (obj: T) => string[];
  configMapNames: (obj: T) => string[];
}

export interface ReferenceReconcilerOptions<T extends KubernetesObject> {
  /** Cached reads of the referencing kind, and the writes. */
  client: Pick<Client, 'get' | 'list' | 'patch'>;
  /** Live reads of Secrets and ConfigMaps: the manager does not cache them outside `garden`. */
  api: Pick<Client, 'get' | 'list'>;
  referencing: ReferencingKind<T>;
}

type Named = KubernetesObject & { metadata?: { name?: string; finalizers?: string[] } };

/** `obj` with the apiVersion and kind of `kind` (list items and some reads come without). */
const typed = <O extends KubernetesObject>(obj: O, kind: Kind): O => ({
  ...obj,
  apiVersion: apiVersionOf(kind),
  kind: kind.kind,
});

/**
 * Whether `obj` no longer needs its references: it is being deleted and Gardener is done with it (its `gardener`
 * finalizer is gone).
 */
export function referencesReleased(obj: KubernetesObject): boolean {
  return !!obj.metadata?.deletionTimestamp && !hasFinalizer(obj, Finalizers.GardenerFinalizer);
}

/**
 * The names referenced by the objects of a kind (`owners`), leaving out `self` once its references are released, and
 * the `candidates` carrying the finalizer that none of them references. Pure.
 */
export function unreferenced<T extends KubernetesObject, R extends Named>(
  self: T,
  owners: readonly T[],
  names: (obj: T) => string[],
  candidates: readonly R[],
): R[] {
  const referenced = new Set<string>();
  for (const owner of owners) {
    if (owner.metadata?.name === self.metadata?.name && referencesReleased(owner)) continue;
    for (const name of names(owner)) referenced.add(name);
  }
  return candidates.filter(
    (c) => hasFinalizer(c, ReferenceProtectionFinalizer) && !referenced.has(c.metadata?.name ?? ''),
  );
}

/** Protects the Secrets and ConfigMaps referenced by one object of a kind, and releases those nobody references. */
export class ReferenceReconciler<T extends KubernetesObject> {
  constructor(private readonly o: ReferenceReconcilerOptions<T>) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<void> {
    const { kind, namespaceOf, secretNames, configMapNames } = this.o.referencing;
    const read = await this.o.client.get(kind, req).catch(ignoreNotFound);
    if (!read) {
      ctx.log.debug('Object is gone, stop reconciling');
      return;
    }
    const obj = typed(read, kind);
    const namespace = namespaceOf(obj);
    await this.release(obj, namespace, ctx);

    if (referencesReleased(obj)) {
      if (hasFinalizer(obj, ReferenceProtectionFinalizer)) {
        ctx.log.info('Removing finalizer');
        await removeFinalizer(this.o.client, obj, ReferenceProtectionFinalizer);
      }
      return;
    }

    const [protectedSecrets, protectedConfigMaps] = await Promise.all([
      this.protect(Kinds.Secret, namespace, secretNames(obj), ctx),
      this.protect(Kinds.ConfigMap, namespace, configMapNames(obj), ctx),
    ]);
    const needsFinalizer = protectedSecrets || protectedConfigMaps;
    const has = hasFinalizer(obj, ReferenceProtectionFinalizer);
    if (needsFinalizer && !has) {
      ctx.log.info('Adding finalizer');
      await addFinalizer(this.o.client, obj, ReferenceProtectionFinalizer);
    } else if (!needsFinalizer && has) {
      ctx.log.info('Removing finalizer');
      await removeFinalizer(this.o.client, obj, ReferenceProtectionFinalizer);
    }
  }

  /** Removes the finalizer from the user-managed Secrets and ConfigMaps no object of the kind references. */
  private async release(obj: T, namespace: string, ctx: ReconcileContext): Promise<void> {
    const { kind, secretNames, configMapNames } = this.o.referencing;
    const ownNamespace = obj.metadata?.namespace;
    const userManaged = { namespace, labelSelector: `!${Labels.GardenRole}` };
    const [owners, secrets, configMaps] = await Promise.all([
      this.o.client.list(kind, ownNamespace ? { namespace: ownNamespace } : {}),
      this.o.api.list(Kinds.Secret, userManaged),
      this.o.api.list(Kinds.ConfigMap, userManaged),
    ]);
    const release = [
      ...unreferenced(obj, owners.items, secretNames, secrets.items).map((s) => typed(s, Kinds.Secret)),
      ...unreferenced(obj, owners.items, configMapNames, configMaps.items).map((c) => typed(c, Kinds.ConfigMap)),
    ];
    await Promise.all(
      release.map(async (r) => {
        ctx.log.info(
          { kind: r.kind, obj: `${r.metadata?.namespace}/${r.metadata?.name}` },
          'Removing finalizer from object',
        );
        try {
          await removeFinalizer(this.o.client, r, ReferenceProtectionFinalizer);
        } catch (err) {
          throw wrapError(
            err,
            `failed to remove finalizer from ${r.kind} ${r.metadata?.namespace}/${r.metadata?.name}`,
          );
        }
      }),
    );
  }

  /**
   * Adds the finalizer to the named objects; whether any of them counts (Gardener-managed Secrets, labelled
   * `gardener.cloud/role`, are left alone and do not). A missing one is an error, retried with back-off.
   */
  private async protect(kind: Kind, namespace: string, names: string[], ctx: ReconcileContext): Promise<boolean> {
    const counted = await Promise.all(
      [...new Set(names)].map(async (name) => {
        const key = `${namespace}/${name}`;
        let obj: KubernetesObject;
        try {
          obj = typed(await this.o.api.get(kind, { namespace, name }), kind);
        } catch (err) {
          throw wrapError(err, `failed to read referenced ${kind.kind} ${key}`);
        }
        if (kind.kind === 'Secret' && obj.metadata?.labels?.[Labels.GardenRole]) return false;
        if (!hasFinalizer(obj, ReferenceProtectionFinalizer)) {
          ctx.log.info({ kind: kind.kind, obj: key }, 'Adding finalizer to object');
          try {
            await addFinalizer(this.o.client, obj, ReferenceProtectionFinalizer);
          } catch (err) {
            throw wrapError(err, `failed to add finalizer to ${kind.kind} ${key}`);
          }
        }
        return true;
      }),
    );
    return counted.some(Boolean);
  }
}
