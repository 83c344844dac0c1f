// The Endpoints and EndpointSlice controllers against the local API server; the test kubelet gives pods IPs and
// readiness.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@gardener-ts/test-support';
import {
  type EndpointSlice,
  EndpointSliceKind,
  EndpointsKind,
  type Pod,
  PodKind,
  type Service,
  ServiceKind,
} from '../../src/controllers/shared/kinds.js';
import { pod } from './support/fixtures.js';
import { type Harness, startHarness } from './support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness(['endpoints', 'endpointslice']);
  await h.kubelet.addNode('node-1');
});
afterAll(() => h?.stop());

const key = (name: string) => ({ namespace: 'default', name });
const service = (
  name: string,
  selector: Record<string, string>,
  extra: Partial<NonNullable<Service['spec']>> = {},
): Service => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: 'default', labels: { team: 'a' } },
  spec: { selector, ports: [{ name: 'http', port: 80, targetPort: 'web' }], ...extra },
});
const webPod = (
  name: string,
  labels: Record<string, string>,
  containerPort: number,
  extra: Partial<NonNullable<Pod['spec']>> = {},
) =>
  pod(name, labels, {
    nodeName: 'node-1',
    containers: [{ name: 'app', image: 'app:v1', ports: [{ name: 'web', containerPort }] }],
    ...extra,
  });
const ipOf = async (name: string) =>
  (await h.eventually(`${name} to get an IP`, PodKind, key(name), (p) => !!p.status?.podIP)).status!.podIP!;
const slicesOf = async (name: string) =>
  (await h.api.list(EndpointSliceKind, { namespace: 'default', labelSelector: `kubernetes.io/service-name=${name}` }))
    .items;
const endpointOf = (slices: EndpointSlice[], pod: string) =>
  slices.flatMap((s) => s.endpoints ?? []).find((e) => e.targetRef?.name === pod);

describe('Endpoints and EndpointSlices', () => {
  it('lists ready pods with their named target port resolved', async () => {
    await h.api.create(service('web', { app: 'web' }));
    await h.api.create(webPod('web-a', { app: 'web' }, 8080));
    const ip = await ipOf('web-a');
    const ep = await h.eventually(
      'an address in Endpoints',
      EndpointsKind,
      key('web'),
      (e) => (e.subsets?.[0]?.addresses?.length ?? 0) === 1,
    );
    expect(ep.metadata?.labels).toMatchObject({ team: 'a' });
    expect(ep.subsets).toEqual([
      {
        addresses: [
          {
            ip,
            nodeName: 'node-1',
            targetRef: expect.objectContaining({ kind: 'Pod', name: 'web-a', namespace: 'default' }),
          },
        ],
        ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      },
    ]);
    const slices = await waitFor('a slice with web-a', async () => {
      const s = await slicesOf('web');
      return endpointOf(s, 'web-a') ? s : undefined;
    });
    expect(slices).toHaveLength(1);
    expect(slices[0].metadata?.labels).toMatchObject({
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      team: 'a',
    });
    expect(slices[0].metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Service', name: 'web', controller: true });
    expect(slices[0].addressType).toBe('IPv4');
    expect(slices[0].ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    expect(endpointOf(slices, 'web-a')).toMatchObject({
      addresses: [ip],
      nodeName: 'node-1',
      conditions: { ready: true, serving: true, terminating: false },
    });
  });

  it('puts not-ready pods in notReadyAddresses and pods with other port numbers in their own subset and slice', async () => {
    await h.api.create(webPod('web-b', { app: 'web' }, 9090));
    await ipOf('web-b');
    await h.kubelet.setReady('default', 'web-b', false);
    const ep = await h.eventually('web-b not ready in Endpoints', EndpointsKind, key('web'), (e) =>
      (e.subsets ?? []).some((s) => s.notReadyAddresses?.[0]?.targetRef?.name === 'web-b'),
    );
    expect(ep.subsets?.map((s) => s.ports?.[0].port).sort()).toEqual([8080, 9090]);
    const slices = await waitFor('web-b not ready in a slice', async () => {
      const s = await slicesOf('web');
      return endpointOf(s, 'web-b')?.conditions?.ready === false ? s : undefined;
    });
    expect(slices).toHaveLength(2);
    expect(endpointOf(slices, 'web-b')?.conditions).toEqual({ ready: false, serving: false, terminating: false });
  });

  it('drops terminating pods from Endpoints but keeps them in slices as terminating', async () => {
    await h.api.create(webPod('web-c', { app: 'web' }, 8080, {}));
    await h.api.patch(PodKind, key('web-c'), {
      type: 'merge',
      patch: { metadata: { finalizers: ['test.gardener.cloud/hold'] } },
    });
    await ipOf('web-c');
    await waitFor(
      'web-c ready in a slice',
      async () => endpointOf(await slicesOf('web'), 'web-c')?.conditions?.ready === true,
    );
    await h.api.delete(PodKind, key('web-c'));
    const slices = await waitFor('web-c terminating in a slice', async () => {
      const s = await slicesOf('web');
      return endpointOf(s, 'web-c')?.conditions?.terminating ? s : undefined;
    });
    expect(endpointOf(slices, 'web-c')?.conditions).toEqual({ ready: false, serving: true, terminating: true });
    const ep = await h.eventually(
      'web-c gone from Endpoints',
      EndpointsKind,
      key('web'),
      (e) => !JSON.stringify(e.subsets).includes('"web-c"'),
    );
    expect(ep.subsets?.flatMap((s) => s.addresses ?? []).map((a) => a.targetRef?.name)).toEqual(['web-a']);
    await h.api.patch(PodKind, key('web-c'), { type: 'merge', patch: { metadata: { finalizers: null } } });
  });

  it('publishes not-ready addresses as ready when the Service asks for it', async () => {
    await h.api.create(
      service(
        'all',
        { app: 'web' },
        { publishNotReadyAddresses: true, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
      ),
    );
    const ep = await h.eventually(
      'both pods as addresses',
      EndpointsKind,
      key('all'),
      (e) => (e.subsets ?? []).flatMap((s) => s.addresses ?? []).length === 2,
    );
    expect(ep.subsets?.every((s) => !s.notReadyAddresses)).toBe(true);
    const slices = await waitFor('both pods ready in slices', async () => {
      const s = await slicesOf('all');
      return endpointOf(s, 'web-b')?.conditions?.ready === true ? s : undefined;
    });
    expect(endpointOf(slices, 'web-b')?.conditions).toMatchObject({ ready: true, serving: false });
  });

  it('gives a Service without pods an empty slice and removes the Endpoints with the Service', async () => {
    await h.api.create(service('lonely', { app: 'nobody' }));
    const [slice] = await waitFor('an empty slice', async () => {
      const s = await slicesOf('lonely');
      return s.length === 1 ? s : undefined;
    });
    expect(slice.endpoints ?? []).toEqual([]);
    await h.eventually('empty Endpoints', EndpointsKind, key('lonely'), (e) => (e.subsets ?? []).length === 0);
    await h.api.delete(ServiceKind, key('lonely'));
    await waitFor(
      'the Endpoints to be deleted',
      async () => !(await h.api.get(EndpointsKind, key('lonely')).catch(() => undefined)),
    );
  });

  it('leaves Services without a selector to whoever manages their endpoints', async () => {
    await h.api.create({ ...service('manual', {}), spec: { ports: [{ port: 80 }] } });
    await h.api.create({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'manual', namespace: 'default' },
      subsets: [{ addresses: [{ ip: '10.9.9.9' }], ports: [{ port: 80 }] }],
    });
    await h.api.create(service('marker', { app: 'web' }));
    await waitFor(
      'the marker Service to get Endpoints',
      async () => !!(await h.api.get(EndpointsKind, key('marker')).catch(() => undefined)),
    );
    const manual = await h.api.get(EndpointsKind, key('manual'));
    expect(manual.subsets?.[0].addresses?.[0].ip).toBe('10.9.9.9');
    expect(await slicesOf('manual')).toEqual([]);
  });
});
