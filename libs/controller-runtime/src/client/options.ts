// Request options of the client's operations, and how they become query parameters.
import { escapeFieldSelectorValue } from '@gardener-ts/api';

/** `app=web,tier!=db` or `{ app: 'web' }` (equality on every key). */
export type Selector = string | Record<string, string>;

export interface ListOptions {
  /** Only this namespace; all namespaces when absent (namespaced kinds). */
  namespace?: string;
  labelSelector?: Selector;
  fieldSelector?: Selector;
  /** Page size; the answer's `metadata.continue` fetches the next page. */
  limit?: number;
  continue?: string;
  resourceVersion?: string;
}

export interface WriteOptions {
  fieldManager?: string;
  dryRun?: boolean;
}

export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

export interface DeleteOptions {
  propagationPolicy?: PropagationPolicy;
  /** Delete only if the object still has this uid / resourceVersion (409 Conflict otherwise). */
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
  dryRun?: boolean;
}

export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

/** A patch and its type; server-side apply needs a field manager and may force conflicts away. */
export type Patch =
  | { type: 'merge'; patch: Record<string, unknown> }
  | { type: 'strategic'; patch: Record<string, unknown> }
  | { type: 'json'; patch: JsonPatchOperation[] }
  | { type: 'apply'; patch: Record<string, unknown>; fieldManager: string; force?: boolean };

export const PATCH_CONTENT_TYPES: Record<Patch['type'], string> = {
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  json: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
};

export function selectorString(selector: Selector | undefined): string | undefined {
  if (selector === undefined) return undefined;
  if (typeof selector === 'string') return selector;
  return Object.entries(selector)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

/** A field selector as the API server reads it: an object's values escaped as kube's `fields.EscapeValue` does. */
export function fieldSelectorString(selector: Selector | undefined): string | undefined {
  if (selector === undefined || typeof selector === 'string') return selector;
  return Object.entries(selector)
    .map(([k, v]) => `${k}=${escapeFieldSelectorValue(String(v))}`)
    .join(',');
}

export function listQuery(opts: ListOptions): URLSearchParams {
  const q = new URLSearchParams();
  const labels = selectorString(opts.labelSelector);
  const fields = fieldSelectorString(opts.fieldSelector);
  if (labels) q.set('labelSelector', labels);
  if (fields) q.set('fieldSelector', fields);
  if (opts.limit !== undefined) {
    if (!Number.isInteger(opts.limit) || opts.limit < 0)
      throw new Error(`list limit must be a non-negative integer, got ${opts.limit}`);
    q.set('limit', String(opts.limit));
  }
  if (opts.continue) q.set('continue', opts.continue);
  if (opts.resourceVersion !== undefined) q.set('resourceVersion', opts.resourceVersion);
  return q;
}

export function writeQuery(opts: WriteOptions = {}): URLSearchParams {
  const q = new URLSearchParams();
  if (opts.fieldManager) q.set('fieldManager', opts.fieldManager);
  if (opts.dryRun) q.set('dryRun', 'All');
  return q;
}

export function deleteBody(opts: DeleteOptions = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'DeleteOptions',
    ...(opts.propagationPolicy ? { propagationPolicy: opts.propagationPolicy } : {}),
    ...(opts.preconditions ? { preconditions: opts.preconditions } : {}),
    ...(opts.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: opts.gracePeriodSeconds } : {}),
    ...(opts.dryRun ? { dryRun: ['All'] } : {}),
  };
}
