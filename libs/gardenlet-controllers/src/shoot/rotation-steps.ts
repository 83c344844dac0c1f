// Steps of the reconcile flow that carry a credentials rotation beyond the secrets manager (Gardener's
// `secretsrotation` helpers): the shoot access Secrets in the control plane namespace get a new token once a new
// ServiceAccount signing key exists (their token requestor renews them), and the data kube-apiserver encrypts is
// rewritten once a new ETCD encryption key exists — every object of an encrypted resource is labelled
// `credentials.gardener.cloud/key-name=<current key secret>` (the write re-encrypts it with the new key) while the
// rotation prepares, and the label is removed again (one more rewrite) while it completes, before the old key is
// dropped. `rewriteTargets` is pure; the steps talk to the seed and to the shoot's API server.
import { Annotations, Labels } from '@gardener-ts/api';
import { Kinds, type Client, type Transport } from '@gardener-ts/controller-runtime';
import type { APIResourceList } from '../component/shoot-system.js';
import { TokenRequestorPurpose } from '../component/shoot-access.js';

/** The label whose value names the ETCD encryption key secret an object was last rewritten for. */
export const LabelKeyRotationKeyName = 'credentials.gardener.cloud/key-name';

/** How many objects are rewritten at once. */
const RewriteConcurrency = 10;

/**
 * "Renewing shoot access secrets after creation of new ServiceAccount signing key": every shoot access Secret of the
 * control plane namespace (token requestor, class `shoot`) gets a renew timestamp of now, so its token is issued
 * again, signed with the new key.
 */
export async function renewShootAccessSecrets(
  seed: Pick<Client, 'list' | 'patch'>,
  namespace: string,
  now: Date,
): Promise<void> {
  const secrets = await seed.list(Kinds.Secret, {
    namespace,
    labelSelector: { 'resources.gardener.cloud/purpose': TokenRequestorPurpose, [Labels.ResourcesClass]: 'shoot' },
  });
  const timestamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  for (const secret of secrets.items) {
    await seed.patch(
      Kinds.Secret,
      { namespace, name: secret.metadata!.name! },
      {
        type: 'merge',
        patch: { metadata: { annotations: { [Annotations.ServiceAccountTokenRenewTimestamp]: timestamp } } },
      },
    );
  }
}

/** An API resource whose objects are rewritten: its group-version and plural name. */
export interface RewriteTarget {
  readonly groupVersion: string;
  readonly resource: string;
}

/**
 * The API resources to rewrite for `encrypted` (`secrets`, `<resource>.<group>` as kube-apiserver's encryption
 * configuration names them) in the shoot's preferred resources: those that can be listed and patched. Pure.
 */
export function rewriteTargets(encrypted: readonly string[], lists: readonly APIResourceList[]): RewriteTarget[] {
  const targets: RewriteTarget[] = [];
  for (const list of lists) {
    const group = list.groupVersion.includes('/') ? list.groupVersion.split('/')[0]! : '';
    for (const r of list.resources) {
      if (r.name.includes('/') || !r.verbs.includes('list') || !r.verbs.includes('patch')) continue;
      const name = group === '' ? r.name : `${r.name}.${group}`;
      if (encrypted.includes(name)) targets.push({ groupVersion: list.groupVersion, resource: r.name });
    }
  }
  return targets;
}

interface ObjectList {
  items?: { metadata?: { name?: string; namespace?: string } }[];
}

const basePath = (groupVersion: string) =>
  groupVersion.includes('/') ? `/apis/${groupVersion}` : `/api/${groupVersion}`;

/** How the rewrite changes the objects: label them with the current key, or remove the label. */
export type RewriteMode = { readonly add: string } | { readonly remove: true };

/**
 * Rewrites every object of `targets` in the shoot that still needs it: with `add`, those not labelled with the key
 * yet get the label; with `remove`, those carrying the label lose it. Objects written are re-encrypted by
 * kube-apiserver with its current key. Returns how many objects were rewritten.
 */
export async function rewriteEncryptedData(
  shoot: Pick<Transport, 'request'>,
  targets: readonly RewriteTarget[],
  mode: RewriteMode,
  signal?: AbortSignal,
): Promise<number> {
  const selector = 'add' in mode ? `${LabelKeyRotationKeyName}!=${mode.add}` : LabelKeyRotationKeyName;
  const labels = { [LabelKeyRotationKeyName]: 'add' in mode ? mode.add : null };
  let rewritten = 0;
  for (const target of targets) {
    const base = basePath(target.groupVersion);
    const list = await shoot.request<ObjectList>({
      method: 'GET',
      path: `${base}/${target.resource}`,
      query: new URLSearchParams({ labelSelector: selector }),
      ...(signal ? { signal } : {}),
    });
    const items = list.items ?? [];
    for (let i = 0; i < items.length; i += RewriteConcurrency) {
      await Promise.all(
        items.slice(i, i + RewriteConcurrency).map(async ({ metadata }) => {
          const ns = metadata?.namespace ? `/namespaces/${metadata.namespace}` : '';
          await shoot.request({
            method: 'PATCH',
            path: `${base}${ns}/${target.resource}/${metadata?.name}`,
            body: { metadata: { labels } },
            contentType: 'application/merge-patch+json',
            ...(signal ? { signal } : {}),
          });
        }),
      );
    }
    rewritten += items.length;
  }
  return rewritten;
}
