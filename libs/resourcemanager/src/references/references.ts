// Reference annotations for the garbage collector of immutable ConfigMaps and Secrets:
// `reference.resources.gardener.cloud/{configmap,secret}-<first 8 hex chars of sha256(name)>: <name>`.
import { createHash } from 'node:crypto';

export const AnnotationKeyPrefix = 'reference.resources.gardener.cloud/';
export const KindConfigMap = 'configmap';
export const KindSecret = 'secret';
export type ReferenceKind = typeof KindConfigMap | typeof KindSecret;

/** The annotation key that marks `name` (a ConfigMap or Secret) as in use. */
export function annotationKey(kind: ReferenceKind, name: string): string {
  return `${AnnotationKeyPrefix}${kind}-${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
}

/** `configmap` or `secret` for a valid reference annotation key, '' otherwise. */
export function kindFromAnnotationKey(key: string): string {
  if (!key.startsWith(AnnotationKeyPrefix)) return '';
  const parts = key.slice(AnnotationKeyPrefix.length).split('-');
  return parts.length === 2 ? parts[0] : '';
}

type Obj = Record<string, any>;
type Refs = Record<string, string>;

function fromContainers(containers: Obj[] | undefined, out: Refs): void {
  for (const c of containers ?? []) {
    for (const env of c.envFrom ?? []) {
      if (env.secretRef?.name) out[annotationKey(KindSecret, env.secretRef.name)] = env.secretRef.name;
      if (env.configMapRef?.name) out[annotationKey(KindConfigMap, env.configMapRef.name)] = env.configMapRef.name;
    }
    for (const env of c.env ?? []) {
      const s = env.valueFrom?.secretKeyRef?.name;
      const cm = env.valueFrom?.configMapKeyRef?.name;
      if (s) out[annotationKey(KindSecret, s)] = s;
      if (cm) out[annotationKey(KindConfigMap, cm)] = cm;
    }
  }
}

function fromVolumes(volumes: Obj[] | undefined, out: Refs): void {
  for (const v of volumes ?? []) {
    if (v.secret?.secretName) out[annotationKey(KindSecret, v.secret.secretName)] = v.secret.secretName;
    if (v.configMap?.name) out[annotationKey(KindConfigMap, v.configMap.name)] = v.configMap.name;
    for (const source of v.projected?.sources ?? []) {
      if (source.secret?.name) out[annotationKey(KindSecret, source.secret.name)] = source.secret.name;
      if (source.configMap?.name) out[annotationKey(KindConfigMap, source.configMap.name)] = source.configMap.name;
    }
  }
}

/** The reference annotations of a pod spec: volumes, env, envFrom (init containers too) and imagePullSecrets. */
export function referenceAnnotationsOf(podSpec: Obj | undefined, additional: string[] = []): Refs {
  const out: Refs = {};
  fromContainers(podSpec?.containers, out);
  fromContainers(podSpec?.initContainers, out);
  fromVolumes(podSpec?.volumes, out);
  for (const s of podSpec?.imagePullSecrets ?? []) if (s?.name) out[annotationKey(KindSecret, s.name)] = s.name;
  for (const key of additional) out[key] = '';
  return out;
}

/** Replaces all reference annotations of `existing` with `refs`, keeping every other annotation. */
function mergeReferences(existing: Refs | undefined, refs: Refs): Refs {
  const out: Refs = {};
  for (const [k, v] of Object.entries(existing ?? {})) if (!k.startsWith(AnnotationKeyPrefix)) out[k] = v;
  return { ...out, ...refs };
}

function setOn(meta: Obj, refs: Refs): void {
  meta.annotations = mergeReferences(meta.annotations, refs);
}

const ensure = (o: Obj, key: string): Obj => (o[key] ??= {});

/**
 * Injects the reference annotations of the ConfigMaps and Secrets a workload uses into its metadata and into its pod
 * templates (so a workload scaled to zero still keeps them in use). Handles Pod, Deployment, StatefulSet, DaemonSet,
 * ReplicaSet, Job, CronJob and ManagedResource (its `.spec.secretRefs`); `additional` keys are added with an empty
 * value. Changes `obj` in place and returns it; throws for other kinds.
 */
export function injectAnnotations<T extends Obj>(obj: T, ...additional: string[]): T {
  const o = obj as Obj;
  switch (o.kind) {
    case 'Pod':
      setOn(ensure(o, 'metadata'), referenceAnnotationsOf(o.spec, additional));
      break;
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
    case 'Job': {
      const refs = referenceAnnotationsOf(o.spec?.template?.spec, additional);
      setOn(ensure(o, 'metadata'), refs);
      setOn(ensure(ensure(ensure(o, 'spec'), 'template'), 'metadata'), refs);
      break;
    }
    case 'CronJob': {
      const jobTemplate = ensure(ensure(o, 'spec'), 'jobTemplate');
      const refs = referenceAnnotationsOf(jobTemplate.spec?.template?.spec, additional);
      setOn(ensure(o, 'metadata'), refs);
      setOn(ensure(jobTemplate, 'metadata'), refs);
      setOn(ensure(ensure(ensure(jobTemplate, 'spec'), 'template'), 'metadata'), refs);
      break;
    }
    case 'ManagedResource': {
      const refs: Refs = {};
      for (const ref of o.spec?.secretRefs ?? []) if (ref?.name) refs[annotationKey(KindSecret, ref.name)] = ref.name;
      for (const key of additional) refs[key] = '';
      setOn(ensure(o, 'metadata'), refs);
      break;
    }
    default:
      throw new Error(`unhandled object kind ${JSON.stringify(o.kind)}`);
  }
  return obj;
}
