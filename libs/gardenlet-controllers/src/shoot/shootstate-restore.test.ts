// The restore's secrets against the local API server: the source seed's secrets manager generates the shoot's secrets,
// the ShootState keeps the persisted ones, and in the destination namespace the botanist restoring from it creates them
// before its secrets manager runs — which adopts them: the shoot keeps its CAs and service account key (no new
// cluster CA, so kubeconfigs and tokens stay valid), while the certificates it signs are issued anew.
import { join } from 'node:path';
import { ApiClient, SecretKind, type KubernetesObject, type Secret } from '@gardener-ts/controller-runtime';
import { startTestEnvironment, workspaceRoot, type TestEnvironment } from '@gardener-ts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleValues } from '../component/testdata/fixtures.js';
import { Botanist } from './botanist.js';
import { gardenerDataOf } from './shootstate.js';

let env: TestEnvironment;
let client: ApiClient;
const sourceValues = exampleValues();
const destinationValues = { ...exampleValues(), namespace: `${sourceValues.namespace}-destination` };

beforeAll(async () => {
  // The botanist syncs the shoot's client CA to the garden as an InternalSecret.
  env = await startTestEnvironment({
    crds: [join(workspaceRoot(), 'libs/api/crds/10-crd-core.gardener.cloud_internalsecrets.yaml')],
  });
  client = await ApiClient.create(env.kubeconfigPath);
  for (const name of [sourceValues.namespace, destinationValues.namespace, sourceValues.shoot.metadata!.namespace!])
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } } as KubernetesObject);
}, 60_000);

afterAll(async () => {
  client?.close();
  await env?.stop();
});

const byConfig = (secrets: Secret[]) =>
  new Map(secrets.map((s) => [s.metadata?.labels?.name ?? '', s] as const).filter(([name]) => name !== ''));

describe('restoring the secrets of a migrated shoot', () => {
  it("the destination's secrets manager adopts the persisted secrets instead of generating new ones", async () => {
    const step = async (botanist: Botanist) => {
      const init = botanist.reconcileSteps().initializeSecretsManagement;
      if (typeof init !== 'function') throw new Error('initializeSecretsManagement is not a step');
      await init(new AbortController().signal);
    };
    // ECDSA certificates: RSA 3072 keys would only make the test slow.
    const fast = { certificateKey: { algorithm: 'ECDSA' } } as const;
    await step(new Botanist(client, client, sourceValues, fast));
    // What the ShootState keeps of them (the extension part is covered in migrate-steps.test.ts).
    const spec = {
      gardener: gardenerDataOf((await client.list(SecretKind, { namespace: sourceValues.namespace })).items),
    };
    const persisted = (spec.gardener ?? []).map((d) => d.name);
    expect(persisted.length).toBeGreaterThan(0);

    await step(new Botanist(client, client, destinationValues, { ...fast, restoreFrom: spec }));
    const source = byConfig((await client.list(SecretKind, { namespace: sourceValues.namespace })).items);
    const destination = byConfig((await client.list(SecretKind, { namespace: destinationValues.namespace })).items);
    for (const [config, secret] of source) {
      if (secret.metadata?.labels?.persist !== 'true') continue;
      // The same secret (name, data) is the one the destination's manager uses.
      expect(destination.get(config)?.metadata?.name, config).toBe(secret.metadata?.name);
      expect(destination.get(config)?.data, config).toEqual(secret.data);
    }
    expect(
      [...source.values()].filter((s) => s.metadata?.labels?.persist === 'true').map((s) => s.metadata?.name),
    ).toEqual(expect.arrayContaining(persisted));
    // What is not persisted (server certificates with the namespace in their names) is generated anew.
    const server = [...source.entries()].find(([, s]) => s.metadata?.labels?.persist !== 'true' && s.data?.['tls.crt']);
    expect(server).toBeDefined();
    expect(destination.get(server![0])?.data?.['tls.crt']).not.toEqual(server![1].data?.['tls.crt']);
  }, 60_000);
});
