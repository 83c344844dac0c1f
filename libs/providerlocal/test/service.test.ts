// provider-local's Service controller against the local API server: the istio ingress gateway gets its well-known
// node port, and with a load balancer address configured the gateway and a shoot's kube-apiserver Service get it in
// their status (without one the status is the local service proxy's, which this API server alone does not run).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, Kinds, Manager, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { addProviderLocalControllers } from '../src/controller/add.js';

let env: TestEnvironment;
let client: ApiClient;
let mgr: Manager;

beforeAll(async () => {
  env = await startTestEnvironment();
  client = await ApiClient.create(env.kubeconfigPath);
  for (const name of ['istio-ingress', 'shoot--local--local'])
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  mgr = await Manager.create({ clusters: { seed: { kubeConfig: env.kubeconfigPath } }, gracefulShutdownTimeoutMs: 0 });
  addProviderLocalControllers(mgr, ['service'], { loadBalancer: { hostIP: '172.18.255.1' } });
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  client?.close();
  await env?.stop();
});

const loadBalancer = (namespace: string, name: string, labels: Record<string, string>, port: string) =>
  ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { namespace, name, labels },
    spec: {
      type: 'LoadBalancer',
      selector: labels,
      ports: [{ name: port, protocol: 'TCP', port: 443, targetPort: 443 }],
    },
  }) as KubernetesObject;

type Service = KubernetesObject & {
  spec: { ports: { name: string; nodePort?: number }[] };
  status?: { loadBalancer?: { ingress?: { ip?: string }[] } };
};

describe('the Service controller', () => {
  it("pins the istio ingress gateway's node port and reports the host address last", async () => {
    await client.create(
      loadBalancer(
        'istio-ingress',
        'istio-ingressgateway',
        { app: 'istio-ingressgateway', istio: 'ingressgateway' },
        'tcp',
      ),
    );
    const gateway = await waitFor(
      'the gateway to have its node port and address',
      async () => {
        const s = (await client.get(Kinds.Service, {
          namespace: 'istio-ingress',
          name: 'istio-ingressgateway',
        })) as Service;
        return s.spec.ports[0].nodePort === 30443 && s.status?.loadBalancer?.ingress?.length ? s : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(gateway.status?.loadBalancer?.ingress?.at(-1)).toEqual({ ip: '172.18.255.1' });
  });

  it("reports the host address of a shoot's kube-apiserver Service and leaves its node port", async () => {
    await client.create(
      loadBalancer('shoot--local--local', 'kube-apiserver', { app: 'kubernetes', role: 'apiserver' }, 'kube-apiserver'),
    );
    const before = (await client.get(Kinds.Service, {
      namespace: 'shoot--local--local',
      name: 'kube-apiserver',
    })) as Service;
    const apiserver = await waitFor(
      'the kube-apiserver Service to have an address',
      async () => {
        const s = (await client.get(Kinds.Service, {
          namespace: 'shoot--local--local',
          name: 'kube-apiserver',
        })) as Service;
        return s.status?.loadBalancer?.ingress?.length ? s : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(apiserver.status?.loadBalancer?.ingress).toEqual([{ ip: '172.18.255.1' }]);
    expect(apiserver.spec.ports[0].nodePort).toBe(before.spec.ports[0].nodePort);
  });
});
