// The heartbeat of an extension (Gardener's extensions/pkg/controller/heartbeat): the Lease
// `gardener-extension-heartbeat` in the extension's namespace, renewed periodically, tells gardenlet the extension runs.
import {
  Kinds,
  isNotFound,
  microTime,
  wrapError,
  type Client,
  type Lease,
  type ReconcileResult,
} from '@gardener-ts/controller-runtime';

/** The heartbeat Lease's name. */
export const HeartbeatLeaseName = 'gardener-extension-heartbeat';
/** Default renew interval: 30 s. */
export const DefaultRenewIntervalSeconds = 30;

/** What the heartbeat reconciler needs. */
export interface HeartbeatOptions {
  client: Pick<Client, 'get' | 'create' | 'update'>;
  /** The extension's name: the Lease's holder identity. */
  extensionName: string;
  /** The extension's namespace in the seed. */
  namespace: string;
  renewIntervalSeconds?: number;
  now?: () => Date;
}

/** The Lease as the heartbeat writes it (pure): holder = extension, duration = renew interval, renewed `now`. */
export function heartbeatLease(
  options: Pick<HeartbeatOptions, 'extensionName' | 'namespace' | 'renewIntervalSeconds'>,
  now: Date,
  existing?: Lease,
): Lease {
  return {
    ...(existing ?? {}),
    apiVersion: Kinds.Lease.apiVersion,
    kind: Kinds.Lease.kind,
    metadata: { ...(existing?.metadata ?? {}), name: HeartbeatLeaseName, namespace: options.namespace },
    spec: {
      ...(existing?.spec ?? {}),
      holderIdentity: options.extensionName,
      leaseDurationSeconds: options.renewIntervalSeconds ?? DefaultRenewIntervalSeconds,
      renewTime: microTime(now),
    },
  };
}

/** Creates or renews the heartbeat Lease. */
export class HeartbeatReconciler {
  constructor(private readonly options: HeartbeatOptions) {}

  async reconcile(): Promise<ReconcileResult | void> {
    const { client, namespace } = this.options;
    const now = (this.options.now ?? (() => new Date()))();
    let existing: Lease | undefined;
    try {
      existing = await client.get(Kinds.Lease, { namespace, name: HeartbeatLeaseName });
    } catch (err) {
      if (!isNotFound(err)) throw wrapError(err, `reading Lease ${namespace}/${HeartbeatLeaseName}`);
    }
    try {
      if (existing) await client.update(heartbeatLease(this.options, now, existing));
      else await client.create(heartbeatLease(this.options, now));
    } catch (err) {
      throw wrapError(err, `renewing Lease ${namespace}/${HeartbeatLeaseName}`);
    }
  }
}
