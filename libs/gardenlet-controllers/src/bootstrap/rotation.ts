// When the gardenlet renews its garden client certificate (Gardener's certificate rotation): at a random point between
// autoRotationJitterPercentageMin and -Max percent of the certificate's validity (default 70–90 %), or at once when the
// kubeconfig Secret carries `gardener.cloud/operation: renew` (`renew-kubeconfig` accepted as well). Pure.

/** The annotation values on the kubeconfig Secret that request an immediate renewal. */
export const RENEW_OPERATIONS: readonly string[] = ['renew', 'renew-kubeconfig'];

/** The moment to renew: notBefore + validity × a percentage drawn uniformly from [min, max] (`random` in [0, 1)). */
export function rotationDeadline(
  notBefore: Date,
  notAfter: Date,
  jitter: { min: number; max: number },
  random: number,
): Date {
  const validity = notAfter.getTime() - notBefore.getTime();
  const percent = jitter.min + (jitter.max - jitter.min) * random;
  return new Date(notBefore.getTime() + Math.floor((validity * percent) / 100));
}

/** True when the Secret's annotations ask for a renewal now. */
export function renewalRequested(annotations: Record<string, string> | undefined): boolean {
  return RENEW_OPERATIONS.includes(annotations?.['gardener.cloud/operation'] ?? '');
}
