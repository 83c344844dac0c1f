// The legacy ServiceAccount token Secret steps of a ServiceAccount key rotation against the local API server (the
// "shoot" being that server): a ServiceAccount referencing a legacy token Secret gets a new
// `kubernetes.io/service-account-token` Secret referenced first and the rotation label (a second run changes nothing),
// one without Secrets is left alone; completing deletes the Secrets created before the preparation finished and drops
// them from `secrets` with the label.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, Kinds } from '@gardener-ts/controller-runtime';
import { startTestEnvironment, type TestEnvironment } from '@gardener-ts/testing';
import {
  LabelKeyRotationKeyName,
  createNewServiceAccountSecrets,
  deleteOldServiceAccountSecrets,
  serviceAccountSecretSuffix,
} from '../src/shoot/rotation-steps.js';

let env: TestEnvironment;
let client: ApiClient;
const ns = 'legacy-tokens';
const key = { name: 'service-account-key-1a2b3c', data: { id_rsa: Buffer.from('private key').toString('base64') } };
const newSecret = `builder-token-${serviceAccountSecretSuffix(key.data)}`;

interface ServiceAccount {
  metadata: { labels?: Record<string, string> };
  secrets?: { name: string }[];
}
const serviceAccount = async (name: string) =>
  (await client.get(Kinds.ServiceAccount, { namespace: ns, name })) as unknown as ServiceAccount;

beforeAll(async () => {
  env = await startTestEnvironment();
  client = await ApiClient.create(env.kubeconfigPath);
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await client.create({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'builder-token-old',
      namespace: ns,
      annotations: { 'kubernetes.io/service-account.name': 'builder' },
    },
    type: 'kubernetes.io/service-account-token',
  } as never);
  await client.create({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'builder', namespace: ns },
    secrets: [{ name: 'builder-token-old' }],
  } as never);
  await client.create({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'bound', namespace: ns },
  } as never);
});

afterAll(async () => {
  client?.close();
  await env?.stop();
});

describe('legacy ServiceAccount token Secrets during a ServiceAccount key rotation', () => {
  it('Preparing: a new token Secret, referenced first, and the rotation label; a second run changes nothing', async () => {
    expect(await createNewServiceAccountSecrets(client, key)).toBe(1);
    const builder = await serviceAccount('builder');
    expect(builder.secrets?.map((s) => s.name)).toEqual([newSecret, 'builder-token-old']);
    expect(builder.metadata.labels?.[LabelKeyRotationKeyName]).toBe(key.name);
    const secret = (await client.get(Kinds.Secret, { namespace: ns, name: newSecret })) as { type?: string };
    expect(secret.type).toBe('kubernetes.io/service-account-token');
    expect((await serviceAccount('bound')).metadata.labels).toBeUndefined();
    expect(await createNewServiceAccountSecrets(client, key)).toBe(0);
  });

  it('Completing: the Secrets older than the preparation are deleted and dropped with the label', async () => {
    // The preparation finishes on the next full second; the new Secret (re-created after it, creation timestamps
    // have seconds) is younger, the old one older.
    const preparedAt = new Date(Math.ceil(Date.now() / 1000) * 1000);
    await client.delete(Kinds.Secret, { namespace: ns, name: newSecret });
    await new Promise((resolve) => setTimeout(resolve, preparedAt.getTime() - Date.now() + 50));
    await client.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: newSecret, namespace: ns },
      type: 'kubernetes.io/service-account-token',
    } as never);
    expect(await deleteOldServiceAccountSecrets(client, preparedAt)).toBe(1);
    const builder = await serviceAccount('builder');
    expect(builder.secrets?.map((s) => s.name)).toEqual([newSecret]);
    expect(builder.metadata.labels?.[LabelKeyRotationKeyName]).toBeUndefined();
    await expect(client.get(Kinds.Secret, { namespace: ns, name: 'builder-token-old' })).rejects.toThrow();
    await client.get(Kinds.Secret, { namespace: ns, name: newSecret });
  });
});
