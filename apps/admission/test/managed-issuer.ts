// The garden Secret of the managed service account issuer that Gardener's example Shoot asks for, created with kubectl
// as Gardener's local setup configures it (hostname `discovery.local.gardener.cloud`, role label).
import { kubectl } from '@gardener-ts/testing';

export async function createManagedIssuerSecret(kubeconfig: string): Promise<void> {
  const secret = ['secret', 'shoot-service-account-issuer', '-n', 'garden'];
  await kubectl(kubeconfig, [
    'create',
    'secret',
    'generic',
    ...secret.slice(1),
    '--from-literal=hostname=discovery.local.gardener.cloud',
  ]);
  await kubectl(kubeconfig, ['label', ...secret, 'gardener.cloud/role=shoot-service-account-issuer']);
}
