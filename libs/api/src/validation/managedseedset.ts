// validateManagedSeedSet (Gardener's pkg/apis/seedmanagement/validation/managedseedset.go): a set of ManagedSeeds and
// their Shoots made from templates, whose labels the selector must match; and its status update rules.
import type { ManagedSeedSet } from '../seedmanagement/v1alpha1/gardenlet.js';
import type { Shoot } from '../core/v1beta1/shoot.js';
import { GardenNamespace } from '../constants/namespaces.js';
import { labelSelectorAsSelector, LabelSelectorError } from '../selector.js';
import { type FieldError, FieldPath, forbidden, immutable, invalid, notSupported, required } from './field.js';
import { validateNonNegative } from './common.js';
import { validateAnnotations, validateLabels, validateObjectMeta, validateObjectMetaUpdate } from './names.js';
import { validateShoot } from './shoot/index.js';
import {
  asGardenletConfiguration,
  reroot,
  validateGardenletConfig,
  validateGardenletDeployment,
  validateLabelSelector,
  type BootstrapMode,
  type LabelSelector,
} from './seedmanagement.js';

const spec = FieldPath.root('spec');
const bootstrapModes = ['ServiceAccount', 'BootstrapToken', 'None'];
const pendingReasons = [
  'ShootReconciling',
  'ShootDeleting',
  'ShootReconcileFailed',
  'ShootDeleteFailed',
  'ManagedSeedPreparing',
  'ManagedSeedDeleting',
  'SeedNotReady',
  'ShootNotHealthy',
];

type Spec = ManagedSeedSet['spec'];
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

function isEmptySelector(selector: LabelSelector | undefined): boolean {
  return Object.keys(selector?.matchLabels ?? {}).length === 0 && (selector?.matchExpressions ?? []).length === 0;
}

/**
 * Whether the labels match the selector (kube's LabelSelectorAsSelector); a selector that does not convert is
 * validateLabelSelector's to report.
 */
function selectorMatches(selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  try {
    return labelSelectorAsSelector(selector).matches(labels);
  } catch (err) {
    if (err instanceof LabelSelectorError) return true;
    throw err;
  }
}

function validateTemplateLabels(
  labels: Record<string, string> | undefined,
  selector: LabelSelector | undefined,
  path: FieldPath,
): FieldError[] {
  if (!selector || isEmptySelector(selector) || selectorMatches(selector, labels)) return [];
  return [invalid(path.child('labels'), labels ?? {}, 'selector does not match template labels')];
}

function validateTemplate(s: Spec, selector: LabelSelector | undefined): FieldError[] {
  const path = spec.child('template');
  const template = s.template;
  const errors: FieldError[] = [];
  errors.push(...validateTemplateLabels(template?.metadata?.labels, selector, path.child('metadata')));
  // ValidateManagedSeedTemplate: metadata and the ManagedSeed spec in a template (no shoot name needed).
  errors.push(...validateLabels(template?.metadata?.labels, path.child('metadata', 'labels')));
  errors.push(...validateAnnotations(template?.metadata?.annotations, path.child('metadata', 'annotations')));
  const gardenlet = template?.spec?.gardenlet ?? {};
  const gp = path.child('spec', 'gardenlet');
  if (gardenlet.deployment) errors.push(...validateGardenletDeployment(gardenlet.deployment, gp.child('deployment')));
  if (gardenlet.config != null) {
    errors.push(
      ...validateGardenletConfig(
        gardenlet.config,
        (gardenlet.bootstrap ?? 'None') as BootstrapMode,
        gardenlet.mergeWithParent ?? false,
        gp.child('config'),
      ),
    );
  }
  if (gardenlet.bootstrap !== undefined && !bootstrapModes.includes(gardenlet.bootstrap))
    errors.push(notSupported(gp.child('bootstrap'), gardenlet.bootstrap, bootstrapModes));
  if (template?.spec?.shoot) errors.push(forbidden(path.child('spec', 'shoot'), 'shoot is forbidden'));
  if (gardenlet.config != null) {
    const config = asGardenletConfiguration(gardenlet.config, gp.child('config'));
    if (!('type' in config)) {
      const seedConfig = (config as { seedConfig?: { metadata?: { labels?: Record<string, string> } } }).seedConfig;
      if (!seedConfig) errors.push(required(gp.child('config', 'seedConfig'), 'seedConfig is required'));
      else
        errors.push(
          ...validateTemplateLabels(
            seedConfig.metadata?.labels,
            selector,
            gp.child('config', 'seedConfig', 'metadata'),
          ),
        );
    }
  }
  return errors;
}

/** The Shoot template as a Shoot, validated with the Shoot's rules; its errors re-rooted under spec.shootTemplate. */
function shootOf(template: Spec['shootTemplate'] | undefined): Shoot {
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: {
      name: 'template',
      namespace: GardenNamespace,
      labels: template?.metadata?.labels,
      annotations: template?.metadata?.annotations,
    },
    spec: template?.spec,
  } as Shoot;
}

function validateShootTemplate(s: Spec, selector: LabelSelector | undefined, old?: Spec): FieldError[] {
  const path = spec.child('shootTemplate');
  const errors: FieldError[] = [];
  errors.push(...validateTemplateLabels(s.shootTemplate?.metadata?.labels, selector, path.child('metadata')));
  if (!s.shootTemplate?.spec?.provider?.workers?.length) {
    errors.push(
      invalid(
        path.child('spec', 'provider', 'workers'),
        s.shootTemplate?.spec?.provider?.workers ?? null,
        'workers cannot be empty in the Shoot template for a ManagedSeedSet',
      ),
    );
  }
  const shootErrors = validateShoot(shootOf(s.shootTemplate), old ? shootOf(old.shootTemplate) : undefined).filter(
    (e) =>
      e.field.startsWith('spec') || e.field.startsWith('metadata.labels') || e.field.startsWith('metadata.annotations'),
  );
  errors.push(...reroot(shootErrors, path));
  return errors;
}

export function validateManagedSeedSet(set: ManagedSeedSet, old?: ManagedSeedSet): FieldError[] {
  const errors: FieldError[] = [];
  const s = set.spec;
  if (old) {
    errors.push(...validateObjectMetaUpdate(set.metadata, old.metadata));
    if (s && old.spec) {
      if (!same(s.selector, old.spec.selector)) errors.push(immutable(spec.child('selector'), s.selector));
      if (!same(s.revisionHistoryLimit, old.spec.revisionHistoryLimit))
        errors.push(immutable(spec.child('revisionHistoryLimit'), s.revisionHistoryLimit ?? null));
      // ValidateManagedSeedTemplateUpdate: shoot, bootstrap and mergeWithParent of the ManagedSeed spec stay.
      const tp = spec.child('template', 'spec');
      const [now, before] = [s.template?.spec, old.spec.template?.spec];
      if (!same(now?.shoot, before?.shoot)) errors.push(immutable(tp.child('shoot'), now?.shoot ?? null));
      if (!same(now?.gardenlet?.bootstrap, before?.gardenlet?.bootstrap))
        errors.push(immutable(tp.child('gardenlet', 'bootstrap'), now?.gardenlet?.bootstrap ?? null));
      if (!same(now?.gardenlet?.mergeWithParent, before?.gardenlet?.mergeWithParent)) {
        errors.push(immutable(tp.child('gardenlet', 'mergeWithParent'), now?.gardenlet?.mergeWithParent ?? null));
      }
    }
  }
  if (set.metadata?.namespace !== GardenNamespace)
    errors.push(
      invalid(FieldPath.root('metadata', 'namespace'), set.metadata?.namespace ?? '', 'namespace must be garden'),
    );
  errors.push(...validateObjectMeta(set.metadata, { namespaced: true }));
  if (!s) return [...errors, required(spec)];
  errors.push(...validateNonNegative(s.replicas, spec.child('replicas')));
  let selector: LabelSelector | undefined;
  if (isEmptySelector(s.selector))
    errors.push(invalid(spec.child('selector'), s.selector ?? {}, 'empty selector is invalid for ManagedSeedSet'));
  else {
    const selectorErrors = validateLabelSelector(s.selector, spec.child('selector'));
    errors.push(...selectorErrors);
    if (selectorErrors.length === 0) selector = s.selector;
  }
  errors.push(...validateTemplate(s, selector));
  errors.push(...validateShootTemplate(s, selector, old?.spec));
  if (s.updateStrategy?.type !== undefined) {
    const p = spec.child('updateStrategy');
    if (s.updateStrategy.type === ('' as string)) errors.push(required(p.child('type')));
    else if (s.updateStrategy.type !== 'RollingUpdate')
      errors.push(notSupported(p.child('type'), s.updateStrategy.type, ['RollingUpdate']));
    else
      errors.push(
        ...validateNonNegative(s.updateStrategy.rollingUpdate?.partition, p.child('rollingUpdate', 'partition')),
      );
  }
  errors.push(...validateNonNegative(s.revisionHistoryLimit, spec.child('revisionHistoryLimit')));
  return errors;
}

/** Gardener's ValidateManagedSeedSetStatusUpdate: counts non-negative and consistent; the next replica number and collision count never go down. */
export function validateManagedSeedSetStatusUpdate(set: ManagedSeedSet, old: ManagedSeedSet): FieldError[] {
  const errors = validateObjectMetaUpdate(set.metadata, old.metadata);
  const path = FieldPath.root('status');
  const st = set.status ?? ({} as NonNullable<ManagedSeedSet['status']>);
  for (const f of [
    'observedGeneration',
    'replicas',
    'readyReplicas',
    'currentReplicas',
    'updatedReplicas',
    'nextReplicaNumber',
    'collisionCount',
  ] as const) {
    errors.push(...validateNonNegative(st[f], path.child(f)));
  }
  const replicas = st.replicas ?? 0;
  for (const f of ['readyReplicas', 'currentReplicas', 'updatedReplicas'] as const) {
    if ((st[f] ?? 0) > replicas) errors.push(invalid(path.child(f), st[f], 'cannot be greater than status.replicas'));
  }
  const pending = st.pendingReplica;
  if (pending) {
    const p = path.child('pendingReplica');
    const match = /^(.*)-([0-9]+)$/.exec(pending.name ?? '');
    if (!match || match[1] !== set.metadata?.name || !(Number(match[2]) <= 2 ** 31 - 1)) {
      errors.push(invalid(p.child('name'), pending.name, 'must contain the parent name and a valid ordinal'));
    }
    if (!pendingReasons.includes(pending.reason))
      errors.push(notSupported(p.child('reason'), pending.reason, pendingReasons));
    errors.push(...validateNonNegative(pending.retries, p.child('retries')));
  }
  if ((st.nextReplicaNumber ?? 0) < (old.status?.nextReplicaNumber ?? 0))
    errors.push(invalid(path.child('nextReplicaNumber'), st.nextReplicaNumber ?? 0, 'cannot be decremented'));
  const [cc, oldCC] = [st.collisionCount, old.status?.collisionCount];
  if ((cc === undefined && oldCC !== undefined) || (cc !== undefined && oldCC !== undefined && cc < oldCC)) {
    errors.push(invalid(path.child('collisionCount'), cc ?? 0, 'cannot be decremented'));
  }
  return errors;
}
