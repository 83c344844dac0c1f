// DNS records beyond Services (pure): the local cluster runs no DNS server, so records a program of the landscape must
// resolve (a shoot API server's `api.<shoot>.<project>.internal.local.gardener.cloud`, written by provider-local's
// DNSRecord controller) come from ConfigMaps labelled `local.gardener.cloud/dns-records=true`. Every data value of such
// a ConfigMap holds records, one per line: `<name> <type> <value>...` with type A, AAAA or CNAME (a CNAME has one
// value); `#` starts a comment. A name may be a wildcard (`*.ingress.example.com`). The service proxy lists the
// records in its state file, where the pod network preload answers them.

/** The label of ConfigMaps holding DNS records. */
export const DNSRecordsLabel = 'local.gardener.cloud/dns-records';

/** One record in the state file. */
export interface DNSRecordEntry {
  /** Lower case, without a trailing dot; `*.` first for a wildcard. */
  name: string;
  type: 'A' | 'AAAA' | 'CNAME';
  values: string[];
}

/** What the records of a ConfigMap come from. */
export interface RecordSource {
  namespace?: string;
  name?: string;
  data?: Record<string, string>;
}

/** The records of the ConfigMaps and the lines that were not records (`<namespace>/<name>: <line>: <why>`). */
export interface ParsedRecords {
  records: DNSRecordEntry[];
  problems: string[];
}

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

const normal = (name: string) => name.toLowerCase().replace(/\.$/, '');

function isDNSName(name: string, wildcard: boolean): boolean {
  const labels = name.split('.');
  if (wildcard && labels[0] === '*') labels.shift();
  return name.length <= 253 && labels.length > 0 && labels.every((l) => l.length <= 63 && LABEL.test(l));
}

function isIPv6(value: string): boolean {
  // Enough for records: hex groups with at most one `::`, or an IPv4 tail.
  if (!/^[0-9a-f:.]+$/i.test(value) || !value.includes(':') || value.split('::').length > 2) return false;
  const groups = value.split(':').filter((g) => g !== '');
  const tail = groups.at(-1)?.includes('.') ? groups.pop()! : undefined;
  if (tail !== undefined && !IPV4.test(tail)) return false;
  const max = tail === undefined ? 8 : 6;
  return groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g)) && groups.length <= max;
}

/** One line as a record, or why it is none. */
function parseLine(line: string): DNSRecordEntry | string {
  const [rawName = '', rawType = '', ...values] = line.split(/\s+/);
  const name = normal(rawName);
  const type = rawType.toUpperCase();
  if (!isDNSName(name, true)) return `${JSON.stringify(rawName)} is no DNS name`;
  if (type !== 'A' && type !== 'AAAA' && type !== 'CNAME')
    return `type ${JSON.stringify(rawType)} is not A, AAAA or CNAME`;
  if (values.length === 0) return 'no value';
  if (type === 'CNAME') {
    if (values.length !== 1) return 'a CNAME has one value';
    const target = normal(values[0]!);
    return isDNSName(target, false) ? { name, type, values: [target] } : `${JSON.stringify(values[0])} is no DNS name`;
  }
  const bad = values.find((v) => !(type === 'A' ? IPV4.test(v) : isIPv6(v)));
  return bad === undefined
    ? { name, type, values }
    : `${JSON.stringify(bad)} is no ${type === 'A' ? 'IPv4' : 'IPv6'} address`;
}

/**
 * The records of the ConfigMaps, merged: the addresses of one name and type are united; a CNAME stands alone, so for
 * a name with a CNAME and other records (or two CNAMEs) the ConfigMap first by namespace and name wins. Sorted by name
 * and type, each value list in order of appearance without duplicates: the result does not depend on the order of
 * `sources`.
 */
export function parseDNSRecords(sources: readonly RecordSource[]): ParsedRecords {
  const ordered = [...sources].sort((a, b) =>
    `${a.namespace ?? ''}/${a.name ?? ''}`.localeCompare(`${b.namespace ?? ''}/${b.name ?? ''}`),
  );
  const byName = new Map<string, DNSRecordEntry[]>();
  const problems: string[] = [];
  for (const source of ordered) {
    for (const key of Object.keys(source.data ?? {}).sort()) {
      for (const raw of (source.data![key] ?? '').split('\n')) {
        const line = raw.replace(/#.*$/, '').trim();
        if (!line) continue;
        const parsed = parseLine(line);
        if (typeof parsed === 'string') {
          problems.push(`${source.namespace}/${source.name}: ${JSON.stringify(line)}: ${parsed}`);
          continue;
        }
        const known = byName.get(parsed.name) ?? [];
        const cname = known.find((r) => r.type === 'CNAME');
        if (cname || (parsed.type === 'CNAME' && known.length > 0)) {
          problems.push(
            `${source.namespace}/${source.name}: ${JSON.stringify(line)}: ${parsed.name} has other records`,
          );
          continue;
        }
        const same = known.find((r) => r.type === parsed.type);
        if (same) same.values = [...new Set([...same.values, ...parsed.values])];
        else known.push({ ...parsed, values: [...new Set(parsed.values)] });
        byName.set(parsed.name, known);
      }
    }
  }
  const records = [...byName.values()]
    .flat()
    .sort((a, b) => a.name.localeCompare(b.name) || a.type.localeCompare(b.type));
  return { records, problems };
}
