// provider-local's Ingress controller (Gardener's pkg/provider-local/controller/ingress): an Ingress in a shoot
// namespace (label `gardener.cloud/role=shoot`) with a load balancer IP gets a DNSRecord of type `local` per host
// (records.ts), applied server-side; the DNSRecords go with the Ingress (owner reference).
import {
  Kinds,
  isNotFound,
  kind,
  wrapError,
  type Client,
  type ReconcileContext,
  type Request,
} from '@gardener-ts/controller-runtime';
import { dnsRecordsForIngress, loadBalancerIPOf, type IngressDNSRecord, type IngressObject } from './records.js';

/** The field manager of the applied DNSRecords. */
export const FieldManager = 'provider-local';
const DNSRecordKind = kind<IngressDNSRecord>('extensions.gardener.cloud/v1alpha1', 'DNSRecord');
const GardenRoleLabel = 'gardener.cloud/role';

/** Reconciles Ingresses of shoot namespaces into DNSRecords. */
export class IngressReconciler {
  constructor(private readonly client: Pick<Client, 'get' | 'patch'>) {}

  async reconcile(req: Request, ctx?: ReconcileContext): Promise<void> {
    let ingress: IngressObject;
    try {
      ingress = (await this.client.get(Kinds.Ingress, req)) as IngressObject;
    } catch (err) {
      if (isNotFound(err)) return;
      throw wrapError(err, `reading Ingress ${req.namespace}/${req.name}`);
    }
    if (ingress.metadata?.deletionTimestamp || !(await this.inShootNamespace(req.namespace ?? ''))) return;
    const ip = loadBalancerIPOf(ingress);
    if (!ip) {
      ctx?.log.debug('skipping the Ingress: it has no load balancer IP');
      return;
    }
    for (const record of dnsRecordsForIngress(ingress, ip)) {
      await this.client
        .patch(
          DNSRecordKind,
          { namespace: record.metadata!.namespace, name: record.metadata!.name! },
          {
            type: 'apply',
            patch: record as unknown as Record<string, unknown>,
            fieldManager: FieldManager,
            force: true,
          },
        )
        .catch((err: unknown) => {
          throw wrapError(err, `applying DNSRecord ${record.metadata!.name} for host ${record.spec.name}`);
        });
    }
  }

  private async inShootNamespace(name: string): Promise<boolean> {
    try {
      const namespace = await this.client.get(Kinds.Namespace, { name });
      return namespace.metadata?.labels?.[GardenRoleLabel] === 'shoot';
    } catch (err) {
      if (isNotFound(err)) return false;
      throw wrapError(err, `reading Namespace ${name}`);
    }
  }
}
