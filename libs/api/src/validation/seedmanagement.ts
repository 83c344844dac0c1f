// What ManagedSeed, ManagedSeedSet and Gardenlet validation share (Gardener's pkg/apis/seedmanagement/validation):
// the gardenlet deployment, its OCI chart, the embedded GardenletConfiguration, the operation annotation, label
// selectors and re-rooting the errors of a nested validation.
import { Annotations, Operations } from '../constants/index.js';
import { type FieldError, FieldPath, forbidden, invalid, notSupported, required } from './field.js';
import { validateNonNegative } from './common.js';
import { dns1123SubdomainErrors, validateAnnotations, validateLabels } from './names.js';

export const operationPath = FieldPath.root('metadata', 'annotations').key(Annotations.GardenerOperation);
/** Gardener's availableManagedSeedOperations, and the Gardenlet's (which adds force-redeploy). */
export const managedSeedOperations = [Operations.OperationReconcile, Operations.OperationRenewKubeconfig].sort();
export const gardenletOperations = [...managedSeedOperations, 'force-redeploy'].sort();

export function validateOperation(
  operation: string | undefined,
  available: readonly string[],
  path: FieldPath,
): FieldError[] {
  if (!operation) return [];
  return available.includes(operation) ? [] : [notSupported(path, operation, available)];
}

export function validateOperationUpdate(
  operation: string | undefined,
  old: string | undefined,
  path: FieldPath,
): FieldError[] {
  if (!operation || !old || operation === old) return [];
  return [forbidden(path, `must not overwrite operation ${JSON.stringify(old)} with ${JSON.stringify(operation)}`)];
}

interface Deployment {
  replicaCount?: number;
  revisionHistoryLimit?: number;
  serviceAccountName?: string;
  image?: { repository?: string; tag?: string; pullPolicy?: string };
  podLabels?: Record<string, string>;
  podAnnotations?: Record<string, string>;
}

const pullPolicies = ['Always', 'IfNotPresent', 'Never'];

export function validateGardenletDeployment(deployment: Deployment, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  errors.push(...validateNonNegative(deployment.replicaCount, path.child('replicaCount')));
  errors.push(...validateNonNegative(deployment.revisionHistoryLimit, path.child('revisionHistoryLimit')));
  if (deployment.serviceAccountName !== undefined) {
    for (const msg of dns1123SubdomainErrors(deployment.serviceAccountName))
      errors.push(invalid(path.child('serviceAccountName'), deployment.serviceAccountName, msg));
  }
  const image = deployment.image;
  if (image) {
    const p = path.child('image');
    if (image.repository === '')
      errors.push(invalid(p.child('repository'), '', 'repository must not be empty if specified'));
    if (image.tag === '') errors.push(invalid(p.child('tag'), '', 'tag must not be empty if specified'));
    if (image.pullPolicy !== undefined && !pullPolicies.includes(image.pullPolicy))
      errors.push(notSupported(p.child('pullPolicy'), image.pullPolicy, pullPolicies));
  }
  errors.push(...validateLabels(deployment.podLabels, path.child('podLabels')));
  errors.push(...validateAnnotations(deployment.podAnnotations, path.child('podAnnotations')));
  return errors;
}

/** Gardener's core ValidateOCIRepository. */
export function validateOCIRepository(
  oci: { ref?: string; repository?: string; tag?: string; digest?: string } | undefined,
  path: FieldPath,
): FieldError[] {
  if (!oci) return [];
  if (!oci.ref && !oci.repository) return [required(path, 'must provide either ref or repository')];
  if (oci.ref !== undefined) {
    return (['repository', 'tag', 'digest'] as const)
      .filter((f) => oci[f])
      .map((f) => forbidden(path.child(f), `cannot provide ${f} when ref is set`));
  }
  const errors: FieldError[] = [];
  if (!oci.repository) errors.push(required(path.child('repository')));
  if (!oci.tag && !oci.digest) errors.push(required(path, 'must provide either tag or digest'));
  return errors;
}

export interface GardenletConfiguration {
  apiVersion?: string;
  kind?: string;
  seedConfig?: { metadata?: { name?: string; labels?: Record<string, string> }; spec?: unknown };
  gardenClientConnection?: { kubeconfig?: string; bootstrapKubeconfig?: unknown; kubeconfigSecret?: unknown };
}

/** The embedded config, or an error when it is not a gardenlet.config.gardener.cloud/v1alpha1 GardenletConfiguration. */
export function asGardenletConfiguration(config: unknown, path: FieldPath): GardenletConfiguration | FieldError {
  const c = (config ?? {}) as GardenletConfiguration;
  if (c.apiVersion === 'gardenlet.config.gardener.cloud/v1alpha1' && c.kind === 'GardenletConfiguration') return c;
  return invalid(
    path,
    `${c.apiVersion}/${c.kind}`,
    `expected *gardenletconfigv1alpha1.GardenletConfiguration but got ${c.apiVersion ?? ''}/${c.kind ?? ''}`,
  );
}

export type BootstrapMode = 'BootstrapToken' | 'ServiceAccount' | 'None';

/** Gardener's validateGardenletConfig: the seed name is set by the controller; the garden kubeconfig fits the bootstrap mode. */
export function validateGardenletConfig(
  config: unknown,
  bootstrap: BootstrapMode,
  mergeWithParent: boolean,
  path: FieldPath,
): FieldError[] {
  const c = asGardenletConfiguration(config, path);
  if ('type' in c) return [c as FieldError];
  const errors: FieldError[] = [];
  const gc = c as GardenletConfiguration;
  if (gc.seedConfig?.metadata?.name)
    errors.push(forbidden(path.child('seedConfig', 'metadata', 'name'), 'seed name is forbidden'));
  const gcc = gc.gardenClientConnection;
  if (gcc) {
    const p = path.child('gardenClientConnection');
    if (bootstrap === 'ServiceAccount' || bootstrap === 'BootstrapToken') {
      if (gcc.kubeconfig)
        errors.push(forbidden(p.child('kubeconfig'), 'kubeconfig is forbidden if bootstrap is specified'));
    } else {
      if (!gcc.kubeconfig && !mergeWithParent)
        errors.push(
          required(
            p.child('kubeconfig'),
            'kubeconfig is required if bootstrap is not specified and merging with parent is disabled',
          ),
        );
      if (gcc.bootstrapKubeconfig != null)
        errors.push(
          forbidden(p.child('bootstrapKubeconfig'), 'bootstrap kubeconfig is forbidden if bootstrap is not specified'),
        );
      if (gcc.kubeconfigSecret != null)
        errors.push(
          forbidden(p.child('kubeconfigSecret'), 'kubeconfig secret is forbidden if bootstrap is not specified'),
        );
    }
  }
  return errors;
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** metav1validation.ValidateLabelSelector, shared with the local API server. */
export { validateLabelSelector } from './label-selector.js';

/** Errors of a nested validation, moved under `prefix` (`spec.x` → `spec.shootTemplate.spec.x`). */
export function reroot(errors: readonly FieldError[], prefix: FieldPath): FieldError[] {
  const p = prefix.toString();
  return errors.map((e) => ({
    ...e,
    field: e.field ? `${p}.${e.field}` : p,
    message: e.field ? `${p}.${e.message}` : `${p}: ${e.message}`,
  }));
}
