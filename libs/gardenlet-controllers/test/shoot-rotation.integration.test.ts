// A shoot's certificate authorities rotation through the gardenlet's Shoot reconciler against the local API server
// (garden and seed being one cluster): the example Shoot is created, then annotated `rotate-ca-start` and
// `rotate-ca-complete`, each reconcile running the reconcile flow with the steps that carry the rotation (the control
// plane namespace, secrets management, kube-apiserver; the other steps are left out, skipped as not implemented).
// Checked: the operation annotation is removed, the rotation status goes Preparing → Prepared and Completing →
// Completed with its timestamps, the CA bundle kube-apiserver mounts holds the old and the new CA while Prepared and
// only the new one once Completed, the old CA secret is cleaned up, and kube-apiserver's serving certificate is
// re-issued by the new CA on completion. The ServiceAccount key and ETCD encryption key rotations keep the old key
// next to the new one (kube-apiserver's key bundle, its encryption configuration) until they complete;
// `rotate-ssh-keypair` replaces `<shoot>.ssh-keypair` in the project namespace and keeps the old one as `.old`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { generatedCRDs } from '@gardener-ts/api';
import { ApiClient, Kinds, type KubernetesObject, type ReconcileContext } from '@gardener-ts/controller-runtime';
import { createLogger } from '@gardener-ts/logging';
import { parseCertificates } from '@gardener-ts/secrets-manager';
import { startTestEnvironment, type TestEnvironment } from '@gardener-ts/testing';
import { ShootReconciler } from '../src/controller/shoot/reconciler.js';
import { exampleCloudProfile, exampleShoot } from '../src/component/testdata/fixtures.js';
import { controlPlaneNamespaceOf } from '../src/component/values.js';
import { ShootKind, type Shoot } from '../src/shoot/kinds.js';
import { shootFlowSeedCRDs } from './support/extensions.js';
import { registerReadySeed } from './support/seed.js';

const VERSION = 'v0.0.0-test';
const HOUR = 3600_000;

let env: TestEnvironment;
let admin: ApiClient;
let reconciler: ShootReconciler;
const key = { namespace: 'garden-local', name: 'rotate' };
let namespace: string;

const ctx = (): ReconcileContext => ({
  signal: new AbortController().signal,
  log: createLogger({ name: 'shoot', level: 'silent' }),
  controller: 'shoot',
});

const getShoot = () => admin.get(ShootKind, key);

/** The volumes of kube-apiserver's Deployment, by name, to the Secret each mounts. */
async function kubeAPIServerVolumes(): Promise<Record<string, string>> {
  const deployment = (await admin.get(Kinds.Deployment, { namespace, name: 'kube-apiserver' })) as {
    spec: { template: { spec: { volumes: { name: string; secret?: { secretName: string } }[] } } };
  };
  return Object.fromEntries(
    deployment.spec.template.spec.volumes.filter((v) => v.secret).map((v) => [v.name, v.secret!.secretName]),
  );
}

async function secretData(name: string, dataKey: string): Promise<string> {
  const secret = (await admin.get(Kinds.Secret, { namespace, name })) as { data?: Record<string, string> };
  return Buffer.from(secret.data?.[dataKey] ?? '', 'base64').toString();
}

/** The CAs of the cluster CA bundle kube-apiserver mounts (`/srv/kubernetes/ca`), by subject. */
async function mountedClusterCAs(): Promise<string[]> {
  const bundle = await secretData((await kubeAPIServerVolumes()).ca!, 'bundle.crt');
  return parseCertificates(bundle).map((c) => c.subject);
}

/** The issuer of kube-apiserver's serving certificate (the secret its `/srv/kubernetes/apiserver` volume mounts). */
async function servingCertificateIssuer(): Promise<string> {
  return parseCertificates(await secretData((await kubeAPIServerVolumes()).server!, 'tls.crt'))[0]!.issuer;
}

/** The secrets of the cluster CA config (`name=ca`) the shoot's secrets manager holds. */
async function clusterCASecrets(): Promise<string[]> {
  const list = await admin.list(Kinds.Secret, {
    namespace,
    labelSelector: { 'managed-by': 'secrets-manager', 'manager-identity': 'gardenlet', name: 'ca' },
  });
  return list.items.map((s) => s.metadata!.name!).sort();
}

async function annotate(operation: string): Promise<void> {
  await admin.patch(ShootKind, key, {
    type: 'merge',
    patch: { metadata: { annotations: { 'gardener.cloud/operation': operation } } },
  });
}

const isTime = (t: string | undefined) => t !== undefined && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(t);

beforeAll(async () => {
  env = await startTestEnvironment({ crds: [...generatedCRDs(), ...shootFlowSeedCRDs(['clusters'])] });
  admin = await ApiClient.create(env.kubeconfigPath);
  await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'garden-local' } });
  const profile = exampleCloudProfile();
  delete profile.metadata!.uid;
  await admin.create({ ...profile, apiVersion: 'core.gardener.cloud/v1beta1', kind: 'CloudProfile' } as never);
  await registerReadySeed(admin, 'local', VERSION);
  const shoot: Shoot = exampleShoot((s) => {
    s.metadata = { name: key.name, namespace: key.namespace };
    s.spec.seedName = 'local';
    delete s.status;
  });
  await admin.create({ ...shoot, apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Shoot' } as KubernetesObject);
  namespace = controlPlaneNamespaceOf(await getShoot());
  reconciler = new ShootReconciler({
    garden: admin,
    gardenApi: admin,
    seed: admin,
    seedName: 'local',
    sync: { syncPeriod: HOUR, respectSyncPeriodOverwrite: false, reconcileInMaintenanceOnly: false, waitSyncPeriod: 1 },
    gardener: { id: 'test', name: 'gardenlet', version: VERSION },
    retryDurationMs: 12 * HOUR,
    flowRetry: false,
    botanist: { certificateKey: { algorithm: 'ECDSA', curve: 'P-256' }, inSeedCluster: async () => false },
    reconcileSteps: (steps) => ({
      deployNamespace: steps.deployNamespace,
      initializeSecretsManagement: steps.initializeSecretsManagement,
      deployKubeAPIServer: steps.deployKubeAPIServer,
    }),
  });
}, 120_000);

afterAll(async () => {
  admin?.close();
  await env?.stop();
});

describe('shoot certificate authorities rotation', () => {
  let oldCA: string;
  let newCA: string;

  it('creates the shoot with one cluster CA', async () => {
    await reconciler.reconcile(key, ctx());
    const shoot = await getShoot();
    expect(shoot.status?.lastOperation).toMatchObject({ type: 'Create', state: 'Succeeded' });
    expect(shoot.status?.credentials?.rotation).toBeUndefined();
    const cas = await mountedClusterCAs();
    expect(cas).toHaveLength(1);
    oldCA = cas[0]!;
    expect(await servingCertificateIssuer()).toBe(oldCA);
    expect(await clusterCASecrets()).toHaveLength(1);
  }, 120_000);

  it('rotate-ca-start: Prepared, the annotation removed, kube-apiserver trusting the old and the new CA', async () => {
    const before = new Date(Date.now() - 1000);
    await annotate('rotate-ca-start');
    await reconciler.reconcile(key, ctx());
    const shoot = await getShoot();
    expect(shoot.metadata?.annotations?.['gardener.cloud/operation']).toBeUndefined();
    expect(shoot.status?.lastOperation).toMatchObject({ type: 'Reconcile', state: 'Succeeded' });
    const ca = shoot.status?.credentials?.rotation?.certificateAuthorities;
    expect(ca?.phase).toBe('Prepared');
    expect(isTime(ca?.lastInitiationTime) && isTime(ca?.lastInitiationFinishedTime)).toBe(true);
    expect(Date.parse(ca!.lastInitiationTime!)).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect(Date.parse(ca!.lastInitiationFinishedTime!)).toBeGreaterThanOrEqual(Date.parse(ca!.lastInitiationTime!));
    expect(ca?.lastCompletionTime).toBeUndefined();

    const cas = await mountedClusterCAs();
    expect(cas).toHaveLength(2);
    expect(cas).toContain(oldCA);
    newCA = cas.find((c) => c !== oldCA)!;
    // Served with a certificate of the old CA while clients may not know the new one yet.
    expect(await servingCertificateIssuer()).toBe(oldCA);
    expect(await clusterCASecrets()).toHaveLength(2);
  }, 120_000);

  it('a reconcile while Prepared keeps both CAs', async () => {
    await annotate('reconcile');
    await reconciler.reconcile(key, ctx());
    const shoot = await getShoot();
    expect(shoot.status?.credentials?.rotation?.certificateAuthorities?.phase).toBe('Prepared');
    expect((await mountedClusterCAs()).sort()).toEqual([oldCA, newCA].sort());
  }, 120_000);

  it('rotate-ca-complete: Completed, only the new CA left, the serving certificate re-issued by it', async () => {
    await annotate('rotate-ca-complete');
    await reconciler.reconcile(key, ctx());
    const shoot = await getShoot();
    expect(shoot.metadata?.annotations?.['gardener.cloud/operation']).toBeUndefined();
    const ca = shoot.status?.credentials?.rotation?.certificateAuthorities;
    expect(ca?.phase).toBe('Completed');
    expect(isTime(ca?.lastCompletionTime)).toBe(true);
    expect(ca?.lastCompletionTriggeredTime).toBeUndefined();
    expect(ca?.lastInitiationFinishedTime).toBeUndefined();
    expect(isTime(ca?.lastInitiationTime)).toBe(true);

    expect(await mountedClusterCAs()).toEqual([newCA]);
    expect(await servingCertificateIssuer()).toBe(newCA);
    // The old CA's secret was cleaned up after the flow.
    expect(await clusterCASecrets()).toHaveLength(1);
  }, 120_000);

  it('stays with the new CA on the next reconcile', async () => {
    await annotate('reconcile');
    await reconciler.reconcile(key, ctx());
    expect(await mountedClusterCAs()).toEqual([newCA]);
    expect((await getShoot()).status?.credentials?.rotation?.certificateAuthorities?.phase).toBe('Completed');
  }, 120_000);
});

describe('shoot ServiceAccount key and ETCD encryption key rotations', () => {
  /** The PEM keys of the ServiceAccount key bundle kube-apiserver mounts (verification of tokens). */
  async function serviceAccountKeys(): Promise<number> {
    const bundle = await secretData((await kubeAPIServerVolumes())['service-account-key-bundle']!, 'bundle.key');
    return bundle.match(/-----BEGIN [A-Z ]*PRIVATE KEY-----/g)?.length ?? 0;
  }

  /** The AES-CBC key names of kube-apiserver's encryption configuration, the encrypting key first. */
  async function encryptionKeys(): Promise<string[]> {
    const config = parse(
      await secretData((await kubeAPIServerVolumes())['etcd-encryption-secret']!, 'encryption-configuration.yaml'),
    ) as { resources: { providers: { aescbc?: { keys: { name: string }[] } }[] }[] };
    return config.resources[0]!.providers.flatMap((p) => p.aescbc?.keys.map((k) => k.name) ?? []);
  }

  it('keeps the old keys next to the new ones while Prepared', async () => {
    expect(await serviceAccountKeys()).toBe(1);
    const [oldKey] = await encryptionKeys();
    await annotate('rotate-serviceaccount-key-start');
    await reconciler.reconcile(key, ctx());
    await annotate('rotate-etcd-encryption-key-start');
    await reconciler.reconcile(key, ctx());
    const rotation = (await getShoot()).status?.credentials?.rotation;
    expect(rotation?.serviceAccountKey?.phase).toBe('Prepared');
    expect(rotation?.etcdEncryptionKey?.phase).toBe('Prepared');
    expect(await serviceAccountKeys()).toBe(2);
    const keys = await encryptionKeys();
    expect(keys).toHaveLength(2);
    // The new key encrypts, the old one still decrypts.
    expect(keys[1]).toBe(oldKey);
  }, 120_000);

  it('drops the old keys on completion', async () => {
    const [newKey] = await encryptionKeys();
    await annotate('rotate-serviceaccount-key-complete');
    await reconciler.reconcile(key, ctx());
    await annotate('rotate-etcd-encryption-key-complete');
    await reconciler.reconcile(key, ctx());
    const rotation = (await getShoot()).status?.credentials?.rotation;
    expect(rotation?.serviceAccountKey?.phase).toBe('Completed');
    expect(rotation?.etcdEncryptionKey?.phase).toBe('Completed');
    expect(await serviceAccountKeys()).toBe(1);
    expect(await encryptionKeys()).toEqual([newKey]);
  }, 120_000);
});

describe('shoot SSH keypair rotation', () => {
  const gardenKeypair = async (suffix: string) => {
    const secret = (await admin
      .get(Kinds.Secret, { namespace: key.namespace, name: `${key.name}.${suffix}` })
      .catch(() => undefined)) as { data?: Record<string, string> } | undefined;
    return secret ? Buffer.from(secret.data?.['id_rsa.pub'] ?? '', 'base64').toString() : undefined;
  };

  it('keeps the previous keypair as .old after rotate-ssh-keypair', async () => {
    const before = await gardenKeypair('ssh-keypair');
    expect(before).toMatch(/^ssh-rsa /);
    expect(await gardenKeypair('ssh-keypair.old')).toBeUndefined();

    await annotate('rotate-ssh-keypair');
    await reconciler.reconcile(key, ctx());
    const shoot = await getShoot();
    expect(shoot.metadata?.annotations?.['gardener.cloud/operation']).toBeUndefined();
    const ssh = shoot.status?.credentials?.rotation?.sshKeypair;
    expect(isTime(ssh?.lastInitiationTime) && isTime(ssh?.lastCompletionTime)).toBe(true);
    const after = await gardenKeypair('ssh-keypair');
    expect(after).toMatch(/^ssh-rsa /);
    expect(after).not.toBe(before);
    expect(await gardenKeypair('ssh-keypair.old')).toBe(before);
  }, 120_000);
});
