// The shoot's core BackupEntry in the reconcile flow (Gardener's `botanist/backupentry.go` over
// `component/garden/backupentry`): "Deploying backup entry" creates or updates `<technical ID>--<shoot UID>` in the
// project namespace with the reconcile request — in the seed's BackupBucket (named by the seed's UID) when it is new,
// keeping the bucket of an existing entry — and "Waiting until the backup entry has been reconciled" polls it until the
// gardenlet's BackupEntry controller reports it Succeeded for that request (Gardener's `health.CheckBackupEntry`),
// failing with its lastError. The delete flow has no BackupEntry task: the garden's garbage collector deletes the
// entry after the Shoot (owner reference), which starts its grace period.
import { corev1beta1 } from '@gardener-ts/api';
import { ignoreNotFound, kindFrom, type Client } from '@gardener-ts/controller-runtime';
import { renderBackupEntry } from '../component/extensions.js';
import type { ShootValues } from '../component/values.js';
import { extensionReadiness } from './extension-resources.js';
import { waitForObject, type BotanistWait, type ObjectWaitClient } from './poll.js';

const BackupEntryKind = kindFrom<corev1beta1.BackupEntry>(corev1beta1.BackupEntryKind);

/** How long the flow waits for the BackupEntry (Gardener's 10 minutes, polled every 5 s at most). */
export const DefaultBackupEntryWait: BotanistWait = { interval: 5_000, timeout: 600_000 };

/** The name of a seed's BackupBucket, as the seed reconciler names it: the seed's UID. */
export function backupBucketName(seed: { metadata?: { name?: string; uid?: string } }): string {
  const uid = seed.metadata?.uid;
  if (!uid) throw new Error(`seed ${seed.metadata?.name} has no uid to name its BackupBucket`);
  return uid;
}

/**
 * Why the core BackupEntry is not reconciled for the request of `timestamp` (any, when not given) yet, or undefined
 * when it is (pure):
 * Gardener's `CheckBackupEntry` — the request picked up, the generation observed, the last operation Succeeded and
 * no older than the request — with the entry's lastError appended.
 */
export function backupEntryNotReady(entry: corev1beta1.BackupEntry, timestamp?: string): string | undefined {
  const readiness = extensionReadiness(entry, timestamp);
  if (readiness.ready) return undefined;
  return readiness.lastError ? `${readiness.reason} (last error: ${readiness.lastError})` : readiness.reason;
}

/** The BackupEntry steps of one flow run (they remember the request they made). */
export class BackupEntrySteps {
  private requested: string | undefined;

  constructor(
    private readonly garden: Pick<Client, 'get' | 'create' | 'patch'> & ObjectWaitClient,
    private readonly values: ShootValues,
    private readonly options: { now?: () => Date; wait?: BotanistWait } = {},
  ) {}

  private get key() {
    const entry = this.render('');
    return { namespace: entry.metadata?.namespace, name: entry.metadata?.name ?? '' };
  }

  private render(bucketName: string, now?: string): corev1beta1.BackupEntry {
    const entry = renderBackupEntry(this.values, { bucketName, ...(now ? { now } : {}) });
    if (!entry) throw new Error(`seed ${this.values.seed.metadata?.name} has no backup (spec.backup)`);
    return entry;
  }

  /** "Deploying backup entry": creates the entry, or updates it keeping its bucket, with a reconcile request. */
  async deploy(): Promise<void> {
    const existing = await this.garden.get(BackupEntryKind, this.key).catch(ignoreNotFound);
    const now = (this.options.now?.() ?? new Date()).toISOString();
    const entry = this.render(existing?.spec.bucketName ?? backupBucketName(this.values.seed), now);
    if (!existing) {
      await this.garden.create(entry);
    } else {
      await this.garden.patch(BackupEntryKind, this.key, {
        type: 'merge',
        patch: {
          metadata: { annotations: entry.metadata?.annotations, ownerReferences: entry.metadata?.ownerReferences },
          spec: entry.spec,
        },
      });
    }
    this.requested = now;
  }

  /** "Waiting until the backup entry has been reconciled": Succeeded for this run's request, or its lastError. */
  async wait(signal: AbortSignal): Promise<void> {
    const { namespace, name } = this.key;
    const timestamp = this.requested;
    await waitForObject(
      this.garden,
      BackupEntryKind,
      { namespace, name },
      (entry) => (entry ? backupEntryNotReady(entry, timestamp) : 'does not exist'),
      this.options.wait ?? DefaultBackupEntryWait,
      signal,
    );
  }
}
