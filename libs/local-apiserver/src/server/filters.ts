// List and watch filters: label selectors and the field selectors kube supports per resource.
import { errors } from '../api/errors.js';
import { fieldValue, matchLabels, parseFieldSelector, parseLabelSelector } from '../api/selectors.js';
import type { ResourceDefinition } from '../registry/types.js';
import type { KubeObject } from '../storage/types.js';

export type ListFilter = (object: KubeObject) => boolean;

const COMMON_FIELDS = ['metadata.name', 'metadata.namespace'];

export function compileListFilter(
  def: ResourceDefinition,
  options: { labelSelector?: string; fieldSelector?: string },
): ListFilter {
  const labels = options.labelSelector ? parseLabelSelector(options.labelSelector) : undefined;
  const fields = options.fieldSelector ? parseFieldSelector(options.fieldSelector) : undefined;
  if (fields) {
    const allowed = [...COMMON_FIELDS, ...Object.keys(def.fieldLabels ?? {})];
    for (const f of fields.fields) {
      if (!allowed.includes(f)) {
        throw errors.badRequest(`field label not supported: ${f}`);
      }
    }
  }
  if (!labels && !fields) return () => true;
  return (object) =>
    (!labels || matchLabels(labels, object.metadata?.labels)) &&
    (!fields || fields((key) => fieldValue(object, def.fieldLabels?.[key] ?? key)));
}
