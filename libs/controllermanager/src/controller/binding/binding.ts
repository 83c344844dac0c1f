// What Gardener's SecretBinding and CredentialsBinding controllers keep on the objects a binding references: the
// `gardener.cloud/gardener` finalizer and the `reference.gardener.cloud/<secretbinding|credentialsbinding>=true` and
// `provider.shoot.gardener.cloud/<type>=true` labels on the Secret, the reference label on its Quotas; when the last
// binding of a Secret goes, they go too. Pure: the binding and the other bindings in, the wanted changes out.
import type { CredentialsBinding, SecretBinding, Shoot } from '@gardener-ts/api';

/** The two binding kinds, as one shape. */
export interface BindingView {
  kind: 'SecretBinding' | 'CredentialsBinding';
  namespace: string;
  name: string;
  /** The referenced Secret; undefined for credentials that are no Secret (WorkloadIdentity). */
  secret?: { namespace: string; name: string };
  providerType?: string;
  quotas: { namespace: string; name: string }[];
  deleting: boolean;
}

export const LabelSecretBindingReference = 'reference.gardener.cloud/secretbinding';
export const LabelCredentialsBindingReference = 'reference.gardener.cloud/credentialsbinding';
export const ProviderLabelPrefix = 'provider.shoot.gardener.cloud/';

/** The reference label of a binding kind. */
export const referenceLabel = (kind: BindingView['kind']) =>
  kind === 'SecretBinding' ? LabelSecretBindingReference : LabelCredentialsBindingReference;

/** A SecretBinding as a BindingView. */
export function viewSecretBinding(b: SecretBinding): BindingView {
  return {
    kind: 'SecretBinding',
    namespace: b.metadata!.namespace!,
    name: b.metadata!.name!,
    secret: { namespace: b.secretRef.namespace ?? b.metadata!.namespace!, name: b.secretRef.name ?? '' },
    ...(b.provider?.type ? { providerType: b.provider.type } : {}),
    quotas: (b.quotas ?? []).map((q) => ({ namespace: q.namespace ?? '', name: q.name ?? '' })),
    deleting: !!b.metadata?.deletionTimestamp,
  };
}

/** A CredentialsBinding as a BindingView (only Secret credentials have a Secret). */
export function viewCredentialsBinding(b: CredentialsBinding): BindingView {
  const ref = b.credentialsRef;
  return {
    kind: 'CredentialsBinding',
    namespace: b.metadata!.namespace!,
    name: b.metadata!.name!,
    ...(ref.kind === 'Secret' && (ref.apiVersion ?? 'v1') === 'v1'
      ? { secret: { namespace: ref.namespace ?? b.metadata!.namespace!, name: ref.name } }
      : {}),
    providerType: b.provider.type,
    quotas: (b.quotas ?? []).map((q) => ({ namespace: q.namespace ?? '', name: q.name ?? '' })),
    deleting: !!b.metadata?.deletionTimestamp,
  };
}

/** Shoots in the binding's namespace that use it. */
export function shootsUsingBinding(binding: BindingView, shoots: readonly Shoot[]): string[] {
  return shoots
    .filter((s) => s.metadata?.namespace === binding.namespace)
    .filter(
      (s) =>
        (binding.kind === 'SecretBinding' ? s.spec.secretBindingName : s.spec.credentialsBindingName) === binding.name,
    )
    .map((s) => `${s.metadata!.namespace}/${s.metadata!.name}`)
    .sort();
}

/** What the Secret of a binding that is going away should lose, given the bindings that stay. */
export function secretRelease(
  binding: BindingView,
  others: readonly BindingView[],
): { removeFinalizer: boolean; removeLabels: string[] } {
  const same = (b: BindingView) =>
    b !== binding &&
    !(b.kind === binding.kind && b.namespace === binding.namespace && b.name === binding.name) &&
    !b.deleting &&
    b.secret?.namespace === binding.secret?.namespace &&
    b.secret?.name === binding.secret?.name;
  const staying = others.filter(same);
  const removeLabels: string[] = [];
  if (!staying.some((b) => b.kind === binding.kind)) removeLabels.push(referenceLabel(binding.kind));
  if (binding.providerType && !staying.some((b) => b.providerType === binding.providerType)) {
    removeLabels.push(ProviderLabelPrefix + binding.providerType);
  }
  return { removeFinalizer: staying.length === 0, removeLabels };
}
