// List and watch filters: label selectors and the field selectors kube supports per resource.
import { errors } from '../api/errors.js';
import { fieldValue, matchLabels, parseFieldSelector, parseLabelSelector } from '../api/selectors.js';
import type { ResourceDefinition } from '../registry/types.js';
import type { KubeObject } from '../storage/types.js';

export type ListFilter = (object: KubeObject) => boolean;

const COMMON_FIELDS = ['metadata.name', 'metadata.namespace'];

/** Field selectors each built-in resource supports besides name and namespace (kube's field label conversions). */
const RESOURCE_FIELDS: Record<string, string[]> = {
  pods: ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.nominatedNodeName'],
  secrets: ['type'],
  namespaces: ['status.phase'],
  nodes: ['spec.unschedulable'],
  replicasets: ['status.replicas'],
  jobs: ['status.successful'],
  certificatesigningrequests: ['spec.signerName'],
};

export function compileListFilter(def: ResourceDefinition, options: { labelSelector?: string; fieldSelector?: string }): ListFilter {
  const labels = options.labelSelector ? parseLabelSelector(options.labelSelector) : undefined;
  const fields = options.fieldSelector ? parseFieldSelector(options.fieldSelector) : undefined;
  if (fields) {
    const own = def.fieldLabels ? Object.keys(def.fieldLabels) : def.group === '' || def.custom ? (RESOURCE_FIELDS[def.resource] ?? []) : [];
    const allowed = [...COMMON_FIELDS, ...own];
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
