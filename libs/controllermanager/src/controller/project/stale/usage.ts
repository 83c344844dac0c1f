// The usage rules of Gardener's `project-stale` controller as pure functions: the namespace annotation that skips the
// check, the Secrets that count (user-managed ones referenced by a SecretBinding or CredentialsBinding), and which
// bindings — of any namespace — reference the project's Secrets, InternalSecrets or Quotas. A binding only makes the
// project used while a Shoot in the binding's namespace uses it (`usedByShoots`).
import type { CredentialsBinding, SecretBinding, Shoot } from '@gardener-ts/api';

/** Gardener's `project.gardener.cloud/skip-stale-check` annotation of a project namespace. */
export const SkipStaleCheckAnnotation = 'project.gardener.cloud/skip-stale-check';
/** Gardener's label on Secrets, InternalSecrets and Quotas referenced by a SecretBinding. */
export const LabelSecretBindingReference = 'reference.gardener.cloud/secretbinding';
/** Gardener's label on Secrets, InternalSecrets, WorkloadIdentities and Quotas referenced by a CredentialsBinding. */
export const LabelCredentialsBindingReference = 'reference.gardener.cloud/credentialsbinding';
/** Gardener's `ControlPlaneSecretRoles`: secrets with these `gardener.cloud/role`s are Gardener's own. */
const ControlPlaneSecretRoles = ['kubeconfig', 'ssh-keypair', 'monitoring'];

/** Whether a namespace skips the stale check: the annotation parses as true the way Go's `strconv.ParseBool` does. */
export function skipsStaleCheck(
  namespace: { metadata?: { annotations?: Record<string, string> } } | undefined,
): boolean {
  const value = namespace?.metadata?.annotations?.[SkipStaleCheckAnnotation];
  return value !== undefined && ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value);
}

/** The label selector of user-managed Secrets carrying `referenceLabel=true` (Gardener's uncontrolled secrets). */
export function uncontrolledSecretSelector(referenceLabel: string): string {
  return `gardener.cloud/role notin (${ControlPlaneSecretRoles.join(',')}),${referenceLabel}=true`;
}

/** Binding names by namespace. */
export type BindingsByNamespace = Map<string, Set<string>>;

function group<T extends { metadata?: { namespace?: string; name?: string } }>(
  items: readonly T[],
  relevant: (item: T) => boolean,
): BindingsByNamespace {
  const out: BindingsByNamespace = new Map();
  for (const item of items) {
    if (!relevant(item)) continue;
    const ns = item.metadata?.namespace ?? '';
    const names = out.get(ns) ?? new Set<string>();
    names.add(item.metadata?.name ?? '');
    out.set(ns, names);
  }
  return out;
}

/** The SecretBindings whose `secretRef` is one of `secretNames` in `namespace`. */
export function secretBindingsOfSecrets(
  namespace: string,
  secretNames: ReadonlySet<string>,
  bindings: readonly SecretBinding[],
): BindingsByNamespace {
  return group(bindings, (b) => b.secretRef?.namespace === namespace && secretNames.has(b.secretRef?.name ?? ''));
}

/** The apiVersions of the credentials a CredentialsBinding may reference, by kind. */
const CredentialsApiVersion = { Secret: 'v1', InternalSecret: 'core.gardener.cloud/v1beta1' } as const;

/** The CredentialsBindings whose `credentialsRef` is a `kind` named in `names` in `namespace`. */
export function credentialsBindingsOf(
  kind: keyof typeof CredentialsApiVersion,
  namespace: string,
  names: ReadonlySet<string>,
  bindings: readonly CredentialsBinding[],
): BindingsByNamespace {
  return group(
    bindings,
    ({ credentialsRef: ref }) =>
      ref?.apiVersion === CredentialsApiVersion[kind] &&
      ref.kind === kind &&
      ref.namespace === namespace &&
      names.has(ref.name),
  );
}

/** The SecretBindings or CredentialsBindings that list one of `quotaNames` of `namespace` in `quotas`. */
export function bindingsOfQuotas<T extends SecretBinding | CredentialsBinding>(
  namespace: string,
  quotaNames: ReadonlySet<string>,
  bindings: readonly T[],
): BindingsByNamespace {
  return group(bindings, (b) =>
    (b.quotas ?? []).some((q) => q.namespace === namespace && quotaNames.has(q.name ?? '')),
  );
}

/**
 * Whether a Shoot of a binding's namespace names one of the bindings in `field` (`secretBindingName` or
 * `credentialsBindingName`); `shootsIn` lists the Shoots of a namespace, asked only while no use is found.
 */
export async function usedByShoots(
  bindings: BindingsByNamespace,
  field: 'secretBindingName' | 'credentialsBindingName',
  shootsIn: (namespace: string) => Promise<readonly Shoot[]>,
): Promise<boolean> {
  for (const [namespace, names] of bindings) {
    const shoots = await shootsIn(namespace);
    if (shoots.some((s) => names.has(s.spec?.[field] ?? ''))) return true;
  }
  return false;
}
