// What the TokenInvalidator does with a legacy ServiceAccount token Secret, given its ServiceAccount and whether a
// Pod still mounts it. The `consider` label makes the token-invalidator webhook replace the token with garbage.
export const TokenInvalidatorLabel = {
  Purpose: 'resources.gardener.cloud/purpose',
  /** On a ServiceAccount: leave its token Secrets alone. */
  Skip: 'token-invalidator.resources.gardener.cloud/skip',
  /** On a Secret: its static token is to be invalidated. */
  Consider: 'token-invalidator.resources.gardener.cloud/consider',
} as const;
export const PurposeTokenInvalidator = 'token-invalidator';
export const ServiceAccountNameAnnotation = 'kubernetes.io/service-account.name';

export interface InvalidatorInput {
  secretLabels: Record<string, string> | undefined;
  serviceAccount: { metadata?: { labels?: Record<string, string> }; automountServiceAccountToken?: boolean };
  /** Whether a Pod in the namespace mounts the Secret as a volume; asked only when needed. */
  mountedByPod: () => Promise<boolean>;
}

export interface InvalidatorPlan {
  /** Label the Secret `resources.gardener.cloud/purpose: token-invalidator` (it has no purpose yet). */
  addPurpose: boolean;
  /** What to do with the consider label: add it, remove it, nothing, or check again later (still mounted). */
  consider: 'add' | 'remove' | 'keep' | 'retry';
}

export async function planInvalidation(i: InvalidatorInput): Promise<InvalidatorPlan> {
  const labels = i.secretLabels ?? {};
  const addPurpose = !(TokenInvalidatorLabel.Purpose in labels);
  const saLabels = i.serviceAccount.metadata?.labels ?? {};
  if (TokenInvalidatorLabel.Skip in saLabels || i.serviceAccount.automountServiceAccountToken !== false)
    return { addPurpose, consider: 'remove' };
  if (TokenInvalidatorLabel.Consider in labels) return { addPurpose, consider: 'keep' };
  // A Pod still using the static token would break: wait until none mounts it.
  if (await i.mountedByPod()) return { addPurpose, consider: 'retry' };
  return { addPurpose, consider: 'add' };
}
