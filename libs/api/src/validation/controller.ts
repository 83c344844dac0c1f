// validateControllerRegistration, validateControllerDeployment, validateControllerInstallation.
import type {
  ControllerDeployment,
  ControllerInstallation,
  ControllerRegistration,
} from '../core/v1beta1/controller.js';
import { type FieldError, FieldPath, forbidden, immutable, invalid, notSupported, required, tooMany } from './field.js';
import { validateStringEnum, validateUnique } from './common.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './names.js';

const spec = FieldPath.root('spec');

/** Kinds of extension resources a controller can register for. */
export const ExtensionKinds = [
  'BackupBucket',
  'BackupEntry',
  'Bastion',
  'ContainerRuntime',
  'ControlPlane',
  'DNSRecord',
  'Extension',
  'Infrastructure',
  'Network',
  'OperatingSystemConfig',
  'SelfHostedShootExposure',
  'Worker',
];
const lifecycleStrategies = ['BeforeKubeAPIServer', 'AfterKubeAPIServer', 'AfterWorker'];
const clusterTypes = ['shoot', 'seed', 'garden'];

export function validateControllerRegistration(
  registration: ControllerRegistration,
  old?: ControllerRegistration,
): FieldError[] {
  const errors = validateObjectMeta(registration.metadata, { namespaced: false });
  const s = registration.spec ?? {};
  const resources = s.resources ?? [];
  resources.forEach((resource, i) => {
    const p = spec.child('resources').index(i);
    errors.push(...validateStringEnum(resource.kind, p.child('kind'), ExtensionKinds));
    if (!resource.type) errors.push(required(p.child('type'), 'field is required'));
    const isExtension = resource.kind === 'Extension';
    if (!isExtension) {
      for (const field of [
        'globallyEnabled',
        'reconcileTimeout',
        'lifecycle',
        'autoEnable',
        'clusterCompatibility',
      ] as const) {
        if (resource[field] !== undefined)
          errors.push(forbidden(p.child(field), `field must not be set when kind != Extension`));
      }
    }
    for (const phase of ['reconcile', 'delete', 'migrate'] as const) {
      const strategy = resource.lifecycle?.[phase];
      if (strategy !== undefined)
        errors.push(...validateStringEnum(strategy, p.child('lifecycle', phase), lifecycleStrategies));
    }
    (resource.autoEnable ?? []).forEach((t, j) =>
      errors.push(...validateStringEnum(t, p.child('autoEnable').index(j), clusterTypes)),
    );
    (resource.clusterCompatibility ?? []).forEach((t, j) =>
      errors.push(...validateStringEnum(t, p.child('clusterCompatibility').index(j), clusterTypes)),
    );
    for (const type of resource.autoEnable ?? []) {
      if (resource.clusterCompatibility && !resource.clusterCompatibility.includes(type)) {
        errors.push(
          forbidden(
            p.child('autoEnable'),
            `autoEnable for cluster type "${type}" requires it to be listed in clusterCompatibility`,
          ),
        );
      }
    }
  });
  errors.push(...validateUnique(resources, spec.child('resources'), (r) => `${r.kind}/${r.type}`));
  if (s.deployment) {
    const p = spec.child('deployment');
    if (s.deployment.policy !== undefined) {
      errors.push(
        ...validateStringEnum(s.deployment.policy, p.child('policy'), ['OnDemand', 'Always', 'AlwaysExceptNoShoots']),
      );
    }
    const refs = s.deployment.deploymentRefs ?? [];
    if (refs.length > 1) errors.push(tooMany(p.child('deploymentRefs'), refs.length, 1));
    refs.forEach((ref, i) => {
      if (!ref.name) errors.push(required(p.child('deploymentRefs').index(i).child('name'), 'must not be empty'));
    });
  }
  if (old) {
    errors.push(...validateObjectMetaUpdate(registration.metadata, old.metadata));
    const oldPrimary = new Map((old.spec?.resources ?? []).map((r) => [`${r.kind}/${r.type}`, r.primary ?? true]));
    resources.forEach((resource, i) => {
      const before = oldPrimary.get(`${resource.kind}/${resource.type}`);
      if (before !== undefined && before !== (resource.primary ?? true)) {
        errors.push(immutable(spec.child('resources').index(i).child('primary'), resource.primary));
      }
    });
  }
  return errors;
}

export function validateControllerDeployment(
  deployment: ControllerDeployment,
  old?: ControllerDeployment,
): FieldError[] {
  const errors = validateObjectMeta(deployment.metadata, { namespaced: false });
  const helm = deployment.helm;
  const path = FieldPath.root('helm');
  if (!helm) errors.push(required(path, 'must provide a deployment configuration'));
  else {
    const oci = helm.ociRepository;
    if (helm.rawChart === undefined && oci === undefined)
      errors.push(required(path, 'must provide either rawChart or ociRepository'));
    if (helm.rawChart !== undefined && oci !== undefined)
      errors.push(forbidden(path, 'must provide either rawChart or ociRepository, not both'));
    if (oci) {
      const p = path.child('ociRepository');
      if (
        oci.ref !== undefined &&
        (oci.repository !== undefined || oci.tag !== undefined || oci.digest !== undefined)
      ) {
        errors.push(invalid(p, oci, 'ref is mutually exclusive with repository, tag and digest'));
      }
      if (oci.ref === undefined && oci.repository === undefined)
        errors.push(required(p.child('repository'), 'must provide either ref or repository'));
      if (oci.repository !== undefined && oci.tag === undefined && oci.digest === undefined) {
        errors.push(required(p, 'must provide tag or digest together with repository'));
      }
    }
  }
  // Resources the Helm values may refer to: Secrets and ConfigMaps (v1) in the garden namespace, by unique names.
  const resources = FieldPath.root('resources');
  errors.push(...validateUnique(deployment.resources, resources, (r) => r.name, 'name'));
  (deployment.resources ?? []).forEach((resource, i) => {
    const p = resources.index(i);
    if (!resource.name) errors.push(required(p.child('name'), 'must provide a name'));
    const ref = p.child('resourceRef');
    if (!resource.resourceRef.name) errors.push(required(ref.child('name'), 'must provide a name'));
    if (!['Secret', 'ConfigMap'].includes(resource.resourceRef.kind)) {
      errors.push(notSupported(ref.child('kind'), resource.resourceRef.kind, ['ConfigMap', 'Secret']));
    }
    if (resource.resourceRef.apiVersion !== 'v1') {
      errors.push(notSupported(ref.child('apiVersion'), resource.resourceRef.apiVersion ?? '', ['v1']));
    }
  });
  if (old) errors.push(...validateObjectMetaUpdate(deployment.metadata, old.metadata));
  return errors;
}

export function validateControllerInstallation(
  installation: ControllerInstallation,
  old?: ControllerInstallation,
): FieldError[] {
  const errors = validateObjectMeta(installation.metadata, { namespaced: false });
  const s = installation.spec;
  if (!s?.registrationRef?.name) errors.push(required(spec.child('registrationRef', 'name'), 'field is required'));
  const targets = [s?.seedRef, s?.shootRef].filter((ref) => ref !== undefined);
  if (targets.length !== 1) errors.push(invalid(spec, undefined, 'exactly one of seedRef and shootRef must be set'));
  if (s?.seedRef && !s.seedRef.name) errors.push(required(spec.child('seedRef', 'name'), 'field is required'));
  if (old) {
    errors.push(...validateObjectMetaUpdate(installation.metadata, old.metadata));
    for (const field of ['registrationRef', 'seedRef', 'shootRef', 'deploymentRef'] as const) {
      const before = old.spec[field];
      if (before !== undefined && JSON.stringify(s?.[field]?.name) !== JSON.stringify(before.name)) {
        errors.push(immutable(spec.child(field, 'name'), s?.[field]?.name));
      }
    }
  }
  return errors;
}
