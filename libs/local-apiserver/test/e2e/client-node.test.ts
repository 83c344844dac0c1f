// @kubernetes/client-node against the local API server: typed clients, informers, patches, status, conflicts.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';

let cluster: TestCluster;
let kc: k8s.KubeConfig;

beforeAll(async () => {
  cluster = await startTestCluster();
  kc = new k8s.KubeConfig();
  kc.loadFromString(cluster.server.kubeconfig);
});
afterAll(async () => cluster?.stop());

describe('@kubernetes/client-node against the local API server', () => {
  it('lists and watches through an informer, seeing adds, updates and deletes', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const informer = k8s.makeInformer(kc, '/api/v1/namespaces/default/configmaps', () =>
      core.listNamespacedConfigMap({ namespace: 'default' }),
    );
    const seen: string[] = [];
    // Only our object: the namespace also holds kube-root-ca.crt, published by the server's controllers.
    const ours = (o: k8s.V1ConfigMap) => o.metadata?.name === 'inf';
    informer.on('add', (o) => ours(o) && seen.push(`add:${o.metadata?.name}`));
    informer.on('update', (o) => ours(o) && seen.push(`update:${o.metadata?.name}:${o.data?.v}`));
    informer.on('delete', (o) => ours(o) && seen.push(`delete:${o.metadata?.name}`));
    await informer.start();
    await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'inf' }, data: { v: '1' } },
    });
    await core.patchNamespacedConfigMap(
      { namespace: 'default', name: 'inf', body: { data: { v: '2' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'inf' });
    await waitFor('all three events', () => seen.includes('delete:inf'));
    expect(seen).toEqual(['add:inf', 'update:inf:2', 'delete:inf']);
    await informer.stop();
  });

  it('keeps status apart from spec and bumps generation on spec changes only', async () => {
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    const body: k8s.V1Deployment = {
      metadata: { name: 'app' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
      },
      status: { replicas: 9 },
    };
    const created = await apps.createNamespacedDeployment({ namespace: 'default', body });
    expect(created.status?.replicas).toBeUndefined();
    expect(created.metadata?.generation).toBe(1);
    expect(created.spec?.replicas).toBe(1);
    expect(created.spec?.strategy?.rollingUpdate?.maxSurge).toBe('25%');

    const withStatus = await apps.replaceNamespacedDeploymentStatus({
      namespace: 'default',
      name: 'app',
      body: { ...created, status: { replicas: 1, observedGeneration: 1 }, spec: { ...created.spec!, replicas: 5 } },
    });
    expect(withStatus.status?.replicas).toBe(1);
    expect(withStatus.spec?.replicas).toBe(1);
    expect(withStatus.metadata?.generation).toBe(1);

    const scaled = await apps.replaceNamespacedDeployment({
      namespace: 'default',
      name: 'app',
      body: { ...withStatus, spec: { ...withStatus.spec!, replicas: 3 }, status: {} },
    });
    expect(scaled.metadata?.generation).toBe(2);
    expect(scaled.status?.replicas).toBe(1);

    // A write without changes is a no-op: same resourceVersion.
    const again = await apps.replaceNamespacedDeployment({ namespace: 'default', name: 'app', body: scaled });
    expect(again.metadata?.resourceVersion).toBe(scaled.metadata?.resourceVersion);
  });

  it('refuses a stale resourceVersion with 409 Conflict', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const cm = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'occ' }, data: { v: '1' } },
    });
    await core.replaceNamespacedConfigMap({ namespace: 'default', name: 'occ', body: { ...cm, data: { v: '2' } } });
    const stale = core.replaceNamespacedConfigMap({
      namespace: 'default',
      name: 'occ',
      body: { ...cm, data: { v: '3' } },
    });
    await expect(stale).rejects.toMatchObject({ code: 409 });
    const error = await stale.catch((e: k8s.ApiException<string>) => JSON.parse(e.body));
    expect(error).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409 });
    expect(error.message).toContain('the object has been modified');
  });

  it('pages through a list with limit and continue', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    for (let i = 0; i < 7; i++)
      await core.createNamespacedSecret({
        namespace: 'default',
        body: { metadata: { name: `page-${i}`, labels: { page: 'yes' } } },
      });
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page: k8s.V1SecretList = await core.listNamespacedSecret({
        namespace: 'default',
        labelSelector: 'page=yes',
        limit: 3,
        _continue: token,
      });
      names.push(...page.items.map((s) => s.metadata!.name!));
      token = page.metadata?._continue;
    } while (token);
    expect(names).toEqual(['page-0', 'page-1', 'page-2', 'page-3', 'page-4', 'page-5', 'page-6']);
  });

  it('answers bad input with a Status and the right code', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await expect(
      core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'Bad_Name' } } }),
    ).rejects.toMatchObject({ code: 422 });
    await expect(core.readNamespacedConfigMap({ namespace: 'default', name: 'missing' })).rejects.toMatchObject({
      code: 404,
    });
    await expect(
      core.createNamespacedConfigMap({ namespace: 'nope', body: { metadata: { name: 'x' } } }),
    ).rejects.toMatchObject({ code: 404 });
  });
});
