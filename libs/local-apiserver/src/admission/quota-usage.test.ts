// kube's quota evaluators and the per-quota check: what objects charge, and that a check never admits past `hard`.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Quantity } from '@gardener-ts/api';
import {
  chargesTo,
  checkQuota,
  objectCountName,
  objectUsage,
  resourceOfName,
  type GroupResource,
  type ResourceList,
} from './quota-usage.js';

const SHOOTS = { group: 'core.gardener.cloud', resource: 'shoots' };
const core = (resource: string): GroupResource => ({ group: '', resource });
const list = (entries: Record<string, number | string>): ResourceList =>
  new Map(Object.entries(entries).map(([n, v]) => [n, Quantity.parse(String(v))]));
const plain = (l: ResourceList) => Object.fromEntries([...l].map(([n, q]) => [n, q.toString()]));

describe('objectUsage', () => {
  it('charges a custom resource one count/<plural>.<group>', () => {
    expect(objectCountName(SHOOTS)).toBe('count/shoots.core.gardener.cloud');
    expect(plain(objectUsage(SHOOTS, { metadata: { name: 's' } }))).toEqual({
      'count/shoots.core.gardener.cloud': '1',
    });
  });

  it('charges core kinds under count/<plural> and their legacy name', () => {
    expect(plain(objectUsage(core('secrets'), {}))).toEqual({ 'count/secrets': '1', secrets: '1' });
    expect(plain(objectUsage(core('configmaps'), {}))).toEqual({ 'count/configmaps': '1', configmaps: '1' });
    expect(plain(objectUsage(core('serviceaccounts'), {}))).toEqual({ 'count/serviceaccounts': '1' });
    expect(plain(objectUsage({ group: 'apps', resource: 'deployments' }, {}))).toEqual({
      'count/deployments.apps': '1',
    });
  });

  it('charges nothing for terminal pods and for events', () => {
    expect(plain(objectUsage(core('pods'), { status: { phase: 'Running' } }))).toEqual({
      'count/pods': '1',
      pods: '1',
    });
    expect(objectUsage(core('pods'), { status: { phase: 'Succeeded' } }).size).toBe(0);
    expect(objectUsage(core('pods'), { status: { phase: 'Failed' } }).size).toBe(0);
    expect(objectUsage(core('events'), {}).size).toBe(0);
  });

  it("charges services' load balancers and node ports", () => {
    const ports = [{ port: 80 }, { port: 443, nodePort: 30443 }];
    expect(plain(objectUsage(core('services'), { spec: { type: 'ClusterIP', ports } }))).toEqual({
      'count/services': '1',
      services: '1',
    });
    expect(plain(objectUsage(core('services'), { spec: { type: 'NodePort', ports } }))).toMatchObject({
      'services.nodeports': '2',
    });
    expect(plain(objectUsage(core('services'), { spec: { type: 'LoadBalancer', ports } }))).toMatchObject({
      'services.loadbalancers': '1',
      'services.nodeports': '2',
    });
    const noNodePorts = { type: 'LoadBalancer', ports, allocateLoadBalancerNodePorts: false };
    expect(plain(objectUsage(core('services'), { spec: noNodePorts }))).toMatchObject({ 'services.nodeports': '1' });
  });

  it("charges claims' storage, per storage class too (the beta annotation wins)", () => {
    const claim = { spec: { storageClassName: 'fast', resources: { requests: { storage: '1Gi' } } } };
    expect(plain(objectUsage(core('persistentvolumeclaims'), claim))).toEqual({
      'count/persistentvolumeclaims': '1',
      persistentvolumeclaims: '1',
      'requests.storage': '1Gi',
      'fast.storageclass.storage.k8s.io/persistentvolumeclaims': '1',
      'fast.storageclass.storage.k8s.io/requests.storage': '1Gi',
    });
    const annotated = { ...claim, metadata: { annotations: { 'volume.beta.kubernetes.io/storage-class': 'slow' } } };
    expect([...objectUsage(core('persistentvolumeclaims'), annotated).keys()]).toContain(
      'slow.storageclass.storage.k8s.io/requests.storage',
    );
    // A resize in progress: the larger of requested and allocated.
    const resizing = { ...claim, status: { allocatedResources: { storage: '2Gi' } } };
    expect(plain(objectUsage(core('persistentvolumeclaims'), resizing))['requests.storage']).toBe('2Gi');
  });
});

describe('chargesTo and resourceOfName', () => {
  it('agree: every name an object charges maps back to its resource', () => {
    const cases: [GroupResource, Record<string, unknown>][] = [
      [SHOOTS, {}],
      [core('secrets'), {}],
      [core('pods'), {}],
      [core('services'), { spec: { type: 'LoadBalancer', ports: [{ port: 1 }] } }],
      [
        core('persistentvolumeclaims'),
        { spec: { storageClassName: 'x', resources: { requests: { storage: '1Gi' } } } },
      ],
      [{ group: 'apps', resource: 'deployments' }, {}],
    ];
    for (const [gr, object] of cases) {
      for (const name of objectUsage(gr, object).keys()) {
        expect(chargesTo(gr, name), name).toBe(true);
        expect(resourceOfName(name), name).toEqual(gr);
      }
    }
  });

  it('does not match other resources or compute resources', () => {
    expect(chargesTo(SHOOTS, 'count/secrets')).toBe(false);
    expect(chargesTo(core('secrets'), 'count/shoots.core.gardener.cloud')).toBe(false);
    expect(chargesTo(core('configmaps'), 'secrets')).toBe(false);
    expect(chargesTo(core('pods'), 'requests.cpu')).toBe(false);
    expect(resourceOfName('requests.cpu')).toBeUndefined();
    expect(resourceOfName('count/')).toBeUndefined();
  });
});

describe('checkQuota', () => {
  it("refuses with kube's message, naming only the exceeded resources", () => {
    const hard = list({ 'count/shoots.core.gardener.cloud': 10, 'count/secrets': 800 });
    const used = list({ 'count/shoots.core.gardener.cloud': 10, 'count/secrets': 3 });
    const result = checkQuota('gardener', hard, used, list({ 'count/shoots.core.gardener.cloud': 1 }));
    expect(result).toEqual({
      allowed: false,
      message:
        'exceeded quota: gardener, requested: count/shoots.core.gardener.cloud=1, ' +
        'used: count/shoots.core.gardener.cloud=10, limited: count/shoots.core.gardener.cloud=10',
    });
  });

  it('lists several exceeded resources sorted by name', () => {
    const hard = list({ services: 1, 'count/services': 1, 'services.loadbalancers': 5 });
    const used = list({ services: 1, 'count/services': 1, 'services.loadbalancers': 0 });
    const result = checkQuota('q', hard, used, list({ services: 1, 'count/services': 1, 'services.loadbalancers': 1 }));
    expect(result).toEqual({
      allowed: false,
      message:
        'exceeded quota: q, requested: count/services=1,services=1, used: count/services=1,services=1, ' +
        'limited: count/services=1,services=1',
    });
  });

  it('admits up to the limit and returns the new usage; names without a limit are not charged', () => {
    const result = checkQuota(
      'q',
      list({ 'count/secrets': 2 }),
      list({ 'count/secrets': 1 }),
      list({ 'count/secrets': 1, secrets: 1 }),
    );
    expect(result.allowed).toBe(true);
    expect(result.allowed && plain(result.used)).toEqual({ 'count/secrets': '2' });
  });

  it('compares quantities, not strings', () => {
    const hard = list({ 'requests.storage': '1Gi' });
    expect(
      checkQuota('q', hard, list({ 'requests.storage': '512Mi' }), list({ 'requests.storage': '512Mi' })).allowed,
    ).toBe(true);
    expect(
      checkQuota('q', hard, list({ 'requests.storage': '512Mi' }), list({ 'requests.storage': '513Mi' })).allowed,
    ).toBe(false);
  });

  const NAMES = ['count/secrets', 'secrets', 'count/shoots.core.gardener.cloud', 'requests.storage'];
  const arbitraryList = fc
    .dictionary(fc.constantFrom(...NAMES), fc.integer({ min: 0, max: 50 }))
    .map((d) => new Map(Object.entries(d).map(([n, v]) => [n, Quantity.of(v)])) as ResourceList);

  it('never admits beyond hard, and refuses only when some limit would be exceeded (property)', () => {
    fc.assert(
      fc.property(arbitraryList, arbitraryList, arbitraryList, (hard, used, delta) => {
        for (const name of hard.keys()) if (!used.has(name)) used.set(name, Quantity.of(0));
        const result = checkQuota('q', hard, used, delta);
        const over = [...delta.keys()].filter(
          (n) => hard.has(n) && used.get(n)!.add(delta.get(n)!).cmp(hard.get(n)!) > 0,
        );
        expect(result.allowed).toBe(over.length === 0);
        if (result.allowed) {
          for (const [name, limit] of hard)
            if (delta.has(name)) expect(result.used.get(name)!.cmp(limit)).toBeLessThanOrEqual(0);
        } else expect(result.message).toMatch(/^exceeded quota: q, requested: .+, used: .+, limited: .+$/);
      }),
    );
  });

  it('charging admitted creates one by one stops exactly at hard (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 60 }), (limit, attempts) => {
        const hard = list({ 'count/shoots.core.gardener.cloud': limit });
        let used = list({ 'count/shoots.core.gardener.cloud': 0 });
        let admitted = 0;
        for (let i = 0; i < attempts; i++) {
          const result = checkQuota('gardener', hard, used, objectUsage(SHOOTS, {}));
          if (!result.allowed) continue;
          admitted++;
          used = result.used;
        }
        expect(admitted).toBe(Math.min(limit, attempts));
      }),
    );
  });
});
