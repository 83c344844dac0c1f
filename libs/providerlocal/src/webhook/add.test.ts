import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { AdmissionRequest, HandlerContext, KubernetesObject } from '@gardener-ts/controller-runtime';
import { createLogger } from '@gardener-ts/logging';
import { providerLocalWebhookHandlers } from './add.js';
import { WebhookPaths } from './configurations.js';
import { KubeletConfigPath } from './ensurer.js';

const hctx: HandlerContext = {
  log: createLogger({ name: 'test', level: 'silent' }),
  signal: new AbortController().signal,
};

const groups: Record<string, [string, string]> = {
  Node: ['', 'nodes'],
  Deployment: ['apps', 'deployments'],
  OperatingSystemConfig: ['extensions.gardener.cloud', 'operatingsystemconfigs'],
};

function request(kind: string, object: KubernetesObject, subResource?: string): AdmissionRequest {
  const [group, resource] = groups[kind]!;
  return {
    uid: '1',
    kind: { group, version: 'v1', kind },
    resource: { group, version: 'v1', resource },
    ...(subResource ? { subResource } : {}),
    namespace: object.metadata?.namespace,
    name: object.metadata?.name,
    operation: 'UPDATE',
    userInfo: {},
    object,
  } as AdmissionRequest;
}

describe('providerLocalWebhookHandlers', () => {
  const handlers = providerLocalWebhookHandlers();

  it('serves the node webhook at the seed and the shoot path', async () => {
    expect([...handlers.keys()].sort()).toEqual(Object.values(WebhookPaths).sort());
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n' },
      status: { capacity: { cpu: '2' }, allocatable: { cpu: '2' } },
    };
    for (const path of [WebhookPaths.node, WebhookPaths.nodeShoot]) {
      const result = await handlers.get(path)!(request('Node', node, 'status'), hctx);
      expect(result).toMatchObject({
        allowed: true,
        patched: { status: { capacity: { cpu: '100', memory: '100Gi' } } },
      });
    }
  });

  it("sets failSwapOn=false in an OSC's kubelet configuration at the control plane path", async () => {
    const osc = {
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'OperatingSystemConfig',
      metadata: { name: 'osc', namespace: 'shoot--local--local' },
      spec: {
        type: 'local',
        files: [{ path: KubeletConfigPath, content: { inline: { encoding: '', data: 'failSwapOn: true\n' } } }],
      },
    };
    const result = (await handlers.get(WebhookPaths.controlPlane)!(request('OperatingSystemConfig', osc), hctx)) as {
      patched?: typeof osc;
    };
    expect(parse(result.patched!.spec.files[0]!.content.inline.data)).toEqual({ failSwapOn: false });
  });

  it('labels the kube-scheduler Deployment at the control plane path and lets other Deployments pass', async () => {
    const deployment = (name: string) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: 'shoot--local--local' },
      spec: { template: { metadata: { labels: { app: 'kubernetes' } }, spec: { containers: [] } } },
    });
    const handler = handlers.get(WebhookPaths.controlPlane)!;
    const scheduler = (await handler(request('Deployment', deployment('kube-scheduler')), hctx)) as {
      patched?: ReturnType<typeof deployment>;
    };
    expect(scheduler.patched!.spec.template.metadata.labels).toEqual({
      app: 'kubernetes',
      'injected-by': 'provider-local',
    });
    for (const name of ['kube-apiserver', 'machine-controller-manager', 'etcd-druid'])
      expect(await handler(request('Deployment', deployment(name)), hctx)).toEqual({ allowed: true });
  });
});
