// kube's ResourceQuota admission plugin (enabled by default, last of the validating plugins): a namespaced write that
// would take a ResourceQuota of its namespace past `hard` is refused with kube's 403, e.g. `shoots.core.gardener.cloud
// "s11" is forbidden: exceeded quota: gardener, requested: count/shoots.core.gardener.cloud=1, used:
// count/shoots.core.gardener.cloud=10, limited: count/shoots.core.gardener.cloud=10`; an admitted one is charged to
// the quota's `status.used` (compare-and-swap on the quota, so concurrent writes cannot both take the last unit).
//
// Why here and not a webhook in libs/admission-plugins: kube-apiserver itself enforces object-count quotas for every
// resource, custom resources included (Gardener's gardener-apiserver runs the same plugin for its own kinds), so a
// quota on `count/shoots.core.gardener.cloud` or `count/secrets` belongs to the API server's own admission chain.
//
// Deviations from kube, both so that a quota holds without a resource quota controller having synced it: the limits
// are the quota's `spec.hard` (kube reads `status.hard`, which its controller copies from `spec.hard`), and the usage
// is the larger of `status.used` and the usage counted from storage at admission time (kube trusts `status.used`).
// Quotas with scopes (they only select pods) are not evaluated, nor are pods' compute resources (`requests.cpu`, ...).
import { ApiError, errors } from '../api/errors.js';
import type { WriteRequest, WriteStep } from '../server/pipeline.js';
import { collectionPrefix } from '../server/keys.js';
import type { KubeObject, Storage } from '../storage/types.js';
import { StorageError } from '../storage/types.js';
import {
  addLists,
  chargesTo,
  checkQuota,
  formatResourceList,
  objectUsage,
  parseResourceList,
  quotaHandles,
  removeZeros,
  subtractNonNegative,
  type GroupResource,
  type ResourceList,
} from './quota-usage.js';
import { Quantity } from '@gardener-ts/api';

const QUOTAS = '/registry/core/resourcequotas/';
/** kube gives up re-reading conflicting quotas after 10 s ("resource quota evaluation timed out"). */
const EVALUATION_TIMEOUT_MS = 10_000;

/** kube's admission.NewForbidden: `<resource>[.<group>] "<name>" is forbidden: <why>`. */
function forbidden(r: WriteRequest, why: string): ApiError {
  const d = r.definition;
  const name = r.name || r.object?.metadata?.name || r.object?.metadata?.generateName || 'Unknown';
  const resource = d.group ? `${d.resource}.${d.group}` : d.resource;
  return new ApiError(403, 'Forbidden', `${resource} "${name}" is forbidden: ${why}`, {
    name,
    group: d.group || undefined,
    kind: d.resource,
  });
}

/** What the request charges: the new object's usage, less the old object's on an update (never negative). */
export function requestUsage(gr: GroupResource, r: Pick<WriteRequest, 'operation' | 'object' | 'oldObject'>) {
  let delta = objectUsage(gr, r.object);
  if (r.operation === 'UPDATE' && r.oldObject?.metadata?.resourceVersion)
    delta = subtractNonNegative(delta, objectUsage(gr, r.oldObject));
  return removeZeros(delta);
}

/** The quota's resource names the request's resource charges; none for quotas with scopes (they select pods only). */
function chargedNames(gr: GroupResource, quota: KubeObject): string[] {
  const spec = quota.spec ?? {};
  if ((spec.scopes ?? []).length > 0 || (spec.scopeSelector?.matchExpressions ?? []).length > 0) return [];
  return Object.keys(spec.hard ?? {}).filter((name) => chargesTo(gr, name));
}

/** The ResourceQuota admission step; `now` is for tests of the evaluation timeout. */
export function resourceQuotaAdmission(storage: Storage, now: () => number = Date.now): WriteStep {
  return async (r) => {
    const d = r.definition;
    if (!d.namespaced || !r.namespace || r.subresource !== '') return;
    const gr: GroupResource = { group: d.group, resource: d.resource };
    if (!quotaHandles(gr, r.operation)) return;
    const quotasOf = async () =>
      (await storage.list({ prefix: `${QUOTAS}${r.namespace}/` })).items.filter(
        (q) => chargedNames(gr, q.object).length > 0,
      );
    let pending = await quotasOf();
    if (pending.length === 0) return;
    const delta = requestUsage(gr, r);
    const negative = [...delta].filter(([, q]) => q.sign() < 0).map(([name]) => name);
    if (negative.length > 0)
      throw forbidden(r, `quota usage is negative for resource(s): ${negative.sort().join(',')}`);
    if (delta.size === 0) return;

    // The usage of the namespace's objects of this resource, counted once (kube's controller would keep it in status).
    const objects = await storage.list({ prefix: collectionPrefix(d, r.namespace) });
    let counted: ResourceList = new Map();
    for (const item of objects.items) {
      // An update's own object is counted as stored; the request charges only its increase.
      counted = addLists(counted, objectUsage(gr, item.object));
    }

    const deadline = now() + EVALUATION_TIMEOUT_MS;
    for (;;) {
      const updates: { key: string; revision: number; quota: KubeObject }[] = [];
      for (const { key, revision, object: quota } of pending) {
        const names = chargedNames(gr, quota);
        const hard = parseResourceList(quota.spec?.hard);
        for (const name of hard.keys()) if (!names.includes(name)) hard.delete(name);
        const statusUsed = parseResourceList(quota.status?.used);
        const used: ResourceList = new Map();
        for (const name of hard.keys()) {
          const fromStatus = statusUsed.get(name) ?? Quantity.of(0);
          const fromStorage = counted.get(name) ?? Quantity.of(0);
          used.set(name, fromStorage.cmp(fromStatus) > 0 ? fromStorage : fromStatus);
        }
        const check = checkQuota(quota.metadata.name, hard, used, delta);
        if (!check.allowed) throw forbidden(r, check.message);
        const status = quota.status ?? {};
        const newUsed = { ...(status.used ?? {}), ...formatResourceList(check.used) };
        updates.push({ key, revision, quota: { ...quota, status: { ...status, used: newUsed } } });
      }
      if (r.ctx.dryRun) return;
      const conflicting = new Set<string>();
      for (const { key, revision, quota } of updates) {
        try {
          await storage.update(key, quota, revision);
        } catch (err) {
          if (!(err instanceof StorageError) || (err.code !== 'Conflict' && err.code !== 'NotFound')) throw err;
          // A deleted quota limits nothing any more; a changed one is checked again as it is now.
          if (err.code === 'Conflict') conflicting.add(key);
        }
      }
      if (conflicting.size === 0) return;
      if (now() > deadline) throw errors.internal('resource quota evaluation timed out');
      await Promise.all([...conflicting].map((key) => storage.settled?.(key)));
      pending = (await quotasOf()).filter((q) => conflicting.has(q.key));
      if (pending.length === 0) return;
    }
  };
}
