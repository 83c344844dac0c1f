// The StatefulSet controller (with the scheduler) against the local API server.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@gardener-ts/test-support';
import {
  ControllerRevisionKind,
  PersistentVolumeClaimKind,
  type Pod,
  PodKind,
  type StatefulSet,
  StatefulSetKind,
} from '../../src/controllers/shared/kinds.js';
import { standardStorageClass } from '../../src/controllers/persistentvolume/local-path.js';
import { template } from './support/fixtures.js';
import { type Harness, startHarness } from './support/harness.js';
import { PodWatch } from './support/pod-watch.js';

let h: Harness;
let volumes: string;

beforeAll(async () => {
  // The claims get kind's default class (local-path, WaitForFirstConsumer) from the binder, as in a kind cluster: the
  // scheduler selects each pod's node on its claim, the provisioner makes the volume, and the pod is bound once its
  // claim is Bound (kube's order).
  volumes = await mkdtemp(join(tmpdir(), 'statefulset-volumes-'));
  h = await startHarness(['statefulset', 'scheduler', 'persistentvolume-binder', 'local-path-provisioner'], {
    localVolumesDir: volumes,
  });
  await h.api.create(standardStorageClass());
  await h.kubelet.addNode('node-1');
});
afterAll(async () => {
  await h?.stop();
  if (volumes) await rm(volumes, { recursive: true, force: true });
});

const key = (name: string) => ({ namespace: 'default', name });
const statefulSet = (
  name: string,
  replicas: number,
  extra: Partial<NonNullable<StatefulSet['spec']>> = {},
): StatefulSet => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name, namespace: 'default' },
  spec: {
    replicas,
    serviceName: name,
    selector: { matchLabels: { app: name } },
    template: template({ app: name }),
    ...extra,
  },
});
const podNames = async (app: string) =>
  (await h.api.list(PodKind, { namespace: 'default', labelSelector: `app=${app}` })).items
    .map((p) => p.metadata!.name!)
    .sort();
const revisionOf = (p: Pod) => p.metadata?.labels?.['controller-revision-hash'];

describe('StatefulSet controller', () => {
  it('creates ordinal pods one at a time, each after the previous is running and ready, with their claims', async () => {
    h.kubelet.holdBack.add('db-1');
    await h.api.create(
      statefulSet('db', 3, {
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      }),
    );
    const db1 = await h.eventually('db-1 to exist', PodKind, key('db-1'), () => true);
    const bound = await h.eventually('db-1 to be bound', PodKind, key('db-1'), (p) => !!p.spec?.nodeName);
    // Bound only after its claim: the claim carries the node and is Bound to the volume made for that node.
    const claim = await h.api.get(PersistentVolumeClaimKind, key('data-db-1'));
    expect(claim.status?.phase).toBe('Bound');
    expect(claim.metadata?.annotations?.['volume.kubernetes.io/selected-node']).toBe('node-1');
    expect(Number(bound.metadata?.resourceVersion)).toBeGreaterThan(Number(claim.metadata?.resourceVersion));
    // db-1 is not ready: db-2 must not appear.
    await h.eventually('status to count 2 replicas', StatefulSetKind, key('db'), (s) => s.status?.replicas === 2);
    expect(await podNames('db')).toEqual(['db-0', 'db-1']);
    expect(db1.metadata?.labels).toMatchObject({
      app: 'db',
      'statefulset.kubernetes.io/pod-name': 'db-1',
      'apps.kubernetes.io/pod-index': '1',
    });
    expect(db1.spec).toMatchObject({ hostname: 'db-1', subdomain: 'db' });
    expect(db1.spec?.volumes).toContainEqual({ name: 'data', persistentVolumeClaim: { claimName: 'data-db-1' } });

    h.kubelet.holdBack.delete('db-1');
    await h.kubelet.setReady('default', 'db-1', true);
    const sts = await h.eventually(
      '3 ready replicas',
      StatefulSetKind,
      key('db'),
      (s) => s.status?.readyReplicas === 3,
    );
    expect(await podNames('db')).toEqual(['db-0', 'db-1', 'db-2']);
    const claims = (await h.api.list(PersistentVolumeClaimKind, { namespace: 'default' })).items
      .map((c) => c.metadata?.name)
      .sort();
    expect(claims).toEqual(['data-db-0', 'data-db-1', 'data-db-2']);
    expect(sts.status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      observedGeneration: sts.metadata?.generation,
    });
    expect(sts.status?.currentRevision).toBe(sts.status?.updateRevision);
    const revision = await h.api.get(ControllerRevisionKind, key(sts.status!.updateRevision!));
    expect(revision.revision).toBe(1);
    expect(revisionOf(await h.api.get(PodKind, key('db-0')))).toBe(sts.status?.updateRevision);
  });

  it('rolls out from the highest ordinal down to the partition', async () => {
    const watch = await PodWatch.start(h.api, 'app=db', () => undefined);
    await h.api.patch(StatefulSetKind, key('db'), {
      type: 'merge',
      patch: {
        spec: {
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } },
          template: { spec: { containers: [{ name: 'app', image: 'app:v2' }] } },
        },
      },
    });
    const partial = await h.eventually(
      '2 updated replicas',
      StatefulSetKind,
      key('db'),
      (s) => s.status?.updatedReplicas === 2 && s.status.readyReplicas === 3,
    );
    expect(partial.status?.currentReplicas).toBe(1);
    expect(partial.status?.currentRevision).not.toBe(partial.status?.updateRevision);
    const images = async () =>
      Object.fromEntries(
        (await h.api.list(PodKind, { namespace: 'default', labelSelector: 'app=db' })).items.map((p) => [
          p.metadata!.name,
          p.spec?.containers[0].image,
        ]),
      );
    expect(await images()).toEqual({ 'db-0': 'app:v1', 'db-1': 'app:v2', 'db-2': 'app:v2' });

    await h.api.patch(StatefulSetKind, key('db'), {
      type: 'merge',
      patch: { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } },
    });
    const done = await h.eventually(
      'the update revision to become current',
      StatefulSetKind,
      key('db'),
      (s) =>
        s.status?.currentRevision === s.status?.updateRevision &&
        s.status?.updatedReplicas === 3 &&
        s.status.readyReplicas === 3,
    );
    expect(done.status?.currentReplicas).toBe(3);
    await watch.stop();
    expect(watch.deletions).toEqual(['db-2', 'db-1', 'db-0']);
    expect(await images()).toEqual({ 'db-0': 'app:v2', 'db-1': 'app:v2', 'db-2': 'app:v2' });
  });

  it('scales down from the highest ordinal with kubectl scale, keeping the claims', async () => {
    const watch = await PodWatch.start(h.api, 'app=db', () => undefined);
    await h.kubectl(['scale', 'statefulset/db', '--replicas=1']);
    await waitFor('only db-0 to remain', async () => (await podNames('db')).join() === 'db-0', { timeoutMs: 20_000 });
    await watch.stop();
    expect(watch.deletions).toEqual(['db-2', 'db-1']);
    await h.eventually('1 replica in status', StatefulSetKind, key('db'), (s) => s.status?.replicas === 1);
    expect((await h.api.list(PersistentVolumeClaimKind, { namespace: 'default' })).items).toHaveLength(3);
  });

  it('creates all pods at once with the Parallel policy', async () => {
    for (const n of ['par-0', 'par-1', 'par-2']) h.kubelet.holdBack.add(n);
    await h.api.create(statefulSet('par', 3, { podManagementPolicy: 'Parallel' }));
    await waitFor('3 pods although none is ready', async () => (await podNames('par')).length === 3);
    const sts = await h.eventually('status of 3 unready', StatefulSetKind, key('par'), (s) => s.status?.replicas === 3);
    expect(sts.status?.readyReplicas ?? 0).toBe(0);
  });
});
