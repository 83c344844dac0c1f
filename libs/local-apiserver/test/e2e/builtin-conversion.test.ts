// Built-in resources served in two group-versions, with the real kubectl v1.35: core/v1 and events.k8s.io/v1 Events
// are one resource in storage (stored as core/v1), autoscaling/v1 and autoscaling/v2 HorizontalPodAutoscalers convert
// as kube converts them (stored as v2; v1 keeps what it cannot express in autoscaling.alpha.kubernetes.io/* annotations).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl, waitFor } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { openWatch, rawClient } from './raw-client.js';

const NS = 'conv';

let cluster: TestCluster;
let api: ReturnType<typeof rawClient>;
let k: (args: string[], input?: string) => Promise<string>;
const getJson = async (args: string[]) => JSON.parse(await k(['get', ...args, '-o', 'json']));

beforeAll(async () => {
  cluster = await startTestCluster();
  api = rawClient(cluster.server);
  k = (args, input) => kubectl(cluster.kubeconfigPath, args, { input });
  await k(['create', 'namespace', NS]);
});
afterAll(async () => cluster?.stop());

const modernEvent = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name, namespace: NS, labels: { made: 'modern' } },
  eventTime: '2026-01-01T00:00:00.000000Z',
  reportingController: 'example.com/ctrl',
  reportingInstance: 'ctrl-1',
  action: 'Reconcile',
  reason: 'Reconciled',
  type: 'Normal',
  note: `note of ${name}`,
  regarding: { apiVersion: 'v1', kind: 'ConfigMap', namespace: NS, name: `cm-${name}` },
  ...extra,
});

const coreEvent = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name, namespace: NS, labels: { made: 'core' } },
  involvedObject: {
    apiVersion: 'v1',
    kind: 'Pod',
    namespace: NS,
    name: `pod-${name}`,
    fieldPath: 'spec.containers{app}',
  },
  reason: 'Started',
  message: `message of ${name}`,
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2026-01-01T00:00:00Z',
  lastTimestamp: '2026-01-01T00:00:05Z',
  count: 2,
  type: 'Warning',
});

const apply = (object: object) => k(['create', '-f', '-'], JSON.stringify(object));

describe('core/v1 and events.k8s.io/v1 Events are one resource', () => {
  it('shows an Event created through events.k8s.io/v1 in `kubectl get events`, converted to core/v1', async () => {
    await apply(modernEvent('modern-1'));
    const table = await k(['get', 'events', '-n', NS]);
    expect(table).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/m);
    expect(table).toMatch(/Normal\s+Reconciled\s+configmap\/cm-modern-1\s+note of modern-1/);

    const core = await getJson(['events.v1.', 'modern-1', '-n', NS]);
    expect(core).toMatchObject({
      apiVersion: 'v1',
      involvedObject: { kind: 'ConfigMap', name: 'cm-modern-1' },
      message: 'note of modern-1',
      reportingComponent: 'example.com/ctrl',
      reportingInstance: 'ctrl-1',
      action: 'Reconcile',
      eventTime: '2026-01-01T00:00:00.000000Z',
    });
    expect(core).not.toHaveProperty('regarding');
    expect(core).not.toHaveProperty('note');

    const modern = await getJson(['events.v1.events.k8s.io', 'modern-1', '-n', NS]);
    expect(modern).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      regarding: { name: 'cm-modern-1' },
      note: 'note of modern-1',
      reportingController: 'example.com/ctrl',
    });
    expect(modern.metadata.uid).toBe(core.metadata.uid);
  });

  it('reads a core/v1 Event through events.k8s.io/v1 with the deprecated* fields', async () => {
    await apply(coreEvent('core-1'));
    const modern = await getJson(['events.v1.events.k8s.io', 'core-1', '-n', NS]);
    expect(modern).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      regarding: { kind: 'Pod', name: 'pod-core-1', fieldPath: 'spec.containers{app}' },
      note: 'message of core-1',
      deprecatedSource: { component: 'kubelet', host: 'node-1' },
      deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2026-01-01T00:00:05Z',
      deprecatedCount: 2,
      type: 'Warning',
    });
    const list = await getJson(['events.v1.events.k8s.io', '-n', NS]);
    expect(list.items.map((e: any) => e.metadata.name).sort()).toEqual(['core-1', 'modern-1']);
    expect(list.items.map((e: any) => e.apiVersion)).toEqual(['events.k8s.io/v1', 'events.k8s.io/v1']);
    expect(list.items.find((e: any) => e.metadata.name === 'core-1')).not.toHaveProperty('message');
    const wide = await k(['get', 'events.v1.events.k8s.io', '-n', NS, '-o', 'wide']);
    expect(wide).toMatch(/spec\.containers\{app\}\s+kubelet, node-1\s+message of core-1\s+\S+\s+2\s+core-1/);
  });

  it("selects by each API's field labels and by labels", async () => {
    const names = async (args: string[]) => (await getJson(args)).items.map((e: any) => e.metadata.name).sort();
    expect(await names(['events.v1.events.k8s.io', '-n', NS, '--field-selector', 'regarding.name=pod-core-1'])).toEqual(
      ['core-1'],
    );
    expect(
      await names(['events.v1.events.k8s.io', '-n', NS, '--field-selector', 'reportingController=example.com/ctrl']),
    ).toEqual(['modern-1']);
    expect(
      await names(['events.v1.events.k8s.io', '-n', NS, '--field-selector', 'type=Warning,source=kubelet']),
    ).toEqual(['core-1']);
    expect(await names(['events', '-n', NS, '--field-selector', 'involvedObject.kind=ConfigMap'])).toEqual([
      'modern-1',
    ]);
    expect(await names(['events', '-n', NS, '--field-selector', 'reportingComponent=example.com/ctrl'])).toEqual([
      'modern-1',
    ]);
    expect(await names(['events', '-n', NS, '--field-selector', 'source=kubelet'])).toEqual(['core-1']);
    expect(await names(['events.v1.events.k8s.io', '-n', NS, '-l', 'made=core'])).toEqual(['core-1']);
    // As in kube, events.k8s.io/v1 has no involvedObject.* field labels.
    const refused = await runKubectl(cluster.kubeconfigPath, [
      'get',
      'events.v1.events.k8s.io',
      '-n',
      NS,
      '--field-selector',
      'involvedObject.name=pod-core-1',
    ]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('field label not supported: involvedObject.name');
  });

  it('delivers writes through one API to watches on the other, in the watched version', async () => {
    const modernWatch = openWatch(
      cluster.server,
      `/apis/events.k8s.io/v1/namespaces/${NS}/events?watch=true&fieldSelector=${encodeURIComponent('regarding.name=pod-core-w')}`,
    );
    const coreWatch = openWatch(
      cluster.server,
      `/api/v1/namespaces/${NS}/events?watch=true&labelSelector=watched%3Dyes`,
    );
    try {
      // The watches start with the existing events (ADDED); wait until both are open by writing until they see it.
      await waitFor('both watches to be open', async () => {
        await api.send('DELETE', `/api/v1/namespaces/${NS}/events/probe`);
        await api.send(
          'POST',
          `/api/v1/namespaces/${NS}/events`,
          JSON.stringify({
            ...coreEvent('probe'),
            metadata: { name: 'probe', labels: { watched: 'yes' } },
            involvedObject: { kind: 'Pod', name: 'pod-core-w' },
          }),
        );
        return (
          modernWatch.events.some((e) => e.object.metadata?.name === 'probe') &&
          coreWatch.events.some((e) => e.object.metadata?.name === 'probe')
        );
      });
      const created = await api.send(
        'POST',
        `/api/v1/namespaces/${NS}/events`,
        JSON.stringify({
          ...coreEvent('core-w'),
          metadata: { name: 'core-w' },
          involvedObject: { kind: 'Pod', name: 'pod-core-w' },
        }),
      );
      expect(created.status, created.body).toBe(201);
      const seenModern = await waitFor('the events.k8s.io watch to see the core write', () =>
        modernWatch.events.find((e) => e.object.metadata?.name === 'core-w'),
      );
      expect(seenModern).toMatchObject({
        type: 'ADDED',
        object: { apiVersion: 'events.k8s.io/v1', note: 'message of core-w', regarding: { name: 'pod-core-w' } },
      });

      const modern = await api.send(
        'POST',
        `/apis/events.k8s.io/v1/namespaces/${NS}/events`,
        JSON.stringify(modernEvent('modern-w', { metadata: { name: 'modern-w', labels: { watched: 'yes' } } })),
      );
      expect(modern.status, modern.body).toBe(201);
      const seenCore = await waitFor('the core watch to see the events.k8s.io write', () =>
        coreWatch.events.find((e) => e.object.metadata?.name === 'modern-w'),
      );
      expect(seenCore).toMatchObject({
        type: 'ADDED',
        object: { apiVersion: 'v1', message: 'note of modern-w', involvedObject: { name: 'cm-modern-w' } },
      });

      await k(['delete', 'events.v1.events.k8s.io', 'core-w', '-n', NS]);
      const deleted = await waitFor('the DELETED event', () =>
        modernWatch.events.find((e) => e.type === 'DELETED' && e.object.metadata?.name === 'core-w'),
      );
      expect(deleted.object.apiVersion).toBe('events.k8s.io/v1');
    } finally {
      modernWatch.stop();
      coreWatch.stop();
    }
  });

  it('deletes through either API and with the namespace, and garbage-collects Events owned by a deleted object', async () => {
    await k(['delete', 'events', 'modern-1', '-n', NS]);
    expect(
      (await runKubectl(cluster.kubeconfigPath, ['get', 'events.v1.events.k8s.io', 'modern-1', '-n', NS])).stderr,
    ).toContain('NotFound');

    await k(['create', 'configmap', 'owner', '-n', NS]);
    const owner = await getJson(['configmap', 'owner', '-n', NS]);
    await apply(
      modernEvent('owned', {
        metadata: {
          name: 'owned',
          namespace: NS,
          ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid }],
        },
      }),
    );
    await k(['delete', 'configmap', 'owner', '-n', NS]);
    await waitFor('the owned Event to be collected', async () =>
      (await runKubectl(cluster.kubeconfigPath, ['get', 'events', 'owned', '-n', NS])).stderr.includes('NotFound'),
    );

    await k(['create', 'namespace', 'conv-gone']);
    await apply({ ...modernEvent('m'), metadata: { name: 'm', namespace: 'conv-gone' } });
    await apply({ ...coreEvent('c'), metadata: { name: 'c', namespace: 'conv-gone' } });
    await k(['delete', 'namespace', 'conv-gone', '--timeout=20s']);
    expect((await getJson(['events', '-n', 'conv-gone'])).items).toEqual([]);
    expect((await getJson(['events.v1.events.k8s.io', '-n', 'conv-gone'])).items).toEqual([]);
  });
});

describe('autoscaling/v1 and autoscaling/v2 HorizontalPodAutoscalers', () => {
  const v1Hpa = {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'cpu', namespace: NS },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 4,
      targetCPUUtilizationPercentage: 65,
    },
  };

  it('reads an HPA created as autoscaling/v1 as v2 with a cpu Utilization metric', async () => {
    await apply(v1Hpa);
    const v2 = await getJson(['horizontalpodautoscalers.v2.autoscaling', 'cpu', '-n', NS]);
    expect(v2.apiVersion).toBe('autoscaling/v2');
    expect(v2.spec.metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 65 } } },
    ]);
    expect(v2.spec).not.toHaveProperty('targetCPUUtilizationPercentage');
    const v1 = await getJson(['horizontalpodautoscalers.v1.autoscaling', 'cpu', '-n', NS]);
    expect(v1.spec).toEqual(v1Hpa.spec);
    expect(v1.metadata.annotations).toBeUndefined();
  });

  it('keeps a v2 memory metric through a v1 read and a v1 write', async () => {
    const memory = {
      type: 'Resource',
      resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } },
    };
    const behavior = {
      scaleDown: { stabilizationWindowSeconds: 120, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
    };
    await apply({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'mem', namespace: NS },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 1,
        maxReplicas: 3,
        metrics: [memory],
        behavior,
      },
    });
    const v1 = await getJson(['horizontalpodautoscalers.v1.autoscaling', 'mem', '-n', NS]);
    expect(v1.apiVersion).toBe('autoscaling/v1');
    expect(v1.spec).not.toHaveProperty('metrics');
    expect(v1.spec).not.toHaveProperty('targetCPUUtilizationPercentage');
    expect(JSON.parse(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics'])).toEqual([
      { type: 'Resource', resource: { name: 'memory', targetAverageValue: '512Mi' } },
    ]);

    // A v1 client's read-modify-write.
    v1.spec.maxReplicas = 6;
    await k(['replace', '-f', '-'], JSON.stringify(v1));
    const v2 = await getJson(['horizontalpodautoscalers.v2.autoscaling', 'mem', '-n', NS]);
    expect(v2.spec.maxReplicas).toBe(6);
    expect(v2.spec.metrics).toEqual([memory]);
    expect(v2.spec.behavior).toEqual(behavior);
    expect(v2.metadata.annotations).toBeUndefined();
  });
});
