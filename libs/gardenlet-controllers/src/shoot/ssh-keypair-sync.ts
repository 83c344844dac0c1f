// The shoot's SSH keypair in the garden (Gardener's botanist `generateSSHKeypair` / `deleteSSHKeypair`): the current
// keypair of the control plane's secrets manager (`ssh-keypair`, RSA 4096, rotated with `KeepOld`) as Secret
// `<shoot>.ssh-keypair` in the project namespace, the previous one — kept after a `rotate-ssh-keypair` until the next
// rotation — as `<shoot>.ssh-keypair.old`, both labelled `gardener.cloud/role: ssh-keypair` and controlled by the
// Shoot. Without SSH access both are deleted.
import { Kinds, isNotFound, type Client, type Secret } from '@gardener-ts/controller-runtime';
import type { Shoot } from './kinds.js';
import { shootControllerRef } from './client-ca-sync.js';

/** Gardener's `ShootProjectSecretSuffixSSHKeypair` and `ShootProjectSecretSuffixOldSSHKeypair`. */
export const ShootProjectSecretSuffixSSHKeypair = 'ssh-keypair';
export const ShootProjectSecretSuffixOldSSHKeypair = 'ssh-keypair.old';
/** Gardener's `GardenRoleSSHKeyPair`. */
export const GardenRoleSSHKeyPair = 'ssh-keypair';

/** The project Secret `<shoot>.<suffix>` carrying the data (base64) of a keypair secret. Pure. */
export function renderSSHKeypairGardenSecret(
  shoot: Pick<Shoot, 'metadata'>,
  suffix: string,
  data: Readonly<Record<string, string>> | undefined,
): Secret {
  const shootName = shoot.metadata?.name;
  const namespace = shoot.metadata?.namespace;
  const uid = shoot.metadata?.uid;
  if (!shootName || !namespace || !uid) throw new Error('the Shoot has no name, namespace or uid');
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: `${shootName}.${suffix}`,
      namespace,
      labels: { 'gardener.cloud/role': GardenRoleSSHKeyPair },
      ownerReferences: [shootControllerRef(shootName, uid)],
    },
    type: 'Opaque',
    data: { ...data },
  };
}

/** Writes `<shoot>.ssh-keypair` (and `<shoot>.ssh-keypair.old` when an old keypair is kept) to the garden. */
export async function syncSSHKeypairToGarden(
  garden: Pick<Client, 'patch'>,
  shoot: Pick<Shoot, 'metadata'>,
  current: Pick<Secret, 'data'>,
  old: Pick<Secret, 'data'> | undefined,
): Promise<void> {
  const secrets = [renderSSHKeypairGardenSecret(shoot, ShootProjectSecretSuffixSSHKeypair, current.data)];
  if (old) secrets.push(renderSSHKeypairGardenSecret(shoot, ShootProjectSecretSuffixOldSSHKeypair, old.data));
  for (const secret of secrets) {
    await garden.patch(
      Kinds.Secret,
      { namespace: secret.metadata!.namespace, name: secret.metadata!.name! },
      { type: 'apply', fieldManager: 'gardenlet', force: true, patch: secret as unknown as Record<string, unknown> },
    );
  }
}

/** Deletes `<shoot>.ssh-keypair` and `<shoot>.ssh-keypair.old` from the garden (the shoot has no SSH access). */
export async function deleteSSHKeypairFromGarden(
  garden: Pick<Client, 'delete'>,
  shoot: Pick<Shoot, 'metadata'>,
): Promise<void> {
  for (const suffix of [ShootProjectSecretSuffixSSHKeypair, ShootProjectSecretSuffixOldSSHKeypair]) {
    try {
      await garden.delete(Kinds.Secret, {
        namespace: shoot.metadata?.namespace,
        name: `${shoot.metadata?.name}.${suffix}`,
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
