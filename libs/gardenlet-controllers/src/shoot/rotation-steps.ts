// Steps of the reconcile flow that carry a credentials rotation beyond the secrets manager (Gardener's
// `secretsrotation` helpers): the shoot access Secrets in the control plane namespace get a new token once a new
// ServiceAccount signing key exists (their token requestor renews them), and the data kube-apiserver encrypts is
// rewritten once a new ETCD encryption key exists — every object of an encrypted resource is labelled
// `credentials.gardener.cloud/key-name=<current key secret>` (the write re-encrypts it with the new key) while the
// rotation prepares, then etcd-main gets a full snapshot (so a restore never needs the old key), and the label is
// removed again (one more rewrite) while it completes, before the old key is dropped; the kube-apiserver Deployment's
// annotations remember a finished labelling and snapshot across retries. ServiceAccounts still using legacy token
// Secrets (`kubernetes.io/service-account-token`) get a new one, referenced first, while a ServiceAccount key rotation
// prepares (kube-controller-manager fills it with a token of the new key), and those created before the preparation
// finished are deleted while it completes. `rewriteTargets` and `serviceAccountSecretSuffix` are pure; the steps talk to
// the seed and to the shoot's API server.
import { createHash } from 'node:crypto';
import { Annotations, Labels } from '@gardener-ts/api';
import {
  Kinds,
  isAlreadyExists,
  isConflict,
  isNotFound,
  type Client,
  type KubernetesObject,
  type Transport,
} from '@gardener-ts/controller-runtime';
import type { V1Secret } from '@kubernetes/client-node';
import type { APIResourceList } from '../component/shoot-system.js';
import { TokenRequestorPurpose } from '../component/shoot-access.js';

/** The label whose value names the ETCD encryption key secret an object was last rewritten for. */
export const LabelKeyRotationKeyName = 'credentials.gardener.cloud/key-name';

/** How many objects are rewritten at once. */
const RewriteConcurrency = 10;

/** Annotation on the kube-apiserver Deployment: every encrypted object is labelled with the current key. */
export const AnnotationResourcesLabeled = 'credentials.gardener.cloud/resources-labeled';
/** Annotation on the kube-apiserver Deployment: etcd-main was snapshotted after the rewrite. */
export const AnnotationEtcdSnapshotted = 'credentials.gardener.cloud/etcd-snapshotted';

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

type SeedDeployments = Pick<Client, 'get' | 'patch'>;

async function deploymentAnnotations(seed: SeedDeployments, namespace: string, name: string) {
  const deployment = await seed.get(Kinds.Deployment, { namespace, name });
  return (deployment as { metadata?: { annotations?: Record<string, string> } }).metadata?.annotations ?? {};
}

async function annotateDeployment(
  seed: SeedDeployments,
  namespace: string,
  name: string,
  annotations: Record<string, string | null>,
): Promise<void> {
  await seed.patch(Kinds.Deployment, { namespace, name }, { type: 'merge', patch: { metadata: { annotations } } });
}

/**
 * "Labeling resources after … new ETCD encryption key" with Gardener's bookkeeping: nothing to do when the
 * kube-apiserver Deployment `name` is annotated {@link AnnotationResourcesLabeled} already; else `rewrite` runs and
 * the annotation is set, so a later retry (the removal failing half-way) does not label again.
 */
export async function labelEncryptedDataOnce(
  seed: SeedDeployments,
  namespace: string,
  name: string,
  rewrite: () => Promise<unknown>,
): Promise<void> {
  if (AnnotationResourcesLabeled in (await deploymentAnnotations(seed, namespace, name))) return;
  await rewrite();
  await annotateDeployment(seed, namespace, name, { [AnnotationResourcesLabeled]: 'true' });
}

/**
 * "Snapshotting ETCD after … re-encrypted with new ETCD encryption key" (Gardener's
 * `SnapshotETCDAfterRewritingEncryptedData`): a full snapshot of etcd-main through `snapshot` unless the
 * kube-apiserver Deployment `name` is annotated {@link AnnotationEtcdSnapshotted}; the annotation is set afterwards.
 */
export async function snapshotEtcdAfterRewrite(
  seed: SeedDeployments,
  namespace: string,
  name: string,
  snapshot: () => Promise<unknown>,
): Promise<void> {
  if (AnnotationEtcdSnapshotted in (await deploymentAnnotations(seed, namespace, name))) return;
  await snapshot();
  await annotateDeployment(seed, namespace, name, { [AnnotationEtcdSnapshotted]: 'true' });
}

/**
 * "Removing label from resources after … rotation of ETCD encryption key": `rewrite` removes the labels, then the
 * kube-apiserver Deployment loses both bookkeeping annotations (the next rotation labels and snapshots again).
 */
export async function unlabelEncryptedData(
  seed: SeedDeployments,
  namespace: string,
  name: string,
  rewrite: () => Promise<unknown>,
): Promise<void> {
  await rewrite();
  await annotateDeployment(seed, namespace, name, {
    [AnnotationEtcdSnapshotted]: null,
    [AnnotationResourcesLabeled]: null,
  });
}

/** The annotation of a ServiceAccount token Secret naming its ServiceAccount. */
const ServiceAccountNameAnnotation = 'kubernetes.io/service-account.name';
/** The type of legacy ServiceAccount token Secrets. */
export const ServiceAccountTokenSecretType = 'kubernetes.io/service-account-token';

/**
 * The suffix of the new token Secrets (`<service account>-token-<suffix>`): the first six hex digits of the SHA-256 of
 * the ServiceAccount key Secret's data as Gardener's `ComputeSecretChecksum` encodes it (JSON, keys sorted, values
 * base64, which is how the API returns `data`). Pure.
 */
export function serviceAccountSecretSuffix(data: Readonly<Record<string, string>>): string {
  const sorted = Object.fromEntries(
    Object.keys(data)
      .sort()
      .map((k) => [k, data[k]]),
  );
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex').slice(0, 6);
}

interface ServiceAccount {
  metadata?: {
    name?: string;
    namespace?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
  };
  secrets?: { name?: string }[];
}

type ShootClient = Pick<Client, 'list' | 'get' | 'create' | 'patch' | 'delete'>;

/** Runs `fn` over `items`, `RewriteConcurrency` at a time. */
async function inBatches<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += RewriteConcurrency) {
    await Promise.all(items.slice(i, i + RewriteConcurrency).map(fn));
  }
}

/**
 * Patches a ServiceAccount with `mutate` applied to its current version, guarded by its resourceVersion (Gardener's
 * optimistic lock); a conflict reads it again, up to five times.
 */
async function patchServiceAccount(
  shoot: ShootClient,
  key: { namespace: string; name: string },
  mutate: (sa: ServiceAccount) => { labels: Record<string, string | null>; secrets: { name?: string }[] },
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const sa = (await shoot.get(Kinds.ServiceAccount, key)) as ServiceAccount;
    const { labels, secrets } = mutate(sa);
    try {
      await shoot.patch(Kinds.ServiceAccount, key, {
        type: 'merge',
        patch: { metadata: { resourceVersion: sa.metadata?.resourceVersion, labels }, secrets },
      });
      return;
    } catch (err) {
      if (!isConflict(err) || attempt >= 5) throw err;
    }
  }
}

/**
 * "Creating new ServiceAccount secrets after creation of new signing key" (Gardener's `CreateNewServiceAccountSecrets`):
 * every ServiceAccount of the shoot not yet labelled `credentials.gardener.cloud/key-name=<key>` that references
 * legacy token Secrets gets a new one, `<name>-token-<suffix of the key's data>` of type
 * `kubernetes.io/service-account-token` (kube-controller-manager's token controller fills it), placed first in its
 * `secrets`, and the label. ServiceAccounts without Secrets are left alone. Returns how many got a new Secret.
 */
export async function createNewServiceAccountSecrets(
  shoot: ShootClient,
  key: { name: string; data: Readonly<Record<string, string>> },
): Promise<number> {
  const suffix = serviceAccountSecretSuffix(key.data);
  const list = (await shoot.list(Kinds.ServiceAccount, {
    labelSelector: `${LabelKeyRotationKeyName}!=${key.name}`,
  })) as { items: ServiceAccount[] };
  let created = 0;
  await inBatches(list.items, async (sa) => {
    const namespace = sa.metadata?.namespace ?? '';
    const name = sa.metadata?.name ?? '';
    if ((sa.secrets ?? []).length === 0) return;
    const secretName = `${name}-token-${suffix}`;
    if (sa.secrets!.some((s) => s.name === secretName)) return;
    const secret: V1Secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: secretName, namespace, annotations: { [ServiceAccountNameAnnotation]: name } },
      type: ServiceAccountTokenSecretType,
    };
    await shoot.create(secret as KubernetesObject).catch((err: unknown) => {
      if (!isAlreadyExists(err)) throw err;
    });
    await patchServiceAccount(shoot, { namespace, name }, (current) => ({
      labels: { [LabelKeyRotationKeyName]: key.name },
      secrets: [{ name: secretName }, ...(current.secrets ?? []).filter((s) => s.name !== secretName)],
    }));
    created++;
  });
  return created;
}

/**
 * "Deleting old ServiceAccount secrets after rotation of signing key" (Gardener's `DeleteOldServiceAccountSecrets`):
 * of every ServiceAccount's `secrets`, those created before the rotation's preparation finished
 * (`lastInitiationFinishedTime`) are deleted and dropped from the list together with the rotation label; Secrets that
 * no longer exist, and newer ones, stay in the list (the user may have changed it). Returns how many were deleted.
 */
export async function deleteOldServiceAccountSecrets(shoot: ShootClient, preparedAt: Date): Promise<number> {
  const list = (await shoot.list(Kinds.ServiceAccount, {})) as { items: ServiceAccount[] };
  let deleted = 0;
  await inBatches(list.items, async (sa) => {
    const namespace = sa.metadata?.namespace ?? '';
    const name = sa.metadata?.name ?? '';
    const old = new Set<string>();
    for (const ref of sa.secrets ?? []) {
      if (!ref.name) continue;
      const secret = await shoot.get(Kinds.Secret, { namespace, name: ref.name }).catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
      const created = (secret as { metadata?: { creationTimestamp?: string } } | undefined)?.metadata
        ?.creationTimestamp;
      if (created !== undefined && Date.parse(created) < preparedAt.getTime()) old.add(ref.name);
    }
    if (old.size === 0) return;
    for (const secretName of old) {
      await shoot.delete(Kinds.Secret, { namespace, name: secretName }).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
    }
    await patchServiceAccount(shoot, { namespace, name }, (current) => ({
      labels: { [LabelKeyRotationKeyName]: null },
      secrets: (current.secrets ?? []).filter((s) => !s.name || !old.has(s.name)),
    }));
    deleted += old.size;
  });
  return deleted;
}
