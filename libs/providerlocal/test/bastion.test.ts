// provider-local's Bastion controller through the extension SDK against the local API server: the bastion's objects in
// the shoot namespace, `status.ingress` and a succeeded `lastOperation` once the Service has its load balancer address
// and the Pod is ready (the test plays the service proxy and the kubelet), everything removed on deletion. And the
// bastion's view of the machines (`machinesFromAPI`): the shoot namespace's `app=machine` Pods, read through the API.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeConfig } from '@kubernetes/client-node';
import { parseManifests } from '@gardener-ts/api';
import { ApiClient, Kinds, Manager, isNotFound, kind } from '@gardener-ts/controller-runtime';
import type { ExtensionObject } from '@gardener-ts/extensions';
import { clusterObject, extensionResource } from '@gardener-ts/extensions/testing';
import { gardenerAsset, startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { addProviderLocalControllers } from '../src/controller/add.js';
import { machinesFromAPI, resolveTarget } from '../src/ssh/targets.js';

const crd = (plural: string) => gardenerAsset('crds', `10-crd-extensions.gardener.cloud_${plural}.yaml`);
const example = (...path: string[]) =>
  parseManifests(readFileSync(gardenerAsset('examples', ...path), 'utf8'))[0] as Record<string, any>;
const BastionKind = kind<ExtensionObject>('extensions.gardener.cloud/v1alpha1', 'Bastion');
const namespace = 'shoot--local--bastion';
const name = 'cli-xyz';
const objectName = `bastion-${name}`;
const userData =
  '#!/bin/bash -eu\necho "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA" > /home/gardener/.ssh/authorized_keys\n';

let env: TestEnvironment;
let client: ApiClient;
let mgr: Manager;

beforeAll(async () => {
  env = await startTestEnvironment({ crds: [crd('clusters'), crd('bastions')] });
  client = await ApiClient.create(env.kubeconfigPath);
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await client.create(
    clusterObject(namespace, {
      shoot: example('local', 'shoot.yaml'),
      seed: example('50-seed.yaml'),
      cloudProfile: example('local', 'cloudprofile.yaml'),
    }),
  );
  mgr = await Manager.create({ clusters: { seed: { kubeConfig: env.kubeconfigPath } }, gracefulShutdownTimeoutMs: 0 });
  addProviderLocalControllers(mgr, ['bastion']);
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  client?.close();
  await env?.stop();
});

// The Bastion's deletion polls every 10 s until its objects are gone (as Gardener's).
const gone = (get: () => Promise<unknown>) =>
  waitFor(
    'the object to be gone',
    () =>
      get().then(
        () => undefined,
        (err: unknown) => (isNotFound(err) ? true : Promise.reject(err)),
      ),
    { timeoutMs: 30_000 },
  );

describe('the Bastion controller', () => {
  it('runs the bastion Pod behind a LoadBalancer Service and reports its address', async () => {
    await client.create(
      extensionResource('Bastion', namespace, name, {
        type: 'local',
        userData: Buffer.from(userData).toString('base64'),
        ingress: [{ ipBlock: { cidr: '127.0.0.1/32' } }],
      }),
    );
    const pod = await waitFor('the bastion Pod', () =>
      client.get(Kinds.Pod, { namespace, name: objectName }).catch(() => undefined),
    );
    expect(pod.spec?.containers?.[0]?.image).toBe('gardener-ts/bastion');
    const secret = await client.get(Kinds.Secret, { namespace, name: objectName });
    expect(Buffer.from(secret.data!.userdata!, 'base64').toString()).toBe(userData);
    const waiting = await client.get(BastionKind, { namespace, name });
    expect(waiting.status?.lastOperation?.state).not.toBe('Succeeded');

    // The substrate's service proxy and kubelet.
    await client.patch(
      Kinds.Service,
      { namespace, name: objectName },
      { type: 'merge', patch: { status: { loadBalancer: { ingress: [{ ip: '127.0.0.1' }] } } } },
      { subresource: 'status' },
    );
    await client.patch(
      Kinds.Pod,
      { namespace, name: objectName },
      {
        type: 'merge',
        patch: { status: { phase: 'Running', podIP: '127.42.0.3', conditions: [{ type: 'Ready', status: 'True' }] } },
      },
      { subresource: 'status' },
    );
    const ready = await waitFor(
      'the Bastion to succeed',
      async () => {
        const b = await client.get(BastionKind, { namespace, name });
        return b.status?.lastOperation?.state === 'Succeeded' ? b : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(ready.status?.ingress).toEqual({ ip: '127.0.0.1' });

    await client.delete(BastionKind, { namespace, name });
    await gone(() => client.get(BastionKind, { namespace, name }));
    for (const k of [Kinds.Pod, Kinds.Service, Kinds.Secret, Kinds.Role, Kinds.RoleBinding, Kinds.ServiceAccount]) {
      await gone(() => client.get(k, { namespace, name: objectName }));
    }
  }, 60_000);

  it("finds the shoot's machines through the API, and only those", async () => {
    const pod = (podName: string, labels: Record<string, string>) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: podName, namespace, labels },
      spec: { hostname: podName, containers: [{ name: 'node', image: 'gardener-ts/machine' }] },
    });
    for (const [podName, labels, ip] of [
      ['machine-a', { app: 'machine' }, '127.42.0.7'],
      ['etcd-main-0', { app: 'etcd' }, '127.42.0.8'],
    ] as const) {
      await client.create(pod(podName, labels));
      await client.patch(
        Kinds.Pod,
        { namespace, name: podName },
        { type: 'merge', patch: { status: { phase: 'Running', podIP: ip } } },
        { subresource: 'status' },
      );
    }
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(env.kubeconfigPath);
    const machines = await machinesFromAPI(kubeConfig, namespace);
    expect(machines).toEqual([{ names: ['machine-a'], addresses: ['127.42.0.7'] }]);
    expect(resolveTarget(machines, 'machine-a', 22)).toEqual({ host: '127.42.0.7', port: 22, fallbackPort: 2222 });
    expect(resolveTarget(machines, '127.42.0.8', 22)).toBeUndefined();
  });
});
