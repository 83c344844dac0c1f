// The move from `spec.secretBindingName` to `spec.credentialsBindingName` the shoot maintenance makes when a forced
// update takes a Shoot to Kubernetes 1.34 or later (Gardener forbids SecretBindings there): the CredentialsBinding
// `force-migrated-<secretBinding>` when it exists (it must reference the same Secret with the same quotas), else the
// first by name of the namespace's CredentialsBindings that reference the SecretBinding's Secret with its quotas, else a
// new `force-migrated-<secretBinding>` (labelled `credentialsbinding.gardener.cloud/status=force-migrated`). The
// decision is pure; `resolveCredentialsBinding` does the reads and the create.
import type { CredentialsBinding, ObjectReference, SecretBinding, Shoot } from '@gardener-ts/api';
import { isNotFound, type Client } from '@gardener-ts/controller-runtime';
import { CredentialsBindingKind, SecretBindingKind } from '../../kinds.js';
import { compareVersions } from './versions.js';

/** The outcome the maintenance applies: the CredentialsBinding to use, or why the migration failed. */
export type CredentialsBindingMigration = { name: string } | { error: string };

/** The prefix of the CredentialsBinding the maintenance creates for a SecretBinding. */
export const ForceMigratedPrefix = 'force-migrated-';
/** The label marking a CredentialsBinding the maintenance created. */
export const ForceMigratedLabel = 'credentialsbinding.gardener.cloud/status';

/** Whether the update from `oldVersion` to the maintained Shoot's version makes the Shoot leave its SecretBinding. */
export function needsCredentialsBindingMigration(maintained: Shoot, oldVersion: string): boolean {
  const version = maintained.spec.kubernetes.version;
  return (
    !!version &&
    compareVersions(oldVersion, '1.34.0') < 0 &&
    compareVersions(version, '1.34.0') >= 0 &&
    !!maintained.spec.secretBindingName &&
    !maintained.spec.credentialsBindingName
  );
}

const quotaKey = (q: ObjectReference) => (q.namespace ? `${q.namespace}/${q.name ?? ''}` : (q.name ?? ''));

/** Whether two quota lists hold the same references (as sets). */
export function quotasEqual(a: readonly ObjectReference[] = [], b: readonly ObjectReference[] = []): boolean {
  if (a.length !== b.length) return false;
  const byKey = new Map(a.map((q) => [quotaKey(q), q]));
  return b.every((q) => {
    const other = byKey.get(quotaKey(q));
    return (
      !!other &&
      other.apiVersion === q.apiVersion &&
      other.kind === q.kind &&
      other.name === q.name &&
      other.namespace === q.namespace
    );
  });
}

/** The SecretBinding's Secret as a CredentialsBinding's `credentialsRef`. */
const secretRefOf = (binding: SecretBinding) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  name: binding.secretRef.name,
  namespace: binding.secretRef.namespace ?? binding.metadata?.namespace ?? '',
});

const referencesSecret = (cb: CredentialsBinding, ref: ReturnType<typeof secretRefOf>) =>
  cb.credentialsRef.kind === ref.kind &&
  cb.credentialsRef.apiVersion === ref.apiVersion &&
  cb.credentialsRef.name === ref.name &&
  cb.credentialsRef.namespace === ref.namespace;

/**
 * What to do for `secretBinding`: use an existing CredentialsBinding, create one, or fail (see the file header).
 * `forceMigrated` is the existing `force-migrated-<name>` binding, `inNamespace` all of the namespace's bindings.
 */
export function planCredentialsBindingMigration(
  secretBinding: SecretBinding,
  forceMigrated: CredentialsBinding | undefined,
  inNamespace: readonly CredentialsBinding[],
): { use: string } | { create: CredentialsBinding } | { error: string } {
  const namespace = secretBinding.metadata?.namespace ?? '';
  const name = secretBinding.metadata?.name ?? '';
  const migratedName = `${ForceMigratedPrefix}${name}`;
  const ref = secretRefOf(secretBinding);
  if (forceMigrated) {
    if (!referencesSecret(forceMigrated, ref))
      return {
        error: `existing CredentialsBinding ${namespace}/${migratedName} does not reference the same Secret as SecretBinding ${namespace}/${name}`,
      };
    if (!quotasEqual(forceMigrated.quotas, secretBinding.quotas))
      return {
        error: `existing CredentialsBinding ${namespace}/${migratedName} does not have the same Quotas as SecretBinding ${namespace}/${name}`,
      };
    return { use: migratedName };
  }
  const matching = inNamespace
    .filter((cb) => referencesSecret(cb, ref) && quotasEqual(cb.quotas, secretBinding.quotas))
    .map((cb) => cb.metadata?.name ?? '')
    .sort();
  if (matching.length > 0) return { use: matching[0]! };
  return {
    create: {
      apiVersion: 'security.gardener.cloud/v1alpha1',
      kind: 'CredentialsBinding',
      metadata: { name: migratedName, namespace, labels: { [ForceMigratedLabel]: 'force-migrated' } },
      provider: { type: secretBinding.provider?.type ?? '' },
      credentialsRef: ref,
      ...(secretBinding.quotas ? { quotas: secretBinding.quotas } : {}),
    } as CredentialsBinding,
  };
}

/** Reads what `planCredentialsBindingMigration` needs, creates the binding when it says so, and returns the outcome. */
export async function resolveCredentialsBinding(
  client: Pick<Client, 'get' | 'list' | 'create'>,
  namespace: string,
  secretBindingName: string,
): Promise<CredentialsBindingMigration> {
  let secretBinding: SecretBinding;
  try {
    secretBinding = await client.get(SecretBindingKind, { namespace, name: secretBindingName });
  } catch (err) {
    return { error: `failed to get SecretBinding ${namespace}/${secretBindingName}: ${(err as Error).message}` };
  }
  const migratedName = `${ForceMigratedPrefix}${secretBindingName}`;
  let forceMigrated: CredentialsBinding | undefined;
  let inNamespace: CredentialsBinding[] = [];
  try {
    forceMigrated = await client.get(CredentialsBindingKind, { namespace, name: migratedName });
  } catch (err) {
    if (!isNotFound(err))
      return {
        error: `failed to check for existing CredentialsBinding ${namespace}/${migratedName}: ${(err as Error).message}`,
      };
  }
  if (!forceMigrated) {
    try {
      inNamespace = (await client.list(CredentialsBindingKind, { namespace })).items;
    } catch (err) {
      return { error: `failed to list CredentialsBindings in namespace ${namespace}: ${(err as Error).message}` };
    }
  }
  const plan = planCredentialsBindingMigration(secretBinding, forceMigrated, inNamespace);
  if ('error' in plan) return plan;
  if ('use' in plan) return { name: plan.use };
  try {
    await client.create(plan.create);
  } catch (err) {
    return { error: `failed to create CredentialsBinding ${namespace}/${migratedName}: ${(err as Error).message}` };
  }
  return { name: migratedName };
}
