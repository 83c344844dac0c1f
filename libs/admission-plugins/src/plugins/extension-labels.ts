// ExtensionLabels (gardener-apiserver plugin/pkg/global/extensionlabels): labels every object with the extension
// types it needs (`provider.extensions.gardener.cloud/<type>=true`, `networking...`, `extensions...`,
// `operatingsystemconfig...`, `container-runtime...`, `dnsrecord...`), so controllers can select them by type.
import { allow, CORE, isKind, mutated, SECURITY, type AdmissionAttributes, type KubeObject } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

export const ExtensionLabelPrefix = {
  provider: 'provider.extensions.gardener.cloud/',
  networking: 'networking.extensions.gardener.cloud/',
  extension: 'extensions.extensions.gardener.cloud/',
  operatingSystemConfig: 'operatingsystemconfig.extensions.gardener.cloud/',
  containerRuntime: 'container-runtime.extensions.gardener.cloud/',
  dnsRecord: 'dnsrecord.extensions.gardener.cloud/',
} as const;

const ALL_PREFIXES = Object.values(ExtensionLabelPrefix);

const compact = (values: (string | undefined | null)[]) =>
  values.filter((v): v is string => typeof v === 'string' && v !== '');

/** The extension labels an object of `kind` carries, from its spec. */
export function extensionLabels(kind: string, object: KubeObject): Record<string, string> {
  const spec = object.spec ?? {};
  const labels: [string, string[]][] = [];
  const extensionTypes = (spec.extensions ?? []).map((e: { type?: string }) => e.type);
  switch (kind) {
    case 'Shoot': {
      const workers: any[] = spec.provider?.workers ?? [];
      labels.push([ExtensionLabelPrefix.provider, compact([spec.provider?.type])]);
      labels.push([ExtensionLabelPrefix.networking, compact([spec.networking?.type])]);
      labels.push([ExtensionLabelPrefix.extension, compact(extensionTypes)]);
      labels.push([ExtensionLabelPrefix.operatingSystemConfig, compact(workers.map((w) => w.machine?.image?.name))]);
      labels.push([
        ExtensionLabelPrefix.containerRuntime,
        compact(workers.flatMap((w) => (w.cri?.containerRuntimes ?? []).map((r: { type?: string }) => r.type))),
      ]);
      labels.push([
        ExtensionLabelPrefix.dnsRecord,
        compact((spec.dns?.providers ?? []).filter((p: any) => p.primary).map((p: any) => p.type)),
      ]);
      break;
    }
    case 'Seed':
      labels.push([ExtensionLabelPrefix.provider, compact([spec.provider?.type, spec.backup?.provider])]);
      labels.push([ExtensionLabelPrefix.extension, compact(extensionTypes)]);
      labels.push([ExtensionLabelPrefix.dnsRecord, compact([spec.dns?.provider?.type])]);
      break;
    case 'CloudProfile':
    case 'NamespacedCloudProfile':
      labels.push([ExtensionLabelPrefix.provider, compact([spec.type])]);
      break;
    case 'BackupBucket':
    case 'BackupEntry':
      labels.push([ExtensionLabelPrefix.provider, compact([spec.provider?.type])]);
      break;
    case 'SecretBinding':
      labels.push([ExtensionLabelPrefix.provider, compact(String(object.provider?.type ?? '').split(','))]);
      break;
    case 'CredentialsBinding':
      labels.push([ExtensionLabelPrefix.provider, compact([object.provider?.type])]);
      break;
  }
  const result: Record<string, string> = {};
  for (const [prefix, types] of labels) for (const type of types) result[`${prefix}${type.trim()}`] = 'true';
  return result;
}

const KINDS: [string, string][] = [
  [CORE, 'Shoot'],
  [CORE, 'Seed'],
  [CORE, 'CloudProfile'],
  [CORE, 'NamespacedCloudProfile'],
  [CORE, 'BackupBucket'],
  [CORE, 'BackupEntry'],
  [CORE, 'SecretBinding'],
  [SECURITY, 'CredentialsBinding'],
];

/** The ExtensionLabels admission plugin: replaces the object's extension labels by those its spec needs. */
export const ExtensionLabels: AdmissionPlugin = {
  name: 'ExtensionLabels',
  handles: (a: AdmissionAttributes) =>
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object) &&
    KINDS.some(([group, kind]) => isKind(a, group, kind)),
  admit(a) {
    const object = a.object!;
    const current = object.metadata?.labels ?? {};
    const kept = Object.fromEntries(
      Object.entries(current).filter(([key]) => !ALL_PREFIXES.some((p) => key.startsWith(p))),
    );
    const labels = { ...kept, ...extensionLabels(a.kind.kind, object) };
    if (JSON.stringify(Object.entries(labels).sort()) === JSON.stringify(Object.entries(current).sort()))
      return allow();
    return mutated({ ...object, metadata: { ...object.metadata, labels } });
  },
};
