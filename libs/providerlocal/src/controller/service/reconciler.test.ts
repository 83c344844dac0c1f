import { describe, expect, it } from 'vitest';
import { ApiError, type Client } from '@gardener-ts/controller-runtime';
import type { ServicePort } from './desired.js';
import { ServiceReconciler, type ServiceObject } from './reconciler.js';

interface Patched {
  key: string;
  patch: Record<string, any>;
  subresource?: string;
}

/** A seed with these Services (`<namespace>/<name>` → Service) and Nodes; records the patches. */
function seed(
  services: Record<string, ServiceObject>,
  nodes: unknown[] = [],
  refuse?: (key: string, patch: Record<string, any>) => Error | undefined,
) {
  const patches: Patched[] = [];
  const client = {
    get: async (_kind: unknown, key: { namespace: string; name: string }) => {
      const service = services[`${key.namespace}/${key.name}`];
      if (!service) throw new ApiError(404, 'NotFound', `services "${key.name}" not found`);
      return structuredClone(service);
    },
    list: async (kind: { kind: string }) => ({
      items: kind.kind === 'Node' ? nodes : Object.values(structuredClone(services)),
    }),
    patch: async (
      _kind: unknown,
      key: { namespace: string; name: string },
      patch: { patch: Record<string, any> },
      opts?: { subresource?: string },
    ) => {
      const k = `${key.namespace}/${key.name}`;
      const err = refuse?.(k, patch.patch);
      if (err) throw err;
      patches.push({ key: k, patch: patch.patch, ...(opts?.subresource ? { subresource: opts.subresource } : {}) });
      return {};
    },
  } as unknown as Pick<Client, 'get' | 'list' | 'patch'>;
  return { client, patches };
}

const lb = (namespace: string, name: string, ports: ServicePort[]): ServiceObject => ({
  metadata: { namespace, name },
  spec: { type: 'LoadBalancer', ports },
});

describe('ServiceReconciler', () => {
  it("pins the istio gateway's node ports and leaves the status to the substrate's service proxy", async () => {
    const { client, patches } = seed({
      'istio-ingress/istio-ingressgateway': lb('istio-ingress', 'istio-ingressgateway', [
        { name: 'tcp', port: 443, nodePort: 31000 },
      ]),
    });
    await new ServiceReconciler(client).reconcile({ namespace: 'istio-ingress', name: 'istio-ingressgateway' });
    expect(patches).toEqual([
      {
        key: 'istio-ingress/istio-ingressgateway',
        patch: { spec: { ports: [{ name: 'tcp', port: 443, nodePort: 30443 }] } },
      },
    ]);
  });

  it('writes the configured load balancer addresses, node addresses first, once', async () => {
    const node = { metadata: { name: 'n' }, status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }] } };
    const gateway = lb('istio-ingress', 'istio-ingressgateway', [{ name: 'tcp', port: 443, nodePort: 30443 }]);
    const { client, patches } = seed({ 'istio-ingress/istio-ingressgateway': gateway }, [node]);
    const reconciler = new ServiceReconciler(client, { hostIP: '172.18.255.1' });
    await reconciler.reconcile({ namespace: 'istio-ingress', name: 'istio-ingressgateway' });
    expect(patches).toEqual([
      {
        key: 'istio-ingress/istio-ingressgateway',
        patch: { status: { loadBalancer: { ingress: [{ ip: '10.0.0.1' }, { ip: '172.18.255.1' }] } } },
        subresource: 'status',
      },
    ]);

    gateway.status = { loadBalancer: { ingress: [{ ip: '10.0.0.1' }, { ip: '172.18.255.1' }] } };
    patches.length = 0;
    await reconciler.reconcile({ namespace: 'istio-ingress', name: 'istio-ingressgateway' });
    expect(patches).toEqual([]);
  });

  it('ignores Services that are gone or not LoadBalancers', async () => {
    const { client, patches } = seed({
      'istio-ingress/istio-ingressgateway': {
        metadata: { namespace: 'istio-ingress', name: 'istio-ingressgateway' },
        spec: { type: 'ClusterIP', ports: [{ name: 'tcp', port: 443 }] },
      },
    });
    const reconciler = new ServiceReconciler(client, { hostIP: '172.18.255.1' });
    await reconciler.reconcile({ namespace: 'istio-ingress', name: 'istio-ingressgateway' });
    await reconciler.reconcile({ namespace: 'istio-ingress', name: 'missing' });
    expect(patches).toEqual([]);
  });

  it('moves a well-known node port away from another Service that holds it, then asks to be run again', async () => {
    const { client, patches } = seed(
      {
        'istio-ingress/istio-ingressgateway': lb('istio-ingress', 'istio-ingressgateway', [
          { name: 'tcp', port: 443, nodePort: 31000 },
        ]),
        'other/squatter': lb('other', 'squatter', [
          { name: 'web', port: 8443, nodePort: 30443 },
          { name: 'x', port: 9, nodePort: 31999 },
        ]),
      },
      [],
      (key) =>
        key === 'istio-ingress/istio-ingressgateway'
          ? new ApiError(
              422,
              'Invalid',
              'spec.ports[0].nodePort: Invalid value: 30443: provided port is already allocated',
            )
          : undefined,
    );
    const result = await new ServiceReconciler(client, {}, () => 0.5).reconcile({
      namespace: 'istio-ingress',
      name: 'istio-ingressgateway',
    });
    expect(result).toEqual({ requeue: true });
    expect(patches).toEqual([
      {
        key: 'other/squatter',
        patch: {
          spec: {
            ports: [
              { name: 'web', port: 8443, nodePort: 31383 },
              { name: 'x', port: 9, nodePort: 31999 },
            ],
          },
        },
      },
    ]);
  });
});
