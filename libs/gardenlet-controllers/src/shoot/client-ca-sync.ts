// The shoot's client CA in the garden (Gardener's botanist `generateCertificateAuthorities`, which ends with
// `syncInternalSecretToGarden`): the InternalSecret `<shoot>.ca-client` in the project namespace carries the current
// client CA's certificate and key, labelled `gardener.cloud/role: ca-client` and controlled by the Shoot, so the
// garbage collector deletes it with the Shoot. gardener-apiserver signs the client certificates of
// `shoots/adminkubeconfig` with it; here `gardener-local shoot kubeconfig` does, from the garden alone.
import { corev1beta1 } from '@gardener-ts/api';
import { kindFrom, type Client } from '@gardener-ts/controller-runtime';
import { DataKeyCertificateCA, DataKeyPrivateKeyCA } from '@gardener-ts/secrets-manager';
import type { Shoot } from './kinds.js';

/** The garden's InternalSecret kind (core.gardener.cloud/v1beta1). */
export const InternalSecretKind = kindFrom<corev1beta1.InternalSecret>(corev1beta1.InternalSecretKind);
/** Gardener's `ShootProjectSecretSuffixCAClient`: the name suffix of the client CA in the project namespace. */
export const ShootProjectSecretSuffixCAClient = 'ca-client';
/** Gardener's `GardenRoleCAClient`, the `gardener.cloud/role` of the client CA in the project namespace. */
export const GardenRoleCAClient = 'ca-client';

/** `<shoot>.ca-client` (Gardener's `ComputeShootProjectResourceName`). */
export function clientCAInternalSecretName(shootName: string): string {
  return `${shootName}.${ShootProjectSecretSuffixCAClient}`;
}

/**
 * The InternalSecret `<shoot>.ca-client` for the data (base64, as in a Secret) of the current client CA secret of the
 * control plane: all its keys, `ca.crt` and `ca.key` required. Pure.
 */
export function renderClientCAInternalSecret(
  shoot: Pick<Shoot, 'metadata'>,
  caClientData: Readonly<Record<string, string>> | undefined,
): corev1beta1.InternalSecret {
  const shootName = shoot.metadata?.name;
  const namespace = shoot.metadata?.namespace;
  const uid = shoot.metadata?.uid;
  if (!shootName || !namespace || !uid) throw new Error('the Shoot has no name, namespace or uid');
  for (const key of [DataKeyCertificateCA, DataKeyPrivateKeyCA]) {
    if (!caClientData?.[key]) throw new Error(`the client CA secret of shoot ${namespace}/${shootName} has no ${key}`);
  }
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'InternalSecret',
    metadata: {
      name: clientCAInternalSecretName(shootName),
      namespace,
      labels: { 'gardener.cloud/role': GardenRoleCAClient },
      ownerReferences: [shootControllerRef(shootName, uid)],
    },
    type: 'Opaque',
    data: { ...caClientData },
  } as corev1beta1.InternalSecret;
}

/**
 * Writes the InternalSecret `<shoot>.ca-client` to the garden (server-side apply as the gardenlet, so a rotated CA
 * replaces the data and a key the CA secret no longer has is dropped).
 */
export async function syncClientCAToGarden(
  garden: Pick<Client, 'patch'>,
  shoot: Pick<Shoot, 'metadata'>,
  caClientData: Readonly<Record<string, string>> | undefined,
): Promise<void> {
  const internalSecret = renderClientCAInternalSecret(shoot, caClientData);
  await garden.patch(
    InternalSecretKind,
    { namespace: internalSecret.metadata!.namespace, name: internalSecret.metadata!.name! },
    {
      type: 'apply',
      fieldManager: 'gardenlet',
      force: true,
      patch: internalSecret as unknown as Record<string, unknown>,
    },
  );
}

/** Gardener's controller reference (metav1.NewControllerRef) to a Shoot: what its garden Secrets are owned by. */
export function shootControllerRef(name: string, uid: string) {
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    name,
    uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}
