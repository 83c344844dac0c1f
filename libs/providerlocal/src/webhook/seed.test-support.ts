// The seed the webhook integration tests stand up on a test API server: provider-local's namespace, the chart's
// Service and the Endpoints the endpoints controller would write for one replica listening on `port` (the seed's API
// server calls the webhooks through them), and the seed's Node.
import type { Client, KubernetesObject } from '@gardener-ts/controller-runtime';
import { WebhookServiceName, WebhookServicePort } from './configurations.js';

export async function prepareSeed(client: Client, namespace: string, port: number): Promise<void> {
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await client.create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: WebhookServiceName, namespace },
    spec: { ports: [{ name: 'webhooks', port: WebhookServicePort, targetPort: 'webhooks', protocol: 'TCP' }] },
  } as KubernetesObject);
  await client.create({
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: WebhookServiceName, namespace },
    subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'webhooks', port, protocol: 'TCP' }] }],
  } as KubernetesObject);
  await client.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'seed-node' } });
}
