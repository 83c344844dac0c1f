// The seed's BackupBucket in the garden (Gardener's deployBackupBucketInGarden in
// pkg/gardenlet/controller/seed/seed/reconciler_reconcile.go): named after the seed's UID, controlled by the Seed,
// with the provider, region (the seed's region unless `spec.backup.region` says otherwise), providerConfig and
// credentials of `spec.backup`, bound to the seed and carrying the reconcile annotation. Removed again when the seed
// no longer has `spec.backup`.
import { Annotations, Operations } from '@gardener-ts/api';
import { ignoreNotFound, wrapError, type Client } from '@gardener-ts/controller-runtime';
import { BACKUP_BUCKET_API_VERSION, BackupBucketKind, type CoreBackupBucket } from '../backupbucket/kinds.js';
import { SEED_API_VERSION, type Seed } from '../../seed-kind.js';

/** The name of the seed's BackupBucket: the seed's UID (Gardener). */
export function seedBackupBucketName(seed: Seed): string {
  const uid = seed.metadata?.uid;
  if (!uid) throw new Error(`Seed ${seed.metadata?.name} has no metadata.uid to name its BackupBucket`);
  return uid;
}

/** The seed's BackupBucket for `spec.backup`, or undefined when the seed has no backup. */
export function renderSeedBackupBucket(seed: Seed): CoreBackupBucket | undefined {
  const backup = seed.spec.backup;
  if (!backup) return undefined;
  const name = seed.metadata!.name!;
  return {
    apiVersion: BACKUP_BUCKET_API_VERSION,
    kind: 'BackupBucket',
    metadata: {
      name: seedBackupBucketName(seed),
      annotations: { [Annotations.GardenerOperation]: Operations.OperationReconcile },
      ownerReferences: [
        {
          apiVersion: SEED_API_VERSION,
          kind: 'Seed',
          name,
          uid: seed.metadata!.uid!,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      provider: { type: backup.provider, region: backup.region ?? seed.spec.provider.region },
      ...(backup.providerConfig ? { providerConfig: backup.providerConfig } : {}),
      ...(backup.credentialsRef ? { credentialsRef: backup.credentialsRef } : {}),
      seedName: name,
    },
  } as CoreBackupBucket;
}

/** Whether `bucket` is controlled by `seed` (the one the seed reconciler created). */
export function controlledBySeed(bucket: CoreBackupBucket, seed: Seed): boolean {
  return (bucket.metadata?.ownerReferences ?? []).some(
    (ref) => ref.kind === 'Seed' && ref.controller === true && ref.uid === seed.metadata?.uid,
  );
}

/**
 * Creates or updates the seed's BackupBucket in the garden (get, then create or merge-patch, as Gardener's
 * CreateOrGetAndMergePatch: the seed authorizer lets a gardenlet read any bucket but patch only its own), or deletes
 * the one the seed controls when `spec.backup` is gone.
 */
export async function reconcileSeedBackupBucket(
  garden: Pick<Client, 'get' | 'create' | 'patch' | 'delete'>,
  seed: Seed,
): Promise<void> {
  const desired = renderSeedBackupBucket(seed);
  if (!desired && !seed.metadata?.uid) return;
  const key = { name: seedBackupBucketName(seed) };
  try {
    const existing = await garden.get(BackupBucketKind, key).catch(ignoreNotFound);
    if (!desired) {
      if (existing && !existing.metadata?.deletionTimestamp && controlledBySeed(existing, seed)) {
        await garden.delete(BackupBucketKind, key).catch(ignoreNotFound);
      }
      return;
    }
    if (!existing) {
      await garden.create(desired);
      return;
    }
    await garden.patch(BackupBucketKind, key, {
      type: 'merge',
      patch: {
        metadata: { annotations: desired.metadata!.annotations, ownerReferences: desired.metadata!.ownerReferences },
        // Fields the seed no longer has are removed (null in a merge patch).
        spec: { providerConfig: null, credentialsRef: null, ...desired.spec },
      },
    });
  } catch (err) {
    throw wrapError(
      err,
      `${desired ? 'deploying' : 'deleting'} the BackupBucket ${key.name} of Seed ${seed.metadata?.name}`,
    );
  }
}
