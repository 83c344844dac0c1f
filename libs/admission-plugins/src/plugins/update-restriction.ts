// gardener-admission-controller's update restriction handler (pkg/admissioncontroller/webhook/admission/updaterestriction,
// served alone at `/webhooks/update-restriction`, registered as `update-restriction.gardener.cloud`): Secrets and
// ConfigMaps labelled `gardener.cloud/update-restriction=true` are system resources that only a gardenlet (a seed's, or
// a self-hosted shoot's) may create, update or delete. Kubernetes' garbage collector may still delete them and
// gardener-operator's `gardener-internal` ServiceAccount update them (it labels encrypted resources).
import { allow, type AdmissionAttributes, type AdmissionDecision, type KubeObject } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import { SEEDS_GROUP } from '../authorizer/seed-authorizer.js';

/** The label that makes a Secret or ConfigMap a system resource (Gardener's `LabelUpdateRestriction`). */
export const UpdateRestrictionLabel = 'gardener.cloud/update-restriction';
/** The group of the gardenlets of self-hosted shoots (Gardener's `v1beta1constants.ShootsGroup`). */
export const SHOOTS_GROUP = 'gardener.cloud:system:shoots';
const GARBAGE_COLLECTOR = 'system:serviceaccount:kube-system:generic-garbage-collector';
const GARDENER_INTERNAL = 'system:serviceaccount:kube-system:gardener-internal';

/**
 * controller-runtime's `admission.Denied`: 403 Forbidden with the handler's message as it is (no resource prefix, unlike
 * kube's `admission.NewForbidden`).
 */
export function denied(message: string): AdmissionDecision {
  return { allowed: false, code: 403, reason: 'Forbidden', message };
}

const restricted = (object: KubeObject | null | undefined) =>
  object?.metadata?.labels?.[UpdateRestrictionLabel] === 'true';

/**
 * Why the request may not touch the restricted object, or undefined when its user may: members of
 * `gardener.cloud:system:seeds` or `gardener.cloud:system:shoots` always, the garbage collector for DELETE,
 * `gardener-internal` for UPDATE.
 */
export function updateRestrictionRefusal(a: AdmissionAttributes): string | undefined {
  const { username = '', groups = [] } = a.userInfo;
  if (username === GARBAGE_COLLECTOR && a.operation === 'DELETE') return undefined;
  if (username === GARDENER_INTERNAL && a.operation === 'UPDATE') return undefined;
  if (groups.includes(SEEDS_GROUP) || groups.includes(SHOOTS_GROUP)) return undefined;
  return `user "${username}" is not allowed to ${a.operation} system ${a.resource.resource}`;
}

/**
 * The update restriction handler. It acts on Secrets and ConfigMaps whose new or stored version carries the label (the
 * webhook's objectSelector matches either), so the check holds wherever the plugin runs.
 */
export const UpdateRestriction: AdmissionPlugin = {
  name: 'UpdateRestriction',
  handles: (a) =>
    a.kind.group === '' &&
    (a.kind.kind === 'Secret' || a.kind.kind === 'ConfigMap') &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE' || a.operation === 'DELETE') &&
    !a.subresource &&
    (restricted(a.object) || restricted(a.oldObject)),
  validate(a) {
    const refusal = updateRestrictionRefusal(a);
    return refusal ? denied(refusal) : allow();
  },
};
