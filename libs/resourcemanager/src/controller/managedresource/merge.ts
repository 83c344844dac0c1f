// How a desired object (from the ManagedResource's Secrets) is merged into the object found in the target cluster
// before it is written back (Gardener's merger.go): metadata and status of the live object stay, labels and
// annotations are merged based on what was desired before, and per kind some fields the cluster owns are kept.
import { Annotation, DescriptionText } from '../../constants.js';
import { AnnotationKeyPrefix } from '../../references/references.js';

type Obj = Record<string, any>;
type StringMap = Record<string, string>;

export interface MergeOptions {
  /** Replace the live labels by the desired ones instead of merging. */
  forceOverwriteLabels?: boolean;
  /** Labels desired in the previous reconciliation (from `.status.resources`): removed when no longer desired. */
  existingLabels?: StringMap;
  forceOverwriteAnnotations?: boolean;
  existingAnnotations?: StringMap;
  /** Keep `.spec.replicas` of the live object, e.g. because an HPA scales it. */
  preserveReplicas?: boolean;
}

/**
 * Start from the live map, drop keys that were desired before but are no longer, then set every desired key.
 * Keys somebody else added (not desired before) stay.
 */
export function mergeMapsBasedOnOldMap(
  desired: StringMap | undefined,
  current: StringMap | undefined,
  old: StringMap | undefined,
): StringMap {
  const out: StringMap = { ...current };
  for (const key of Object.keys(old ?? {})) if (!(key in (desired ?? {}))) delete out[key];
  return Object.assign(out, desired);
}

function withoutReferenceAnnotations(annotations: StringMap | undefined): StringMap | undefined {
  if (!annotations) return annotations;
  return Object.fromEntries(Object.entries(annotations).filter(([k]) => !k.startsWith(AnnotationKeyPrefix)));
}

function setMap(meta: Obj, key: 'labels' | 'annotations', value: StringMap | undefined): void {
  if (value && Object.keys(value).length > 0) meta[key] = value;
  else delete meta[key];
}

const groupOf = (apiVersion: string | undefined) => (apiVersion?.includes('/') ? apiVersion.split('/')[0] : '');

/** Merges `desired` into a copy of `current` (the live object; `{}` when it does not exist yet). */
export function merge(origin: string, desired: Obj, current: Obj, options: MergeOptions = {}): Obj {
  const merged: Obj = structuredClone(desired);
  const currentMeta = current.metadata as Obj | undefined;
  if (currentMeta && Object.keys(currentMeta).length > 0) merged.metadata = structuredClone(currentMeta);
  merged.metadata ??= {};

  const labels = options.forceOverwriteLabels
    ? desired.metadata?.labels
    : mergeMapsBasedOnOldMap(desired.metadata?.labels, currentMeta?.labels, options.existingLabels);
  setMap(merged.metadata, 'labels', labels);

  const annotations: StringMap = {
    ...(options.forceOverwriteAnnotations
      ? desired.metadata?.annotations
      : mergeMapsBasedOnOldMap(
          desired.metadata?.annotations,
          withoutReferenceAnnotations(currentMeta?.annotations),
          options.existingAnnotations,
        )),
    [Annotation.Description]: DescriptionText,
    [Annotation.Origin]: origin,
  };
  setMap(merged.metadata, 'annotations', annotations);

  if (current.status && typeof current.status === 'object' && Object.keys(current.status).length > 0)
    merged.status = structuredClone(current.status);
  else delete merged.status;

  const desiredAnnotations = desired.metadata?.annotations ?? {};
  const preserveReplicas = options.preserveReplicas || desiredAnnotations[Annotation.PreserveReplicas] === 'true';
  const preserveResources = desiredAnnotations[Annotation.PreserveResources] === 'true';

  const group = groupOf(merged.apiVersion);
  switch (`${group}/${merged.kind}`) {
    case 'apps/Deployment':
    case 'extensions/Deployment':
      mergeReplicas(merged, current, preserveReplicas);
      mergePodTemplate(current.spec?.template, merged.spec?.template, preserveResources);
      break;
    case 'apps/StatefulSet':
    case 'extensions/StatefulSet':
      mergeReplicas(merged, current, preserveReplicas);
      if (currentMeta?.creationTimestamp && merged.spec) {
        if (current.spec?.volumeClaimTemplates === undefined) delete merged.spec.volumeClaimTemplates;
        else merged.spec.volumeClaimTemplates = structuredClone(current.spec.volumeClaimTemplates);
      }
      mergePodTemplate(current.spec?.template, merged.spec?.template, preserveResources);
      break;
    case 'apps/DaemonSet':
      mergePodTemplate(current.spec?.template, merged.spec?.template, preserveResources);
      break;
    case 'batch/Job':
      mergeJob(merged, current, preserveResources);
      break;
    case 'batch/CronJob':
      mergePodTemplate(
        current.spec?.jobTemplate?.spec?.template,
        merged.spec?.jobTemplate?.spec?.template,
        preserveResources,
      );
      break;
    case '/Service':
      mergeService(merged, current);
      break;
    case '/ServiceAccount':
      for (const key of ['secrets', 'imagePullSecrets']) {
        if (current[key] === undefined) delete merged[key];
        else merged[key] = structuredClone(current[key]);
      }
      break;
  }
  return merged;
}

function mergeReplicas(merged: Obj, current: Obj, preserve: boolean): void {
  if (!merged.spec) return;
  if (merged.spec.replicas === undefined || merged.spec.replicas === null || preserve) {
    if (current.spec?.replicas === undefined) delete merged.spec.replicas;
    else merged.spec.replicas = current.spec.replicas;
  }
}

const RESTARTED_AT = 'kubectl.kubernetes.io/restartedAt';

function mergePodTemplate(
  oldTemplate: Obj | undefined,
  newTemplate: Obj | undefined,
  preserveResources: boolean,
): void {
  if (!newTemplate) return;
  const restartedAt = oldTemplate?.metadata?.annotations?.[RESTARTED_AT];
  if (restartedAt !== undefined) {
    newTemplate.metadata ??= {};
    newTemplate.metadata.annotations = { ...newTemplate.metadata.annotations, [RESTARTED_AT]: restartedAt };
  }
  if (!preserveResources) return;
  for (const container of (newTemplate.spec?.containers ?? []) as Obj[]) {
    const old = ((oldTemplate?.spec?.containers ?? []) as Obj[]).find((c) => c.name === container.name);
    if (!old) continue;
    for (const field of ['requests', 'limits'] as const) {
      for (const resource of ['cpu', 'memory']) {
        const value = old.resources?.[field]?.[resource];
        if (value === undefined) continue;
        container.resources ??= {};
        container.resources[field] ??= {};
        container.resources[field][resource] = value;
      }
    }
  }
}

function mergeJob(merged: Obj, current: Obj, preserveResources: boolean): void {
  merged.spec ??= {};
  // The selector is immutable (and defaulted by the API server); the template labels carry the Job's own labels.
  if (current.spec?.selector === undefined) delete merged.spec.selector;
  else merged.spec.selector = structuredClone(current.spec.selector);
  const oldLabels = current.spec?.template?.metadata?.labels;
  if (oldLabels) {
    merged.spec.template ??= {};
    merged.spec.template.metadata ??= {};
    merged.spec.template.metadata.labels = { ...oldLabels, ...merged.spec.template.metadata.labels };
  }
  mergePodTemplate(current.spec?.template, merged.spec?.template, preserveResources);
}

function mergeService(merged: Obj, current: Obj): void {
  merged.spec ??= {};
  const oldSpec: Obj = current.spec ?? {};
  const oldType = oldSpec.type || 'ClusterIP';
  const newType = merged.spec.type || 'ClusterIP';
  if (newType === 'LoadBalancer' || newType === 'NodePort') {
    merged.spec.ports = ((merged.spec.ports ?? []) as Obj[]).map((p) => {
      const port = { ...p };
      for (const op of (oldSpec.ports ?? []) as Obj[]) {
        if ((p.port === op.port || (p.name !== undefined && p.name === op.name)) && !p.nodePort && op.nodePort)
          port.nodePort = op.nodePort;
      }
      return port;
    });
    if (!merged.spec.loadBalancerIP && oldSpec.loadBalancerIP) merged.spec.loadBalancerIP = oldSpec.loadBalancerIP;
  } else if (newType === 'ExternalName') {
    return;
  }
  // The cluster IP is immutable, unless the Service becomes headless or was of type ExternalName.
  if (merged.spec.clusterIP !== 'None' && oldType !== 'ExternalName') {
    if (oldSpec.clusterIP !== undefined) merged.spec.clusterIP = oldSpec.clusterIP;
    if (oldSpec.clusterIPs !== undefined) merged.spec.clusterIPs = structuredClone(oldSpec.clusterIPs);
  }
  if (
    oldType === 'LoadBalancer' &&
    newType === 'LoadBalancer' &&
    merged.spec.externalTrafficPolicy === 'Local' &&
    oldSpec.externalTrafficPolicy === 'Local' &&
    !merged.spec.healthCheckNodePort &&
    oldSpec.healthCheckNodePort
  ) {
    merged.spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
  }
}

/**
 * Injects labels into an object and into the pod templates of workloads (Deployment, StatefulSet, DaemonSet,
 * ReplicaSet, Job: `.spec.template`; CronJob: `.spec.jobTemplate` and its pod template), so that the objects these
 * workloads create carry them too. Changes `obj` in place.
 */
export function injectLabels(obj: Obj, labels: StringMap | undefined): void {
  if (!labels || Object.keys(labels).length === 0) return;
  const into = (meta: Obj) => {
    meta.labels = { ...meta.labels, ...labels };
  };
  into((obj.metadata ??= {}));
  const group = groupOf(obj.apiVersion);
  const podTemplateOwner = [
    'apps/Deployment',
    'extensions/Deployment',
    'apps/StatefulSet',
    'apps/DaemonSet',
    'apps/ReplicaSet',
    'extensions/ReplicaSet',
    'extensions/DaemonSet',
    'batch/Job',
  ];
  if (podTemplateOwner.includes(`${group}/${obj.kind}`) && obj.spec?.template) {
    into((obj.spec.template.metadata ??= {}));
  } else if (`${group}/${obj.kind}` === 'batch/CronJob' && obj.spec?.jobTemplate) {
    into((obj.spec.jobTemplate.metadata ??= {}));
    if (obj.spec.jobTemplate.spec?.template) into((obj.spec.jobTemplate.spec.template.metadata ??= {}));
  }
}
