// "Initializing secrets management" against the local API server (garden and seed in one): besides the cluster CA,
// the botanist syncs the current client CA of the control plane namespace to the InternalSecret `<shoot>.ca-client` in
// the project namespace, and the garden's garbage collector deletes it with the Shoot.
import { join } from 'node:path';
import { ApiClient, SecretKind, isNotFound, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { startTestEnvironment, waitFor, workspaceRoot, type TestEnvironment } from '@gardener-ts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleValues } from '../component/testdata/fixtures.js';
import { Botanist } from './botanist.js';
import { InternalSecretKind } from './client-ca-sync.js';
import { ShootKind } from './kinds.js';

let env: TestEnvironment;
let client: ApiClient;

beforeAll(async () => {
  const crd = (plural: string) => join(workspaceRoot(), `libs/api/crds/10-crd-core.gardener.cloud_${plural}.yaml`);
  env = await startTestEnvironment({ crds: [crd('shoots'), crd('internalsecrets')] });
  client = await ApiClient.create(env.kubeconfigPath);
}, 60_000);

afterAll(async () => {
  client?.close();
  await env?.stop();
});

describe('the client CA synced to the garden', () => {
  it('is the current ca-client of the seed, gone with the Shoot', async () => {
    const values = exampleValues();
    for (const name of [values.namespace, values.shoot.metadata!.namespace!])
      await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } } as KubernetesObject);
    const { uid: _uid, generation: _generation, ...metadata } = values.shoot.metadata!;
    const { status: _status, ...spec } = values.shoot;
    const shoot = (await client.create({ ...spec, metadata } as KubernetesObject)) as typeof values.shoot;

    const botanist = new Botanist(client, client, { ...values, shoot }, { certificateKey: { algorithm: 'ECDSA' } });
    const init = botanist.reconcileSteps().initializeSecretsManagement;
    if (typeof init !== 'function') throw new Error('initializeSecretsManagement is not a step');
    await init(new AbortController().signal);

    const caClients = (
      await client.list(SecretKind, { namespace: values.namespace, labelSelector: { name: 'ca-client' } })
    ).items;
    expect(caClients).toHaveLength(1);
    const synced = await client.get(InternalSecretKind, {
      namespace: shoot.metadata!.namespace,
      name: `${shoot.metadata!.name}.ca-client`,
    });
    expect(synced.data?.['ca.crt']).toBe(caClients[0]!.data?.['ca.crt']);
    expect(synced.data?.['ca.key']).toBe(caClients[0]!.data?.['ca.key']);
    expect(synced.metadata?.labels?.['gardener.cloud/role']).toBe('ca-client');
    expect(synced.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Shoot', uid: shoot.metadata!.uid });

    await client.delete(ShootKind, { namespace: shoot.metadata!.namespace, name: shoot.metadata!.name! });
    await waitFor('the InternalSecret to be garbage collected', async () => {
      try {
        await client.get(InternalSecretKind, { namespace: synced.metadata!.namespace, name: synced.metadata!.name! });
        return false;
      } catch (err) {
        if (isNotFound(err)) return true;
        throw err;
      }
    });
  }, 60_000);
});
