// The DNSRecords provider-local makes of an Ingress in a shoot namespace (Gardener's provider-local ingress
// controller): one DNSRecord of type `local` per rule host, pointing at the Ingress's load balancer IP, so the hosts
// of the seed's Ingresses (the wildcard ingress domain) resolve for the shoot's machines. A pure mapping.
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';

/** An Ingress as far as the mapping reads it. */
export interface IngressObject extends KubernetesObject {
  spec?: { rules?: { host?: string }[] };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
}

/** A DNSRecord the controller applies. */
export interface IngressDNSRecord extends KubernetesObject {
  spec: {
    type: string;
    recordType: 'A' | 'AAAA' | 'CNAME';
    name: string;
    values: string[];
    secretRef: { name: string };
  };
}

/** Labels of the DNSRecords made for Ingresses. */
export const IngressDNSRecordLabels = { origin: 'provider-local', for: 'ingress' } as const;
/** The Secret a DNSRecord must name; the local DNS provider reads none (Gardener's provider-local uses this name too). */
export const IngressDNSRecordSecretName = 'provider-local-is-awesome';
/** Gardener's annotation that lets a DNSRecord be deleted (the owner's garbage collection) without confirmation. */
export const ConfirmationDeletionAnnotation = 'confirmation.gardener.cloud/deletion';

/** The first IP of the Ingress's load balancer, if it has one. */
export function loadBalancerIPOf(ingress: IngressObject): string | undefined {
  return ingress.status?.loadBalancer?.ingress?.find((i) => i.ip)?.ip;
}

/** The record type of a value: A for an IPv4 address, AAAA for IPv6, CNAME otherwise (Gardener's GetDNSRecordType). */
export function recordTypeOf(value: string): 'A' | 'AAAA' | 'CNAME' {
  const family = isIP(value);
  return family === 4 ? 'A' : family === 6 ? 'AAAA' : 'CNAME';
}

/** The name of the DNSRecord of `host` for Ingress `ingressName`: `<ingress>-<first 8 hex of sha256(host)>`. */
export function ingressDNSRecordName(ingressName: string, host: string): string {
  return `${ingressName}-${createHash('sha256').update(host).digest('hex').slice(0, 8)}`;
}

/** The DNSRecords of an Ingress with load balancer IP `ip`: one per rule with a host, controlled by the Ingress. */
export function dnsRecordsForIngress(ingress: IngressObject, ip: string): IngressDNSRecord[] {
  const { name = '', namespace = '', uid = '' } = ingress.metadata ?? {};
  const hosts = [...new Set((ingress.spec?.rules ?? []).flatMap((r) => (r.host ? [r.host] : [])))];
  return hosts.map((host) => ({
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'DNSRecord',
    metadata: {
      name: ingressDNSRecordName(name, host),
      namespace,
      labels: { ...IngressDNSRecordLabels },
      annotations: { [ConfirmationDeletionAnnotation]: 'true' },
      ownerReferences: [
        { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name, uid, controller: true, blockOwnerDeletion: true },
      ],
    },
    spec: {
      type: 'local',
      recordType: recordTypeOf(ip),
      name: host,
      values: [ip],
      secretRef: { name: IngressDNSRecordSecretName },
    },
  }));
}
