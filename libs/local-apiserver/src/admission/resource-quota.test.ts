// The ResourceQuota admission step and the quota controller's status, driven directly against a memory store:
// concurrent admissions race on the quota's status (compare-and-swap), updates charge only their increase.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ResourceDefinition } from '../registry/types.js';
import { internalContext } from '../server/context.js';
import type { WriteRequest } from '../server/pipeline.js';
import { MemoryStorage } from '../storage/index.js';
import type { KubeObject } from '../storage/types.js';
import { quotaStatus } from './resource-quota-controller.js';
import { resourceQuotaAdmission } from './resource-quota.js';

const SHOOTS = { group: 'core.gardener.cloud', resource: 'shoots', namespaced: true } as ResourceDefinition;
const SERVICES = { group: '', resource: 'services', namespaced: true } as ResourceDefinition;
const QUOTA_KEY = '/registry/core/resourcequotas/garden-dev/gardener';

let storage: MemoryStorage;
beforeEach(async () => {
  storage = new MemoryStorage();
  await storage.open();
});

const putQuota = (hard: Record<string, string>, extra: KubeObject = {}) =>
  storage.create(QUOTA_KEY, {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: 'gardener', namespace: 'garden-dev' },
    spec: { hard },
    ...extra,
  });
const used = async () => (await storage.get(QUOTA_KEY))!.object.status?.used;

function request(definition: ResourceDefinition, object: KubeObject, over: Partial<WriteRequest> = {}): WriteRequest {
  return {
    operation: 'CREATE',
    definition,
    namespace: 'garden-dev',
    name: object.metadata?.name ?? '',
    subresource: '',
    object,
    ctx: internalContext('test'),
    ...over,
  };
}

describe('resourceQuotaAdmission', () => {
  it('lets exactly `hard` of concurrent creates through: each charge is a compare-and-swap on the quota', async () => {
    await putQuota({ 'count/shoots.core.gardener.cloud': '3' });
    const admit = resourceQuotaAdmission(storage);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => admit(request(SHOOTS, { metadata: { name: `s${i}` } }))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refusals = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
    expect(refusals).toHaveLength(7);
    expect(refusals[0].code).toBe(403);
    expect(refusals[0].message).toMatch(
      /exceeded quota: gardener, requested: count\/shoots.core.gardener.cloud=1, used: count\/shoots.core.gardener.cloud=3, limited: count\/shoots.core.gardener.cloud=3$/,
    );
    expect(await used()).toEqual({ 'count/shoots.core.gardener.cloud': '3' });
  });

  it('counts stored objects when status.used is behind', async () => {
    await putQuota(
      { 'count/shoots.core.gardener.cloud': '1' },
      { status: { used: { 'count/shoots.core.gardener.cloud': '0' } } },
    );
    await storage.create('/registry/core.gardener.cloud/shoots/garden-dev/old', { metadata: { name: 'old' } });
    await expect(resourceQuotaAdmission(storage)(request(SHOOTS, { metadata: { name: 'new' } }))).rejects.toThrow(
      'shoots.core.gardener.cloud "new" is forbidden: exceeded quota: gardener',
    );
  });

  it('charges an update only its increase (a service turning LoadBalancer), and leaves other namespaces alone', async () => {
    await putQuota({ 'services.loadbalancers': '1', services: '5' });
    const admit = resourceQuotaAdmission(storage);
    const old = { metadata: { name: 'a', resourceVersion: '1' }, spec: { type: 'ClusterIP' } };
    await storage.create('/registry/core/services/garden-dev/a', old);
    const lb = { metadata: { name: 'a' }, spec: { type: 'LoadBalancer' } };
    await admit(request(SERVICES, lb, { operation: 'UPDATE', oldObject: old }));
    expect(await used()).toEqual({ 'services.loadbalancers': '1', services: '1' });
    await expect(admit(request(SERVICES, { metadata: { name: 'b' }, spec: { type: 'LoadBalancer' } }))).rejects.toThrow(
      'services "b" is forbidden: exceeded quota: gardener, requested: services.loadbalancers=1, used: services.loadbalancers=1, limited: services.loadbalancers=1',
    );
    await admit(request(SERVICES, { metadata: { name: 'c' } }, { namespace: 'elsewhere' }));
  });

  it('ignores quotas with scopes, subresources and object-count updates', async () => {
    await putQuota({ 'count/shoots.core.gardener.cloud': '0' });
    const admit = resourceQuotaAdmission(storage);
    await expect(admit(request(SHOOTS, { metadata: { name: 's' } }))).rejects.toThrow('exceeded quota');
    await admit(request(SHOOTS, { metadata: { name: 's' } }, { subresource: 'status' }));
    await admit(
      request(SHOOTS, { metadata: { name: 's' } }, { operation: 'UPDATE', oldObject: { metadata: { name: 's' } } }),
    );
    const scoped = '/registry/core/resourcequotas/garden-dev/scoped';
    await storage.delete(QUOTA_KEY);
    await storage.create(scoped, {
      metadata: { name: 'scoped' },
      spec: { hard: { 'count/shoots.core.gardener.cloud': '0' }, scopes: ['BestEffort'] },
    });
    await admit(request(SHOOTS, { metadata: { name: 's' } }));
  });
});

describe('quotaStatus', () => {
  it('copies hard and recounts used for the names it evaluates, keeping the others', () => {
    const quota = {
      spec: { hard: { 'count/shoots.core.gardener.cloud': '10', 'requests.cpu': '4', 'count/secrets': '800' } },
      status: { used: { 'count/shoots.core.gardener.cloud': '7', 'requests.cpu': '1', gone: '3' } },
    };
    const objects = (gr: { resource: string }) =>
      gr.resource === 'shoots' ? [{ metadata: { name: 'a' } }, { metadata: { name: 'b' } }] : [];
    expect(quotaStatus(quota, objects)).toEqual({
      hard: quota.spec.hard,
      used: { 'count/shoots.core.gardener.cloud': '2', 'requests.cpu': '1', 'count/secrets': '0' },
    });
  });
});
