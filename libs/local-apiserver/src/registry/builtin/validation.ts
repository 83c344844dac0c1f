// The parts of kube's validation of built-in kinds that users meet most: pod templates (containers, names,
// images, restart policies), workload selectors that must match their template and stay immutable, config keys of
// ConfigMaps and Secrets (immutable ones keep their content), Service ports, and the label keys and values of pod
// templates, selectors and NetworkPolicy peers. Worded like k8s.io/kubernetes/pkg/apis/*/validation.
import { dns1123LabelErrors } from '@gardener-ts/api';
import { validateLabels } from '../../api/meta.js';
import { matchesLabelSelector } from '../../api/selectors.js';
import type { FieldProblem } from '../../schema/types.js';
import { duplicate, forbidden, invalid, required } from './field-problems.js';
import { networkPolicySelectorProblems, specSelectorProblems, workloadSelectorProblems } from './label-selectors.js';
import { volumeMountProblems, volumeProblems } from './pod-volumes.js';
import type { KubeObject } from '../../storage/types.js';

type Validator = (object: KubeObject, old: KubeObject | undefined) => FieldProblem[];

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;

function containers(
  list: KubeObject[] | undefined,
  path: string,
  requireOne: boolean,
  volumes: Set<string>,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (requireOne && (!Array.isArray(list) || list.length === 0)) return [required(path)];
  const seen = new Set<string>();
  (list ?? []).forEach((c, i) => {
    const at = `${path}[${i}]`;
    if (!c.name) problems.push(required(`${at}.name`));
    else if (dns1123LabelErrors(c.name).length > 0) {
      problems.push(...dns1123LabelErrors(c.name).map((m) => invalid(`${at}.name`, c.name, m)));
    } else if (seen.has(c.name)) problems.push(duplicate(`${at}.name`, c.name));
    seen.add(c.name);
    if (!c.image) problems.push(required(`${at}.image`));
    for (const [j, p] of (c.ports ?? []).entries()) {
      if (!(Number.isInteger(p.containerPort) && p.containerPort >= 1 && p.containerPort <= 65535)) {
        problems.push(
          invalid(`${at}.ports[${j}].containerPort`, p.containerPort, 'must be between 1 and 65535, inclusive'),
        );
      }
    }
    problems.push(...volumeMountProblems(c.volumeMounts, volumes, `${at}.volumeMounts`));
  });
  return problems;
}

/** `claimed`: volume names a StatefulSet's volumeClaimTemplates add to its Pods, which containers may mount. */
export function podSpecProblems(
  spec: KubeObject | undefined,
  path: string,
  restartPolicies?: string[],
  claimed: string[] = [],
): FieldProblem[] {
  if (!spec) return [required(path)];
  const volumes = volumeProblems(spec.volumes, `${path}.volumes`);
  for (const name of claimed) volumes.names.add(name);
  const problems = [
    ...volumes.problems,
    ...containers(spec.containers, `${path}.containers`, true, volumes.names),
    ...containers(spec.initContainers, `${path}.initContainers`, false, volumes.names),
  ];
  if (restartPolicies && !restartPolicies.includes(spec.restartPolicy)) {
    problems.push(
      spec.restartPolicy === undefined
        ? required(`${path}.restartPolicy`, `valid values: ${restartPolicies.map((p) => `"${p}"`).join(', ')}`)
        : {
            field: `${path}.restartPolicy`,
            reason: 'FieldValueNotSupported',
            message: `Unsupported value: ${JSON.stringify(spec.restartPolicy)}: supported values: ${restartPolicies.map((p) => `"${p}"`).join(', ')}`,
          },
    );
  }
  return problems;
}

/** apps/v1 workloads: a selector that matches the template's labels and never changes. */
function workload(restartPolicies = ['Always']): Validator {
  return (o, old) => {
    const spec = o.spec ?? {};
    const problems: FieldProblem[] = [];
    const empty =
      !spec.selector ||
      (Object.keys(spec.selector.matchLabels ?? {}).length === 0 &&
        (spec.selector.matchExpressions ?? []).length === 0);
    if (empty) problems.push(required('spec.selector'));
    const labels = spec.template?.metadata?.labels ?? {};
    if (!empty && !matchesLabelSelector(spec.selector, labels)) {
      problems.push(invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
    }
    if (old?.spec?.selector && JSON.stringify(old.spec.selector) !== JSON.stringify(spec.selector)) {
      problems.push(invalid('spec.selector', spec.selector, 'field is immutable'));
    }
    if (typeof spec.replicas === 'number' && spec.replicas < 0)
      problems.push(invalid('spec.replicas', spec.replicas, 'must be greater than or equal to 0'));
    const claimed = (Array.isArray(spec.volumeClaimTemplates) ? spec.volumeClaimTemplates : [])
      .map((c: KubeObject) => c?.metadata?.name)
      .filter((n: unknown): n is string => typeof n === 'string');
    return [
      ...problems,
      ...workloadSelectorProblems(spec, old),
      ...podSpecProblems(spec.template?.spec, 'spec.template.spec', restartPolicies, claimed),
    ];
  };
}

function configKeys(o: KubeObject, fields: string[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const field of fields) {
    for (const key of Object.keys(o[field] ?? {})) {
      if (!CONFIG_KEY.test(key) || key.length > 253) {
        problems.push(
          invalid(
            `${field}[${key}]`,
            key,
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
          ),
        );
      }
    }
  }
  return problems;
}

/** A map field's entries as kube compares them: an absent map and an empty one are the same content. */
function sameEntries(a: unknown, b: unknown): boolean {
  const entries = (m: unknown) =>
    m !== null && typeof m === 'object'
      ? Object.entries(m as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : 1))
      : [];
  return JSON.stringify(entries(a)) === JSON.stringify(entries(b));
}

/**
 * kube's ValidateSecretUpdate / ValidateConfigMapUpdate for an object stored with `immutable: true`: `immutable`
 * stays true and the content fields (`data`, and `binaryData` of ConfigMaps) keep their entries. Secrets are checked
 * after `stringData` was merged into `data`, so a change through `stringData` is a change of `data`.
 */
function immutableContent(o: KubeObject, old: KubeObject | undefined, fields: string[]): FieldProblem[] {
  if (old?.immutable !== true) return [];
  const problems: FieldProblem[] = [];
  const detail = 'field is immutable when `immutable` is set';
  if (o.immutable !== true) problems.push(forbidden('immutable', detail));
  for (const field of fields) if (!sameEntries(o[field], old[field])) problems.push(forbidden(field, detail));
  return problems;
}

export const VALIDATORS: Record<string, Validator> = {
  '/pods': (o) => podSpecProblems(o.spec, 'spec', ['Always', 'OnFailure', 'Never']),
  '/configmaps': (o, old) => [
    ...immutableContent(o, old, ['data', 'binaryData']),
    ...configKeys(o, ['data', 'binaryData']),
  ],
  '/secrets': (o, old) => {
    const problems: FieldProblem[] = [];
    if (old && old.type !== o.type) problems.push(invalid('type', o.type, 'field is immutable'));
    return [...problems, ...immutableContent(o, old, ['data']), ...configKeys(o, ['data'])];
  },
  '/services': (o) => {
    const spec = o.spec ?? {};
    const problems: FieldProblem[] = [];
    const needsPorts = spec.type !== 'ExternalName' && spec.clusterIP !== 'None';
    if (needsPorts && (!Array.isArray(spec.ports) || spec.ports.length === 0)) problems.push(required('spec.ports'));
    (spec.ports ?? []).forEach((p: KubeObject, i: number) => {
      if (!(Number.isInteger(p.port) && p.port >= 1 && p.port <= 65535))
        problems.push(invalid(`spec.ports[${i}].port`, p.port, 'must be between 1 and 65535, inclusive'));
      if (spec.ports.length > 1 && !p.name) problems.push(required(`spec.ports[${i}].name`));
    });
    if (spec.type === 'ExternalName' && !spec.externalName) problems.push(required('spec.externalName'));
    return [...problems, ...validateLabels(spec.selector, 'spec.selector')];
  },
  'apps/deployments': workload(),
  'apps/replicasets': workload(),
  'apps/statefulsets': workload(),
  'apps/daemonsets': workload(),
  'batch/jobs': (o, old) => [
    ...workloadSelectorProblems(o.spec ?? {}, old),
    ...podSpecProblems(o.spec?.template?.spec, 'spec.template.spec', ['OnFailure', 'Never']),
  ],
  'batch/cronjobs': (o) => {
    const problems = o.spec?.schedule ? [] : [required('spec.schedule')];
    const template = o.spec?.jobTemplate?.spec?.template;
    return [
      ...problems,
      ...validateLabels(template?.metadata?.labels, 'spec.jobTemplate.spec.template.metadata.labels'),
      ...podSpecProblems(o.spec?.jobTemplate?.spec?.template?.spec, 'spec.jobTemplate.spec.template.spec', [
        'OnFailure',
        'Never',
      ]),
    ];
  },
  'networking.k8s.io/networkpolicies': (o, old) => networkPolicySelectorProblems(o, old),
  'policy/poddisruptionbudgets': (o, old) => specSelectorProblems(o.spec ?? {}, old),
};
