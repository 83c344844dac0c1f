// The scale subresource (autoscaling/v1 Scale) over the replica paths a resource declares.
import { labelSelectorAsSelector, LabelSelectorError, type LabelSelectorObject } from '@gardener-ts/api';
import { errors } from '../api/errors.js';
import type { ResourceDefinition } from '../registry/types.js';
import type { KubeObject } from '../storage/types.js';

function readPath(object: KubeObject, path: string): unknown {
  return path
    .replace(/^\./, '')
    .split('.')
    .reduce<any>((v, k) => (v == null ? undefined : v[k]), object);
}

function writePath(object: KubeObject, path: string, value: unknown): void {
  const parts = path.replace(/^\./, '').split('.');
  let v: any = object;
  for (const k of parts.slice(0, -1)) v = v[k] ??= {};
  v[parts[parts.length - 1]] = value;
}

function scaleOf(def: ResourceDefinition) {
  const scale = def.subresources.scale;
  if (!scale) throw errors.notFound(`${def.resource}/scale`, def.group, '');
  return scale;
}

/** Builds the Scale object; the selector is the label selector in text form, as kube serves it. */
export function getScale(def: ResourceDefinition, object: KubeObject): KubeObject {
  const scale = scaleOf(def);
  const selector = scale.labelSelectorPath ? readPath(object, scale.labelSelectorPath) : undefined;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: object.metadata.name,
      namespace: object.metadata.namespace,
      uid: object.metadata.uid,
      resourceVersion: object.metadata.resourceVersion,
      creationTimestamp: object.metadata.creationTimestamp,
    },
    spec: { replicas: Number(readPath(object, scale.specReplicasPath) ?? 0) },
    status: {
      replicas: Number(readPath(object, scale.statusReplicasPath) ?? 0),
      ...(selector !== undefined
        ? { selector: typeof selector === 'string' ? selector : selectorText(selector as LabelSelectorObject) }
        : {}),
    },
  };
}

/** Applies a Scale's spec.replicas to a copy of the object. */
export function setScale(def: ResourceDefinition, object: KubeObject, scaleObject: KubeObject): KubeObject {
  const scale = scaleOf(def);
  const replicas = scaleObject.spec?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw errors.invalid('Scale', 'autoscaling', object.metadata.name, [
      {
        field: 'spec.replicas',
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`,
      },
    ]);
  }
  const next = structuredClone(object) as KubeObject;
  writePath(next, scale.specReplicasPath, replicas);
  return next;
}

/**
 * A label selector object in text form, as kube's scale storage serves it:
 * `metav1.LabelSelectorAsSelector(selector).String()` (requirements sorted by key, values sorted); a selector that
 * does not convert is an internal error there too.
 */
function selectorText(selector: LabelSelectorObject): string {
  try {
    return labelSelectorAsSelector(selector).toString();
  } catch (err) {
    if (err instanceof LabelSelectorError) throw errors.internal(err.message);
    throw err;
  }
}
