// gardener-admission-controller's audit policy validator (pkg/admissioncontroller/webhook/admission/auditpolicy over
// pkg/webhook/configvalidator): the ConfigMap a Shoot names in `spec.kubernetes.kubeAPIServer.auditConfig.auditPolicy
// .configMapRef` must hold an `audit.k8s.io/v1` Policy under `policy` that kube's audit policy validation accepts.
import { dns1123SubdomainErrors, FieldPath, invalid, notSupported, required, type FieldError } from '@gardener-ts/api';
import type { KubeObject } from '../attributes.js';
import { configMapValidator, type ConfigRefusal } from './config-validator.js';
import {
  asList as list,
  decodeConfigOrRefuse,
  goArray,
  goBool,
  goString,
  goStruct,
  type ConfigType,
} from './config-decoding.js';

const stages = goArray(goString('v1.Stage'));
const strings = goArray(goString());

/** audit.k8s.io/v1 Policy as the decoder reads it. */
const AuditPolicyType: ConfigType = {
  group: 'audit.k8s.io',
  versions: ['v1'],
  kind: 'Policy',
  otherKinds: ['PolicyList', 'Event', 'EventList'],
  schema: goStruct('v1.Policy', {
    rules: goArray(
      goStruct('v1.PolicyRule', {
        level: goString('v1.Level'),
        users: strings,
        userGroups: strings,
        verbs: strings,
        resources: goArray(
          goStruct('v1.GroupResources', { group: goString(), resources: strings, resourceNames: strings }),
        ),
        namespaces: strings,
        nonResourceURLs: strings,
        omitStages: stages,
        omitManagedFields: goBool,
      }),
    ),
    omitStages: stages,
    omitManagedFields: goBool,
  }),
};

const LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'];
const STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

function omitStagesErrors(omitStages: unknown, path: FieldPath): FieldError[] {
  return list(omitStages).flatMap((stage, i) =>
    STAGES.includes(stage) ? [] : [invalid(path.index(i), stage ?? '', `allowed stages are ${STAGES.join(',')}`)],
  );
}

function ruleErrors(rule: Record<string, any>, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const level = rule.level ?? '';
  if (level === '') errors.push(required(path.child('level')));
  else if (!LEVELS.includes(level)) errors.push(notSupported(path.child('level'), level, LEVELS));
  const urls = list(rule.nonResourceURLs);
  urls.forEach((value: string | null, i) => {
    const url = value ?? '';
    if (url === '*') return;
    const at = path.child('nonResourceURLs').index(i);
    if (!url.startsWith('/')) errors.push(invalid(at, url, "non-resource URL rules must begin with a '/' character"));
    if (url !== '' && url.slice(0, -1).includes('*'))
      errors.push(invalid(at, url, "non-resource URL wildcards '*' must be the final character of the rule"));
  });
  // kube names these two without the index of the group resource.
  for (const resources of list(rule.resources)) {
    const group = resources?.group ?? '';
    const groupErrors = group ? dns1123SubdomainErrors(group) : [];
    if (groupErrors.length > 0) errors.push(invalid(path.child('resources', 'group'), group, groupErrors.join(',')));
    if (list(resources?.resourceNames).length > 0 && list(resources?.resources).length === 0)
      errors.push(
        invalid(
          path.child('resources', 'resourceNames'),
          resources.resourceNames,
          'using resourceNames requires at least one resource',
        ),
      );
  }
  errors.push(...omitStagesErrors(rule.omitStages, path.child('omitStages')));
  if (urls.length > 0 && (list(rule.resources).length > 0 || list(rule.namespaces).length > 0))
    errors.push(
      invalid(
        path.child('nonResourceURLs'),
        urls,
        'rules cannot apply to both regular resources and non-resource URLs',
      ),
    );
  return errors;
}

/** kube's audit `ValidatePolicy`: the problems of a decoded Policy. */
export function auditPolicyErrors(policy: Record<string, any>): FieldError[] {
  return [
    ...omitStagesErrors(policy.omitStages, FieldPath.root('omitStages')),
    ...list(policy.rules).flatMap((rule, i) => ruleErrors(rule ?? {}, FieldPath.root('rules').index(i))),
  ];
}

/** Go's `%v` of a field.ErrorList: `[a b]`. */
export const errorListText = (errors: readonly FieldError[]) => `[${errors.map((e) => e.message).join(' ')}]`;

/** Gardener's `AdmitAuditPolicy`: decodes and validates a raw audit policy; undefined when it is valid. */
export function admitAuditPolicy(raw: string): ConfigRefusal | undefined {
  const decoded = decodeConfigOrRefuse(raw, AuditPolicyType, 'audit policy');
  if ('refusal' in decoded) return decoded.refusal;
  const errors = auditPolicyErrors(decoded.object);
  return errors.length > 0
    ? { code: 422, message: `provided invalid audit policy: ${errorListText(errors)}` }
    : undefined;
}

/** The audit policy ConfigMap a Shoot references. */
export const auditPolicyConfigMapName = (shoot: KubeObject): string | undefined =>
  shoot.spec?.kubernetes?.kubeAPIServer?.auditConfig?.auditPolicy?.configMapRef?.name || undefined;

/** The audit policy validator (Shoot CREATE/UPDATE, ConfigMap UPDATE in project namespaces). */
export const AuditPolicyValidator = configMapValidator({
  name: 'AuditPolicyValidator',
  purpose: 'audit policy',
  dataKey: 'policy',
  configMapName: auditPolicyConfigMapName,
  admitConfig: async (raw) => admitAuditPolicy(raw),
});
