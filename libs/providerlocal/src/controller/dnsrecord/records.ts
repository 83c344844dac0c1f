// What provider-local's DNSRecord actuator writes (pure): the local landscape has no DNS server; its cluster DNS is the
// pod network preload, which answers from the service proxy's state file. The proxy lists there every record of the
// ConfigMaps labelled `local.gardener.cloud/dns-records=true` (one `<name> <type> <value>...` line per record, the
// substrate's contract: libs/local-cluster/src/proxy/dns-records.ts). A DNSRecord becomes one such ConfigMap in its
// namespace. The kube-apiserver's names (`api.<shoot>.<project>.<internal|external>.local.gardener.cloud` in a shoot
// namespace) answer, as the CoreDNS rewrite of Gardener's provider-local does without SNI, with the namespace's
// `kube-apiserver` Service (a CNAME to its cluster name), so that connections to port 443 reach the API server through
// the service proxy; every other record keeps its type and values.
import { isIP } from 'node:net';
import type { ConfigMap } from '@gardener-ts/controller-runtime';
import type { ExtensionObject } from '@gardener-ts/extensions';

/** The label of ConfigMaps the local service proxy reads DNS records from (the substrate's contract). */
export const DNSRecordsLabel = 'local.gardener.cloud/dns-records';
/** The data key of the records in a DNSRecord's ConfigMap. */
export const DNSRecordsDataKey = 'records';
/** The Service of a shoot's API server in its control plane namespace. */
export const KubeAPIServerServiceName = 'kube-apiserver';

/** The record types the local DNS answers. */
export type LocalRecordType = 'A' | 'AAAA' | 'CNAME';

/** One record as the local DNS serves it. */
export interface LocalDNSRecord {
  name: string;
  type: LocalRecordType;
  values: string[];
}

// Gardener's provider-local rewrites these names to the shoot's API server (its CoreDNS rewrite rule).
const KubeAPIServerName = /^api\.[^.]+\.[^.]+\.[^.]+\.local\.gardener\.cloud$/;
const DNSName = /^(\*\.)?([a-z0-9]([-a-z0-9]*[a-z0-9])?)(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The ConfigMap name of a DNSRecord. */
export function dnsRecordConfigMapName(recordName: string): string {
  return `dnsrecord-${recordName}`;
}

const fail = (record: ExtensionObject, message: string): never => {
  throw new Error(`DNSRecord ${record.metadata?.namespace}/${record.metadata?.name}: ${message}`);
};

/**
 * The record the local DNS serves for a DNSRecord: `spec.name` with `spec.recordType` and `spec.values`, except the
 * kube-apiserver names of a shoot namespace, which are a CNAME to `kube-apiserver.<namespace>.svc.cluster.local`.
 * Throws (naming the field) for what the local DNS cannot answer: TXT records, malformed names or values.
 */
export function localRecordOf(record: ExtensionObject): LocalDNSRecord {
  const spec = record.spec as { name?: unknown; recordType?: unknown; values?: unknown };
  const name = typeof spec.name === 'string' ? spec.name.toLowerCase().replace(/\.$/, '') : '';
  if (!DNSName.test(name) || name.length > 253) fail(record, `spec.name ${JSON.stringify(spec.name)} is no DNS name`);
  const namespace = record.metadata?.namespace ?? '';
  if (KubeAPIServerName.test(name) && namespace.startsWith('shoot--')) {
    return { name, type: 'CNAME', values: [`${KubeAPIServerServiceName}.${namespace}.svc.cluster.local`] };
  }
  const type = spec.recordType;
  if (type !== 'A' && type !== 'AAAA' && type !== 'CNAME') {
    return fail(
      record,
      `spec.recordType ${JSON.stringify(type)} is not served by provider-local (its DNS answers A, AAAA and CNAME)`,
    );
  }
  const values = Array.isArray(spec.values) ? spec.values.map(String) : [];
  if (values.length === 0) fail(record, 'spec.values is empty');
  const family = { A: 4, AAAA: 6 }[type as 'A' | 'AAAA'];
  values.forEach((value, i) => {
    const ok = type === 'CNAME' ? DNSName.test(value.toLowerCase().replace(/\.$/, '')) : isIP(value) === family;
    if (!ok) fail(record, `spec.values[${i}] ${JSON.stringify(value)} is no ${type === 'CNAME' ? 'DNS name' : type}`);
  });
  if (type === 'CNAME' && values.length !== 1) fail(record, 'a CNAME record has exactly one value in spec.values');
  return {
    name,
    type,
    values: type === 'CNAME' ? [values[0]!.toLowerCase().replace(/\.$/, '')] : [...new Set(values)],
  };
}

/** The record as a line of the substrate's format: `<name> <type> <value>...`. */
export function recordLine(record: LocalDNSRecord): string {
  return [record.name, record.type, ...record.values].join(' ');
}

/** The ConfigMap holding a DNSRecord's record, in the DNSRecord's namespace. */
export function dnsRecordConfigMap(record: ExtensionObject): ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: dnsRecordConfigMapName(record.metadata!.name!),
      namespace: record.metadata!.namespace!,
      labels: { [DNSRecordsLabel]: 'true' },
    },
    data: { [DNSRecordsDataKey]: `${recordLine(localRecordOf(record))}\n` },
  };
}
