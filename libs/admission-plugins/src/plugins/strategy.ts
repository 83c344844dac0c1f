// The API server's REST strategies for the Gardener kinds (gardener-apiserver `pkg/registry/*/strategy.go`):
// defaulting (`SetDefaults_*` of pkg/apis/core/v1beta1/defaults*.go) before the other mutating plugins run, and
// `Validate`/`ValidateUpdate` (pkg/apis/core/validation) after them — both taken from libs/api.
import { defaultObject, findKind, validateObject } from '@gardener-ts/api';
import { allow, invalidObject, mutated, type AdmissionAttributes, type KubeObject } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

const GROUPS = new Set([
  'core.gardener.cloud',
  'security.gardener.cloud',
  'seedmanagement.gardener.cloud',
  'operations.gardener.cloud',
  'settings.gardener.cloud',
]);

function knownObject(a: AdmissionAttributes): KubeObject | undefined {
  const object = a.object;
  if (!object || !GROUPS.has(a.kind.group)) return undefined;
  const apiVersion = object.apiVersion ?? `${a.kind.group}/${a.kind.version}`;
  const kind = object.kind ?? a.kind.kind;
  return findKind(apiVersion, kind) ? { ...object, apiVersion, kind } : undefined;
}

/** Defaults every known Gardener kind on CREATE and UPDATE of the main resource. */
export const StrategyDefaulting: AdmissionPlugin = {
  name: 'Defaulting',
  handles: (a) => (a.operation === 'CREATE' || a.operation === 'UPDATE') && !a.subresource,
  admit(a) {
    const object = knownObject(a);
    if (!object) return allow();
    return mutated(defaultObject(object as any) as KubeObject);
  },
};

/** Validates every known Gardener kind on CREATE and UPDATE (with the old object: immutable fields, transitions). */
export const StrategyValidation: AdmissionPlugin = {
  name: 'Validation',
  handles: (a) => (a.operation === 'CREATE' || a.operation === 'UPDATE') && !a.subresource,
  validate(a) {
    const object = knownObject(a);
    if (!object) return allow();
    const old = a.operation === 'UPDATE' && a.oldObject ? a.oldObject : undefined;
    const errors = validateObject(object as any, old as any);
    return errors.length > 0 ? invalidObject(a, errors) : allow();
  },
};
