// Turning a CustomResourceDefinition into the resource definitions the server serves, and its status.
import type { PrinterColumn, ResourceDefinition } from '../registry/types.js';
import type { KubeObject } from '../storage/types.js';

const CR_VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

export function definitionsFromCRD(crd: KubeObject): ResourceDefinition[] {
  const spec = crd.spec ?? {};
  const names = spec.names ?? {};
  const versions: KubeObject[] = spec.versions ?? [];
  const storage = versions.find((v) => v.storage)?.name ?? versions[0]?.name;
  return versions.map((v) => ({
    group: spec.group,
    version: v.name,
    resource: names.plural,
    singular: names.singular || String(names.kind).toLowerCase(),
    kind: names.kind,
    listKind: names.listKind || `${names.kind}List`,
    namespaced: spec.scope === 'Namespaced',
    verbs: CR_VERBS,
    shortNames: names.shortNames,
    categories: names.categories,
    subresources: {
      status: !!v.subresources?.status,
      scale: v.subresources?.scale
        ? {
            specReplicasPath: v.subresources.scale.specReplicasPath,
            statusReplicasPath: v.subresources.scale.statusReplicasPath,
            labelSelectorPath: v.subresources.scale.labelSelectorPath,
          }
        : undefined,
    },
    served: v.served !== false,
    storageVersion: storage,
    schema: v.schema?.openAPIV3Schema,
    printerColumns: (v.additionalPrinterColumns as KubeObject[] | undefined)?.map((c): PrinterColumn => ({
      name: c.name,
      type: c.type,
      format: c.format,
      description: c.description,
      priority: c.priority,
      jsonPath: c.jsonPath,
    })),
    fieldLabels: selectableFields(v),
    custom: true,
    tracksGeneration: true,
  }));
}

/** A version's `selectableFields` (jsonPath `.spec.color`) as field labels (`spec.color`), as kube serves them. */
function selectableFields(version: KubeObject): Record<string, string> | undefined {
  const fields = (version.selectableFields as { jsonPath?: string }[] | undefined)
    ?.map((f) => String(f.jsonPath ?? '').replace(/^\./, ''))
    .filter(Boolean);
  return fields?.length ? Object.fromEntries(fields.map((f) => [f, f])) : undefined;
}

/** The status the CRD controller maintains: accepted names, Established/NamesAccepted conditions, stored versions. */
export function establishedStatus(crd: KubeObject, now: string, conflict?: string): KubeObject {
  const names = crd.spec?.names ?? {};
  const old: KubeObject[] = crd.status?.conditions ?? [];
  const condition = (type: string, status: string, reason: string, message: string) => {
    const previous = old.find((c) => c.type === type);
    return {
      type,
      status,
      lastTransitionTime: previous && previous.status === status ? previous.lastTransitionTime : now,
      reason,
      message,
    };
  };
  const storage = (crd.spec?.versions ?? []).find((v: KubeObject) => v.storage)?.name;
  const stored = new Set<string>([...(crd.status?.storedVersions ?? []), ...(storage ? [storage] : [])]);
  const conditions = conflict
    ? [
        condition('NamesAccepted', 'False', 'NameConflict', conflict),
        condition('Established', 'False', 'NotAccepted', 'not all names are accepted'),
      ]
    : [
        condition('NamesAccepted', 'True', 'NoConflicts', 'no conflicts found'),
        condition('Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted'),
      ];
  if (crd.metadata?.deletionTimestamp) {
    conditions.push(
      condition('Terminating', 'True', 'InstanceDeletionInProgress', 'CustomResource deletion is in progress'),
    );
  }
  return {
    conditions,
    acceptedNames: conflict
      ? { plural: '', kind: '' }
      : {
          plural: names.plural,
          singular: names.singular || String(names.kind).toLowerCase(),
          kind: names.kind,
          listKind: names.listKind || `${names.kind}List`,
          ...(names.shortNames ? { shortNames: names.shortNames } : {}),
          ...(names.categories ? { categories: names.categories } : {}),
        },
    storedVersions: [...stored],
  };
}
