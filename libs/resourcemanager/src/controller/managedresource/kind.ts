// The ManagedResource kind (resources.gardener.cloud/v1alpha1), read by the managedresource and health controllers.
import { kind, type Kind } from '@gardener-ts/controller-runtime';
import type { ManagedResource } from '../../status.js';

/** `resources.gardener.cloud/v1alpha1` ManagedResource. */
export const ManagedResourceKind: Kind<ManagedResource> = kind<ManagedResource>(
  'resources.gardener.cloud/v1alpha1',
  'ManagedResource',
);
