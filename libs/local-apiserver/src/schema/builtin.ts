// The generated OpenAPI definitions of built-in kinds (see scripts/generate-builtin-schemas.ts) and their names.
import generated from './builtin-definitions.json' with { type: 'json' };
import { definitionResolver } from './navigate.js';
import type { OpenAPISchema } from './types.js';

export const BUILTIN_DEFINITIONS = (generated as unknown as { definitions: Record<string, OpenAPISchema> }).definitions;

export const builtinResolver = definitionResolver(BUILTIN_DEFINITIONS);

/** Types of k8s.io/apimachinery's meta/v1 that client-node models like API types (`V1ObjectMeta`, `V1Condition`). */
const META_TYPES = new Set([
  'Condition',
  'DeleteOptions',
  'FieldSelectorRequirement',
  'LabelSelector',
  'LabelSelectorRequirement',
  'ListMeta',
  'ManagedFieldsEntry',
  'ObjectMeta',
  'OwnerReference',
  'Preconditions',
  'Status',
  'StatusCause',
  'StatusDetails',
]);

/** API groups of client-node's group-prefixed models (`CoreV1Event`, `EventsV1Event`, `RbacV1Subject`). */
const PREFIX_GROUPS: Record<string, string> = {
  Core: '',
  Apiextensions: 'apiextensions.k8s.io',
  Apiregistration: 'apiregistration.k8s.io',
};

/** kube's definition-name prefix of an API group's Go package: `apps` → `io.k8s.api.apps`, `` → `io.k8s.api.core`. */
export function groupPackage(group: string): string {
  if (group === '') return 'io.k8s.api.core';
  if (group === 'apiextensions.k8s.io') return 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions';
  if (group === 'apiregistration.k8s.io') return 'io.k8s.kube-aggregator.pkg.apis.apiregistration';
  return `io.k8s.api.${group.split('.')[0]}`;
}

/** A client-node model's version, kind and the API group its prefix names, if any (`EventsV1Event`). */
export function parseModel(model: string): { group?: string; version: string; kind: string } | undefined {
  const m = /^([A-Z][a-z]+)?(V\d+(?:alpha\d+|beta\d+)?)([A-Z].*)$/.exec(model);
  if (!m) return undefined;
  const [, prefix, version, kind] = m;
  const group = prefix === undefined ? undefined : (PREFIX_GROUPS[prefix] ?? prefix.toLowerCase());
  return { group, version: version.toLowerCase(), kind };
}

/**
 * kube's definition name of a client-node model, e.g. `V1DeploymentSpec` of group `apps` →
 * `io.k8s.api.apps.v1.DeploymentSpec`. The models do not carry their group: `group` is the one the type belongs to
 * (the generator works it out from the kinds that use it); a group prefix of the model and meta/v1 types win.
 */
export function builtinDefinitionName(model: string, group: string): string {
  const parsed = parseModel(model);
  if (!parsed) throw new Error(`not a client-node API model: ${model}`);
  const { version, kind } = parsed;
  if (parsed.group === undefined && version === 'v1' && META_TYPES.has(kind))
    return `io.k8s.apimachinery.pkg.apis.meta.v1.${kind}`;
  return `${groupPackage(parsed.group ?? group)}.${version}.${kind}`;
}

export const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
