// Cleaning the shoot before its machines and control plane go (Gardener's `botanist/cleanup.go` and its cleaner): the
// delete flow deletes what users and their controllers created in the shoot — webhooks first (so they cannot block the
// rest), then extended APIs (APIServices, CRDs and with them their objects), then workloads, Services, Ingresses and
// PVCs in every namespace — and waits until they are gone. Objects of Gardener's system components
// (`gardener.cloud/role=system-component`), objects marked `shoot.gardener.cloud/no-cleanup=true` (everything the
// shoot's ManagedResources deploy), the `kubernetes` Service (`provider=kubernetes`) and the APIServices kube-aggregator
// manages are kept. An object still there after its finalize grace period since its deletion loses its finalizers.
// A kind the shoot's API server does not serve is skipped.
import { ErrorCode } from '@gardener-ts/api';
import {
  CodedError,
  isNotFound,
  kind,
  type Client,
  type Kind,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import { sleep } from '@gardener-ts/flow';
import { pollDelays } from './poll.js';

/** Gardener's cleanup selector: no system components, nothing marked for no cleanup. */
export const CleanupSelector = 'gardener.cloud/role!=system-component,shoot.gardener.cloud/no-cleanup!=true';

/** The annotation that limits the cleanup of Kubernetes resources to Services and PVCs. */
export const SkipCleanupAnnotation = 'shoot.gardener.cloud/skip-cleanup';

/** What one cleaning pass deletes: kinds and the label selector each is listed with. */
export interface CleanTarget {
  readonly kind: Kind;
  readonly labelSelector: string;
}

const target = (apiVersion: string, kindName: string, labelSelector = CleanupSelector): CleanTarget => ({
  kind: kind(apiVersion, kindName),
  labelSelector,
});

/** "Cleaning up webhooks". */
export const WebhookTargets: readonly CleanTarget[] = [
  target('admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration'),
  target('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration'),
];

/** "Cleaning extended API groups". */
export const ExtendedAPITargets: readonly CleanTarget[] = [
  target(
    'apiregistration.k8s.io/v1',
    'APIService',
    'gardener.cloud/role!=system-component,!kube-aggregator.kubernetes.io/automanaged',
  ),
  target('apiextensions.k8s.io/v1', 'CustomResourceDefinition'),
];

/** "Cleaning Kubernetes resources". */
export const KubernetesResourceTargets: readonly CleanTarget[] = [
  target('batch/v1', 'CronJob'),
  target('apps/v1', 'DaemonSet'),
  target('apps/v1', 'Deployment'),
  target('networking.k8s.io/v1', 'Ingress'),
  target('batch/v1', 'Job'),
  target('v1', 'Pod'),
  target('apps/v1', 'ReplicaSet'),
  target('v1', 'ReplicationController'),
  target('v1', 'Service', `provider!=kubernetes,${CleanupSelector}`),
  target('apps/v1', 'StatefulSet'),
  target('v1', 'PersistentVolumeClaim'),
];

/** Options of a cleaning pass. */
export interface CleanOptions {
  /** The grace period of each deletion (Gardener's five minutes; Pods end sooner when they can). */
  readonly gracePeriodSeconds?: number;
  /** How long after its deletion an object that is still there loses its finalizers (Gardener's five minutes). */
  readonly finalizeAfterMs?: number;
  readonly now?: () => Date;
}

const describeObject = (obj: KubernetesObject) =>
  `${obj.kind} ${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata?.name}`;

/**
 * One pass: deletes every matching object of `targets` that is not being deleted yet, removes the finalizers of those
 * deleted longer than the finalize grace period ago, and returns what is still there (empty: clean).
 */
export async function cleanPass(
  shoot: Pick<Client, 'list' | 'delete' | 'patch'>,
  targets: readonly CleanTarget[],
  options: CleanOptions = {},
): Promise<string[]> {
  const now = (options.now?.() ?? new Date()).getTime();
  const finalizeAfter = options.finalizeAfterMs ?? 5 * 60_000;
  const remaining: string[] = [];
  for (const { kind: k, labelSelector } of targets) {
    let items: KubernetesObject[];
    try {
      items = (await shoot.list(k, { labelSelector })).items;
    } catch (err) {
      if (isNotFound(err)) continue; // not served by this API server
      throw err;
    }
    for (const obj of items) {
      const key = { namespace: obj.metadata?.namespace, name: obj.metadata?.name ?? '' };
      const deleting = obj.metadata?.deletionTimestamp;
      if (!deleting) {
        await shoot.delete(k, key, { gracePeriodSeconds: options.gracePeriodSeconds ?? 300 }).catch((err: unknown) => {
          if (!isNotFound(err)) throw err;
        });
      } else if ((obj.metadata?.finalizers?.length ?? 0) > 0 && Date.parse(deleting) + finalizeAfter <= now) {
        await shoot
          .patch(k, key, { type: 'merge', patch: { metadata: { finalizers: null } } })
          .catch((err: unknown) => {
            if (!isNotFound(err)) throw err;
          });
      }
      remaining.push(describeObject({ ...obj, kind: k.kind }));
    }
  }
  return remaining;
}

/**
 * Cleans `targets` until nothing matching is left, polling as the flow's other waits do ({@link pollDelays}); a timeout fails with
 * ERR_CLEANUP_CLUSTER_RESOURCES and names what is left.
 */
export async function cleanUntilGone(
  shoot: Pick<Client, 'list' | 'delete' | 'patch'>,
  targets: readonly CleanTarget[],
  wait: { interval: number; timeout: number },
  signal: AbortSignal,
  options: CleanOptions = {},
): Promise<void> {
  const deadline = Date.now() + wait.timeout;
  const delays = pollDelays(wait.interval);
  for (;;) {
    signal.throwIfAborted();
    const remaining = await cleanPass(shoot, targets, options);
    if (remaining.length === 0) return;
    if (Date.now() >= deadline) {
      const shown = remaining.slice(0, 5).join(', ');
      throw new CodedError(
        `resources in the shoot are not gone yet: ${shown}${remaining.length > 5 ? ` and ${remaining.length - 5} more` : ''}`,
        [ErrorCode.CleanupClusterResources],
      );
    }
    await sleep(delays.next().value, signal);
  }
}
