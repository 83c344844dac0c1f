// SeedRestriction for the kinds the SeedAuthorizer lets seed clients create for any name: CSRs, Leases, Secrets,
// InternalSecrets, ServiceAccounts, ClusterRoleBindings and Bastions (what Gardener's handler checks on CREATE).
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdmissionAttributes, KubeObject } from '../attributes.js';
import { runValidating } from '../chain.js';
import { staticListers } from '../listers.js';
import { bootstrapTokenSecretName } from './managed-seeds.js';
import { SeedRestriction } from './seed-restriction.js';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

async function csrPem(subject: string): Promise<string> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: subject,
    keys: keys as unknown as Parameters<typeof x509.Pkcs10CertificateRequestGenerator.create>[0]['keys'],
    signingAlgorithm: ALG,
  });
  return csr.toString('pem');
}

const managedSeed = (name: string, shoot: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
  kind: 'ManagedSeed',
  metadata: { name, namespace: 'garden', ...extra },
  spec: {
    shoot: { name: shoot },
    gardenlet: {
      bootstrap: 'BootstrapToken',
      config: {
        seedConfig: {
          spec: {
            backup: {
              credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: `${name}-backup`, namespace: 'garden' },
            },
          },
        },
      },
    },
  },
});
const shoot = (name: string, seedName: string, namespace = 'garden'): KubeObject => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'Shoot',
  metadata: { name, namespace },
  spec: { seedName },
});

const listers = staticListers([
  shoot('on-a', 'a', 'garden-p'),
  shoot('on-b', 'b', 'garden-p'),
  shoot('shoot-child', 'a'),
  shoot('shoot-done', 'a'),
  managedSeed('child', 'shoot-child'),
  managedSeed('done', 'shoot-done'),
  { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Seed', metadata: { name: 'done' }, status: {} },
  {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'BackupBucket',
    metadata: { name: 'bucket-a' },
    spec: { seedName: 'a' },
  },
]);

const GROUPS: Record<string, string> = {
  CertificateSigningRequest: 'certificates.k8s.io',
  ClusterRoleBinding: 'rbac.authorization.k8s.io',
  Lease: 'coordination.k8s.io',
  InternalSecret: 'core.gardener.cloud',
  Bastion: 'operations.gardener.cloud',
};
const RESOURCES: Record<string, string> = {
  CertificateSigningRequest: 'certificatesigningrequests',
  ClusterRoleBinding: 'clusterrolebindings',
  Lease: 'leases',
  InternalSecret: 'internalsecrets',
  Secret: 'secrets',
  ServiceAccount: 'serviceaccounts',
  Bastion: 'bastions',
};
const gardenletOf = (seed: string) => ({
  username: `gardener.cloud:system:seed:${seed}`,
  groups: ['gardener.cloud:system:seeds'],
});
const extensionOf = (seed: string) => ({
  username: `system:serviceaccount:seed-${seed}:extension-foo`,
  groups: ['system:serviceaccounts', `system:serviceaccounts:seed-${seed}`],
});

/** A CREATE of `object` by `user`. */
const creating = (object: KubeObject, user = gardenletOf('a')): AdmissionAttributes => {
  const kind = object.kind!;
  const group = GROUPS[kind] ?? '';
  return {
    operation: 'CREATE',
    kind: { group, version: 'v1', kind },
    resource: { group, version: 'v1', resource: RESOURCES[kind]! },
    name: object.metadata?.name,
    namespace: object.metadata?.namespace,
    object,
    userInfo: user,
  };
};
const admit = async (object: KubeObject, user = gardenletOf('a')) => {
  const a = creating(object, user);
  expect(SeedRestriction.handles(a)).toBe(true);
  return runValidating([SeedRestriction], a, listers);
};
const message = (d: Awaited<ReturnType<typeof admit>>) => (d.allowed ? 'allowed' : d.message);

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('SeedRestriction for CertificateSigningRequests', () => {
  let own: KubeObject;
  let other: KubeObject;
  beforeAll(async () => {
    const csr = async (seed: string) => ({
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: `csr-${seed}` },
      spec: {
        request: b64(await csrPem(`CN=gardener.cloud:system:seed:${seed}, O=gardener.cloud:system:seeds`)),
        usages: ['digital signature', 'key encipherment', 'client auth'],
      },
    });
    own = await csr('a');
    other = await csr('b');
  });

  it('admits a seed client CSR for the gardenlet’s own seed only', async () => {
    expect((await admit(own)).allowed).toBe(true);
    expect(message(await admit(other))).toBe(
      'certificatesigningrequests.certificates.k8s.io "csr-b" is forbidden: object does not belong to seed "a"',
    );
  });

  it('refuses other certificate requests and extensions', async () => {
    const server = { ...own, spec: { ...own.spec, usages: ['server auth'] } };
    expect(message(await admit(server))).toMatch(/is forbidden: can only create CSRs for seed clusters: key usages/);
    const garbage = { ...own, spec: { ...own.spec, request: b64('nope') } };
    expect(await admit(garbage)).toMatchObject({ allowed: false, code: 400 });
    expect(message(await admit(own, extensionOf('a')))).toMatch(
      /extension client may not create CertificateSigningRequests/,
    );
  });
});

describe('SeedRestriction for Leases', () => {
  const lease = (name: string, namespace: string): KubeObject => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace },
  });

  it('admits the seed Lease of its own seed and the leader election Lease', async () => {
    expect((await admit(lease('a', 'gardener-system-seed-lease'))).allowed).toBe(true);
    expect((await admit(lease('b', 'gardener-system-seed-lease'))).allowed).toBe(false);
    expect((await admit(lease('gardenlet-leader-election', 'kube-system'))).allowed).toBe(true);
    expect((await admit(lease('other', 'garden'))).allowed).toBe(false);
  });

  it('admits extensions’ Leases in their seed namespace only', async () => {
    expect((await admit(lease('ext', 'seed-a'), extensionOf('a'))).allowed).toBe(true);
    expect(message(await admit(lease('a', 'gardener-system-seed-lease'), extensionOf('a')))).toMatch(
      /extension client can only create leases in the namespace for seed "a"/,
    );
  });
});

describe('SeedRestriction for Secrets and InternalSecrets', () => {
  const secret = (name: string, namespace: string, extra: Partial<KubeObject> = {}): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace },
    ...extra,
  });
  const token = (managedSeedName: string, data: Record<string, string> = {}) =>
    secret(bootstrapTokenSecretName({ namespace: 'garden', name: managedSeedName }), 'kube-system', {
      type: 'bootstrap.kubernetes.io/token',
      data: {
        'usage-bootstrap-authentication': b64('true'),
        'usage-bootstrap-signing': b64('true'),
        description: b64(`A bootstrap token for the Gardenlet for managed seed garden/${managedSeedName}.`),
        ...data,
      },
    });

  it('admits the generated Secret of its BackupBuckets', async () => {
    expect((await admit(secret('generated-bucket-bucket-a', 'garden'))).allowed).toBe(true);
    expect((await admit(secret('generated-bucket-bucket-a', 'garden'), gardenletOf('b'))).allowed).toBe(false);
    expect(message(await admit(secret('generated-bucket-gone', 'garden')))).toMatch(/"gone" not found/);
  });

  it('admits `<shoot>.<suffix>` Secrets of its Shoots', async () => {
    expect((await admit(secret('on-a.kubeconfig', 'garden-p'))).allowed).toBe(true);
    expect((await admit(secret('on-a.ssh-keypair.old', 'garden-p'))).allowed).toBe(true);
    expect((await admit(secret('on-b.kubeconfig', 'garden-p'))).allowed).toBe(false);
    // Not one of Gardener's suffixes.
    expect((await admit(secret('on-a.whatever', 'garden-p'))).allowed).toBe(false);
  });

  it('admits well-formed bootstrap tokens of ManagedSeeds on its seed that have not bootstrapped yet', async () => {
    expect((await admit(token('child'))).allowed).toBe(true);
    expect((await admit(token('child'), gardenletOf('b'))).allowed).toBe(false);
    expect(await admit(token('done'))).toMatchObject({
      allowed: false,
      code: 400,
      message: 'managed seed garden/done is already bootstrapped',
    });
    expect(await admit(token('child', { 'auth-extra-groups': b64('system:masters') }))).toMatchObject({
      allowed: false,
      code: 422,
    });
    expect(await admit(token('child', { 'usage-bootstrap-signing': b64('false') }))).toMatchObject({
      allowed: false,
      code: 422,
    });
    expect(await admit({ ...token('child'), type: 'Opaque' })).toMatchObject({ allowed: false, code: 422 });
  });

  it('admits the seed template Secrets of its ManagedSeeds and refuses anything else', async () => {
    expect((await admit(secret('child-backup', 'garden'))).allowed).toBe(true);
    expect((await admit(secret('child-backup', 'garden'), gardenletOf('b'))).allowed).toBe(false);
    expect(message(await admit(secret('random', 'garden')))).toBe(
      'secrets "random" is forbidden: object does not belong to seed "a"',
    );
  });

  it('admits InternalSecrets `<shoot>.ca-client` of its Shoots only', async () => {
    const internal = (name: string): KubeObject => ({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'InternalSecret',
      metadata: { name, namespace: 'garden-p' },
    });
    expect((await admit(internal('on-a.ca-client'))).allowed).toBe(true);
    expect((await admit(internal('on-b.ca-client'))).allowed).toBe(false);
    expect((await admit(internal('on-a.other'))).allowed).toBe(false);
    expect(message(await admit(internal('gone.ca-client')))).toMatch(/"gone" not found/);
  });
});

describe('SeedRestriction for ServiceAccounts and ClusterRoleBindings', () => {
  const serviceAccount = (name: string, namespace = 'garden'): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name, namespace },
  });
  const binding = (name: string, role = 'gardener.cloud:system:seed-bootstrapper'): KubeObject => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
  });
  const crb = (ms: string) => `gardener.cloud:system:seed-bootstrapper:garden:gardenlet-bootstrap-${ms}`;

  it('admits the bootstrap ServiceAccount of a ManagedSeed on its seed not bootstrapped yet', async () => {
    expect((await admit(serviceAccount('gardenlet-bootstrap-child'))).allowed).toBe(true);
    expect((await admit(serviceAccount('gardenlet-bootstrap-child'), gardenletOf('b'))).allowed).toBe(false);
    expect((await admit(serviceAccount('gardenlet-bootstrap-done'))).allowed).toBe(false);
    expect((await admit(serviceAccount('extension-x', 'seed-a'))).allowed).toBe(true);
    expect((await admit(serviceAccount('anything', 'garden'))).allowed).toBe(false);
    expect(message(await admit(serviceAccount('extension-x', 'seed-a'), extensionOf('a')))).toMatch(
      /extension client may not create ServiceAccounts/,
    );
  });

  it('admits the bootstrap ClusterRoleBinding only for the bootstrapper role', async () => {
    expect((await admit(binding(crb('child')))).allowed).toBe(true);
    expect((await admit(binding(crb('child')), gardenletOf('b'))).allowed).toBe(false);
    expect(message(await admit(binding(crb('child'), 'cluster-admin')))).toMatch(
      /can only bindings referring to the bootstrapper role/,
    );
    expect((await admit(binding('cluster-admin-for-me'))).allowed).toBe(false);
    expect(message(await admit(binding(crb('child')), extensionOf('a')))).toMatch(
      /extension client may not create ClusterRoleBindings/,
    );
  });
});

describe('SeedRestriction for Bastions', () => {
  it('admits Bastions of its own seed', async () => {
    const bastion = (seedName: string): KubeObject => ({
      apiVersion: 'operations.gardener.cloud/v1alpha1',
      kind: 'Bastion',
      metadata: { name: 'cli', namespace: 'garden-p' },
      spec: { seedName },
    });
    expect((await admit(bastion('a'))).allowed).toBe(true);
    expect((await admit(bastion('b'))).allowed).toBe(false);
  });

  it('leaves everyone else alone', () => {
    const a = creating(
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x', namespace: 'garden' } },
      {
        username: 'alice',
        groups: ['system:authenticated'],
      },
    );
    expect(SeedRestriction.handles(a)).toBe(false);
  });
});
