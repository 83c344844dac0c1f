import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { staticListers } from '../listers.js';
import { authorizeSeed, seedOfUser } from './seed-authorizer.js';
import { reviewSubjectAccess } from './handler.js';
import { SeedRestriction } from './seed-restriction.js';
import { runValidating } from '../chain.js';

const objects = [
  {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: { name: 'on-a', namespace: 'garden-p' },
    spec: { seedName: 'a', credentialsBindingName: 'creds' },
  },
  {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: { name: 'on-b', namespace: 'garden-p' },
    spec: { seedName: 'b' },
  },
  {
    apiVersion: 'security.gardener.cloud/v1alpha1',
    kind: 'CredentialsBinding',
    metadata: { name: 'creds', namespace: 'garden-p' },
    credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'cloud', namespace: 'garden-p' },
  },
  {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Seed',
    metadata: { name: 'a' },
    spec: {
      backup: {
        provider: 'local',
        credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'backup-a', namespace: 'garden' },
      },
      dns: {
        provider: {
          type: 'local',
          credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'dns-provider-a', namespace: 'garden' },
        },
        internal: {
          type: 'local',
          domain: 'internal.example.com',
          credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'internal-domain-a', namespace: 'garden' },
        },
      },
    },
  },
  {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'ControllerInstallation',
    metadata: { name: 'ci-b' },
    spec: { seedRef: { name: 'b' } },
  },
  {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'BackupBucket',
    metadata: { name: 'bucket-a' },
    spec: {
      seedName: 'a',
      credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'bucket-creds', namespace: 'garden' },
    },
  },
];
const listers = staticListers(objects);
const core = (resource: string, verb: string, name?: string, namespace?: string) => ({
  group: 'core.gardener.cloud',
  version: 'v1beta1',
  resource,
  verb,
  name,
  namespace,
});
const secret = (verb: string, name: string | undefined, namespace: string) => ({
  group: '',
  version: 'v1',
  resource: 'secrets',
  verb,
  name,
  namespace,
});

describe('seedOfUser', () => {
  it('recognises gardenlets only with the seeds group', () => {
    expect(seedOfUser('gardener.cloud:system:seed:a', ['gardener.cloud:system:seeds', 'system:authenticated'])).toBe(
      'a',
    );
    expect(seedOfUser('gardener.cloud:system:seed:a', ['system:authenticated'])).toBeUndefined();
    expect(seedOfUser('alice', ['gardener.cloud:system:seeds'])).toBeUndefined();
  });

  it('never takes a user outside the seed prefix for a gardenlet', () => {
    fc.assert(
      fc.property(fc.string(), (user) => {
        fc.pre(!user.startsWith('gardener.cloud:system:seed:'));
        expect(seedOfUser(user, ['gardener.cloud:system:seeds'])).toBeUndefined();
      }),
    );
  });
});

describe('authorizeSeed', () => {
  it('allows the objects bound to the seed and refuses those of other seeds', async () => {
    expect((await authorizeSeed('a', core('shoots', 'get', 'on-a', 'garden-p'), listers)).decision).toBe('allow');
    expect((await authorizeSeed('a', core('shoots', 'update', 'on-b', 'garden-p'), listers)).decision).toBe(
      'no-opinion',
    );
    expect((await authorizeSeed('a', core('controllerinstallations', 'patch', 'ci-b'), listers)).decision).toBe(
      'no-opinion',
    );
    // Gardener's always-allowed verbs: get, list and watch of ControllerInstallations and Shoots.
    expect((await authorizeSeed('a', core('controllerinstallations', 'get', 'ci-b'), listers)).decision).toBe('allow');
    expect((await authorizeSeed('a', core('shoots', 'get', 'on-b', 'garden-p'), listers)).decision).toBe('allow');
    expect((await authorizeSeed('b', core('controllerinstallations', 'patch', 'ci-b'), listers)).decision).toBe(
      'allow',
    );
    expect((await authorizeSeed('a', core('seeds', 'update', 'a'), listers)).decision).toBe('allow');
    expect((await authorizeSeed('a', core('seeds', 'update', 'b'), listers)).decision).toBe('no-opinion');
  });

  it("reaches Secrets through the seed's backup and DNS, its buckets and its shoots' credentials", async () => {
    for (const [name, ns] of [
      ['backup-a', 'garden'],
      ['dns-provider-a', 'garden'],
      ['internal-domain-a', 'garden'],
      ['bucket-creds', 'garden'],
      ['cloud', 'garden-p'],
      ['on-a.ca-cluster', 'garden-p'],
      ['anything', 'seed-a'],
    ]) {
      expect((await authorizeSeed('a', secret('get', name!, ns!), listers)).decision, `${ns}/${name}`).toBe('allow');
    }
    for (const [name, ns] of [
      ['backup-a', 'garden'],
      ['internal-domain-a', 'garden'],
      ['on-a.ca-cluster', 'garden-p'],
      ['anything', 'seed-a'],
    ]) {
      expect((await authorizeSeed('b', secret('get', name!, ns!), listers)).decision, `${ns}/${name}`).toBe(
        'no-opinion',
      );
    }
    expect((await authorizeSeed('a', secret('list', undefined, 'garden'), listers)).decision).toBe('no-opinion');
  });

  it('lets the BackupBucket controller read buckets, write its own and their generated Secrets in garden', async () => {
    const decide = async (seed: string, attributes: Parameters<typeof authorizeSeed>[1]) =>
      (await authorizeSeed(seed, attributes, listers)).decision;
    // The seed's bucket is read before it exists; only buckets of the seed are written.
    expect(await decide('a', core('backupbuckets', 'get', 'seed-uid-not-created-yet'))).toBe('allow');
    expect(await decide('a', core('backupbuckets', 'patch', 'seed-uid-not-created-yet'))).toBe('no-opinion');
    expect(await decide('a', { ...core('backupbuckets', 'patch', 'bucket-a'), subresource: 'status' })).toBe('allow');
    expect(await decide('b', { ...core('backupbuckets', 'patch', 'bucket-a'), subresource: 'status' })).toBe(
      'no-opinion',
    );
    for (const verb of ['create', 'get', 'patch', 'update', 'delete']) {
      expect(await decide('a', secret(verb, 'generated-bucket-bucket-a', 'garden')), verb).toBe('allow');
    }
    for (const verb of ['get', 'patch', 'update']) {
      expect(await decide('b', secret(verb, 'generated-bucket-bucket-a', 'garden')), verb).toBe('no-opinion');
    }
    // Creations are left to SeedRestriction and deleting what does not exist is allowed, as in Gardener.
    expect(await decide('b', secret('create', 'generated-bucket-bucket-a', 'garden'))).toBe('allow');
    expect(await decide('b', secret('delete', 'generated-bucket-bucket-a', 'garden'))).toBe('allow');
    expect(await decide('a', secret('patch', 'generated-bucket-unknown', 'garden'))).toBe('no-opinion');
    expect(await decide('a', secret('patch', 'generated-bucket-bucket-a', 'garden-p'))).toBe('no-opinion');
    expect(await decide('a', secret('patch', 'generated-bucket-', 'garden'))).toBe('no-opinion');
  });

  it('gives no opinion for anyone but gardenlets', async () => {
    const review = {
      kind: 'SubjectAccessReview',
      spec: { user: 'alice', groups: [], resourceAttributes: core('shoots', 'get', 'on-a', 'garden-p') },
    };
    expect(await reviewSubjectAccess(review, listers)).toEqual({ allowed: false });
  });
});

describe('authorizeSeed for the BackupEntry controller and the shoot flow', () => {
  const backup = staticListers([
    ...objects,
    {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'BackupBucket',
      metadata: { name: 'seed-a-uid' },
      spec: {
        seedName: 'a',
        credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'backup-a', namespace: 'garden' },
      },
      status: { generatedSecretRef: { name: 'generated-bucket-seed-a-uid', namespace: 'garden' } },
    },
    {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'BackupEntry',
      metadata: { name: 'shoot--p--on-a--uid', namespace: 'garden-p' },
      spec: { bucketName: 'seed-a-uid', seedName: 'a' },
    },
  ]);

  it('lets the gardenlet create, patch and finalize the entries of its seed only (any gardenlet reads them)', async () => {
    const read = core('backupentries', 'get', 'shoot--p--on-a--uid', 'garden-p');
    expect((await authorizeSeed('a', read, backup)).decision).toBe('allow');
    for (const verb of ['patch', 'update']) {
      expect(
        (await authorizeSeed('a', core('backupentries', verb, 'shoot--p--on-a--uid', 'garden-p'), backup)).decision,
      ).toBe('allow');
      expect(
        (await authorizeSeed('b', core('backupentries', verb, 'shoot--p--on-a--uid', 'garden-p'), backup)).decision,
      ).toBe('no-opinion');
    }
    const status = { ...core('backupentries', 'patch', 'shoot--p--on-a--uid', 'garden-p'), subresource: 'status' };
    expect((await authorizeSeed('a', status, backup)).decision).toBe('allow');
    expect((await authorizeSeed('a', core('backupentries', 'create', undefined, 'garden-p'), backup)).decision).toBe(
      'allow',
    );
    expect((await authorizeSeed('a', core('backupentries', 'watch'), backup)).decision).toBe('allow');
  });
});

describe('authorizeSeed for the Bastion controller', () => {
  const bastions = staticListers([
    ...objects,
    {
      apiVersion: 'operations.gardener.cloud/v1alpha1',
      kind: 'Bastion',
      metadata: { name: 'cli-a', namespace: 'garden-p' },
      spec: { shootRef: { name: 'on-a' }, seedName: 'a', sshPublicKey: 'k', ingress: [] },
    },
  ]);
  const bastion = (verb: string, name?: string, subresource?: string) => ({
    group: 'operations.gardener.cloud',
    version: 'v1alpha1',
    resource: 'bastions',
    verb,
    name,
    namespace: 'garden-p',
    ...(subresource ? { subresource } : {}),
  });

  it('lets the gardenlet watch Bastions, read and finalize those of its seed and write their status', async () => {
    for (const verb of ['list', 'watch'])
      expect((await authorizeSeed('a', bastion(verb), bastions)).decision).toBe('allow');
    for (const verb of ['get', 'patch', 'update']) {
      expect((await authorizeSeed('a', bastion(verb, 'cli-a'), bastions)).decision).toBe('allow');
    }
    for (const verb of ['patch', 'update']) {
      expect((await authorizeSeed('b', bastion(verb, 'cli-a'), bastions)).decision).toBe('no-opinion');
    }
    // Gardener's always-allowed verbs of Bastions: create, get, list, watch.
    expect((await authorizeSeed('b', bastion('get', 'cli-a'), bastions)).decision).toBe('allow');
    expect((await authorizeSeed('b', bastion('create'), bastions)).decision).toBe('allow');
    expect((await authorizeSeed('a', bastion('patch', 'cli-a', 'status'), bastions)).decision).toBe('allow');
    expect((await authorizeSeed('b', bastion('patch', 'cli-a', 'status'), bastions)).decision).toBe('no-opinion');
  });

  it('does not let it delete Bastions, even of its seed (the controller-manager does)', async () => {
    expect((await authorizeSeed('a', bastion('delete', 'cli-a'), bastions)).decision).toBe('no-opinion');
    expect((await authorizeSeed('a', bastion('update', 'cli-a', 'finalizers'), bastions)).decision).toBe('no-opinion');
  });
});

describe('SeedRestriction', () => {
  const asSeed = (object: Record<string, any>, seed = 'a') => ({
    operation: 'CREATE' as const,
    kind: { group: 'core.gardener.cloud', version: 'v1beta1', kind: object.kind },
    resource: {
      group: 'core.gardener.cloud',
      version: 'v1beta1',
      resource: object.kind === 'BackupEntry' ? 'backupentries' : `${object.kind.toLowerCase()}s`,
    },
    name: object.metadata.name,
    namespace: object.metadata.namespace,
    object,
    userInfo: { username: `gardener.cloud:system:seed:${seed}`, groups: ['gardener.cloud:system:seeds'] },
  });

  it('lets a gardenlet create only what belongs to its seed', async () => {
    const bucket = {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'BackupBucket',
      metadata: { name: 'x' },
      spec: { seedName: 'a' },
    };
    expect((await runValidating([SeedRestriction], asSeed(bucket), listers)).allowed).toBe(true);
    const refused = await runValidating([SeedRestriction], asSeed(bucket, 'b'), listers);
    expect(!refused.allowed && refused.message).toBe(
      'backupbuckets.core.gardener.cloud "x" is forbidden: object does not belong to seed "b"',
    );
    const seed = { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Seed', metadata: { name: 'b' } };
    expect((await runValidating([SeedRestriction], asSeed(seed, 'a'), listers)).allowed).toBe(false);
    const state = {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'ShootState',
      metadata: { name: 'on-a', namespace: 'garden-p' },
    };
    const entry = {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'BackupEntry',
      metadata: { name: 'shoot--p--on-a--uid', namespace: 'garden-p' },
      // In a BackupBucket of seed a (SeedRestriction checks the bucket too).
      spec: { bucketName: 'bucket-a', seedName: 'a' },
    };
    expect((await runValidating([SeedRestriction], asSeed(entry, 'a'), listers)).allowed).toBe(true);
    expect((await runValidating([SeedRestriction], asSeed(entry, 'b'), listers)).allowed).toBe(false);
    expect((await runValidating([SeedRestriction], asSeed(state, 'a'), listers)).allowed).toBe(true);
    expect((await runValidating([SeedRestriction], asSeed(state, 'b'), listers)).allowed).toBe(false);
  });

  it("lets a gardenlet delete only its seed's own BackupBucket, named after the seed's UID", async () => {
    const withUid = staticListers(
      objects.map((o) => (o.kind === 'Seed' ? { ...o, metadata: { ...o.metadata, uid: 'uid-of-a' } } : o)),
    );
    const deleting = (name: string, seed = 'a') => ({
      ...asSeed({ kind: 'BackupBucket', metadata: { name } }, seed),
      operation: 'DELETE' as const,
      object: null,
    });
    expect(SeedRestriction.handles(deleting('uid-of-a'))).toBe(true);
    expect((await runValidating([SeedRestriction], deleting('uid-of-a'), withUid)).allowed).toBe(true);
    const refused = await runValidating([SeedRestriction], deleting('bucket-a'), withUid);
    expect(!refused.allowed && refused.message).toBe(
      'backupbuckets.core.gardener.cloud "bucket-a" is forbidden: cannot delete unrelated BackupBucket',
    );
    // Seed b has no Seed object here: nothing of it may be deleted.
    expect((await runValidating([SeedRestriction], deleting('uid-of-a', 'b'), withUid)).allowed).toBe(false);
  });

  it('leaves other users alone', async () => {
    const bucket = {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'BackupBucket',
      metadata: { name: 'x' },
      spec: { seedName: 'a' },
    };
    const admin = { ...asSeed(bucket), userInfo: { username: 'admin', groups: ['system:masters'] } };
    expect(SeedRestriction.handles(admin)).toBe(false);
  });
});

describe('authorizeSeed and SeedRestriction for ManagedSeeds (Seed → ManagedSeed → Shoot → Seed)', () => {
  const managedSeed = (name: string, shoot: string, bootstrap: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
    kind: 'ManagedSeed',
    metadata: { name, namespace: 'garden', ...extra },
    spec: {
      shoot: { name: shoot },
      gardenlet: {
        bootstrap,
        config: {
          apiVersion: 'gardenlet.config.gardener.cloud/v1alpha1',
          kind: 'GardenletConfiguration',
          seedConfig: {
            spec: {
              backup: {
                provider: 'local',
                credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: `${name}-backup`, namespace: 'garden' },
              },
            },
          },
        },
      },
    },
  });
  const shoot = (name: string, seedName: string) => ({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: { name, namespace: 'garden' },
    spec: { seedName },
  });
  const seedObject = (name: string, status: Record<string, unknown> = {}) => ({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Seed',
    metadata: { name },
    status,
  });
  // Gardener's token id: SHA-256 of `<namespace>--<name>`, 6 hex digits.
  const tokenOf = (name: string) =>
    `bootstrap-token-${createHash('sha256').update(`garden--${name}`).digest('hex').slice(0, 6)}`;
  const world = [
    ...objects,
    shoot('shoot-child', 'a'),
    shoot('shoot-sa', 'a'),
    shoot('shoot-done', 'a'),
    shoot('shoot-of-b', 'b'),
    // Not registered yet: its gardenlet still bootstraps with a token.
    managedSeed('child', 'shoot-child', 'BootstrapToken'),
    // Not registered yet: bootstraps with a ServiceAccount.
    managedSeed('child-sa', 'shoot-sa', 'ServiceAccount'),
    // Registered, certificate valid: bootstrapped.
    managedSeed('done', 'shoot-done', 'BootstrapToken', { deletionTimestamp: '2026-01-01T00:00:00Z' }),
    seedObject('done', { clientCertificateExpirationTimestamp: '2999-01-01T00:00:00Z' }),
    // Hosted by seed b.
    managedSeed('other', 'shoot-of-b', 'BootstrapToken', { deletionTimestamp: '2026-01-01T00:00:00Z' }),
    seedObject('other'),
    // The bootstrap tokens exist (deleting a Secret that does not exist is allowed, as in Gardener).
    ...['child', 'done', 'other'].map((n) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: tokenOf(n), namespace: 'kube-system' },
    })),
  ];
  const ms = staticListers(world);
  const decide = async (
    attributes: Parameters<typeof authorizeSeed>[1],
    seed = 'a',
    userType: 'gardenlet' | 'extension' = 'gardenlet',
    listers = ms,
  ) => (await authorizeSeed(seed, attributes, listers, userType)).decision;
  const managedSeeds = (verb: string, name?: string, subresource?: string) => ({
    group: 'seedmanagement.gardener.cloud',
    version: 'v1alpha1',
    resource: 'managedseeds',
    verb,
    name,
    namespace: 'garden',
    ...(subresource ? { subresource } : {}),
  });
  const serviceAccount = (verb: string, name: string, namespace = 'garden', subresource?: string) => ({
    group: '',
    version: 'v1',
    resource: 'serviceaccounts',
    verb,
    name,
    namespace,
    ...(subresource ? { subresource } : {}),
  });
  const binding = (verb: string, name: string) => ({
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    resource: 'clusterrolebindings',
    verb,
    name,
  });

  it('lets the parent gardenlet update and patch the ManagedSeeds of its shoots (and their status), read any', async () => {
    for (const verb of ['update', 'patch']) {
      expect(await decide(managedSeeds(verb, 'child'))).toBe('allow');
      expect(await decide(managedSeeds(verb, 'child', 'status'))).toBe('allow');
      expect(await decide(managedSeeds(verb, 'other'))).toBe('no-opinion');
    }
    expect(await decide(managedSeeds('get', 'other'))).toBe('allow');
    expect(await decide(managedSeeds('watch'))).toBe('allow');
    // Gardenlets never create or delete ManagedSeeds.
    expect(await decide(managedSeeds('delete', 'child'))).toBe('no-opinion');
    expect(await decide(managedSeeds('create', 'child'))).toBe('no-opinion');
    expect(await decide(managedSeeds('update', 'child', 'scale'))).toBe('no-opinion');
  });

  it('lets the parent gardenlet update and delete the child Seed; any gardenlet reads Seeds', async () => {
    for (const verb of ['update', 'patch', 'delete']) {
      expect(await decide(core('seeds', verb, 'done')), verb).toBe('allow');
      expect(await decide(core('seeds', verb, 'other')), verb).toBe('no-opinion');
      expect(await decide(core('seeds', verb, 'done'), 'b'), verb).toBe('no-opinion');
    }
    expect(await decide(core('seeds', 'get', 'other'))).toBe('allow');
  });

  it('reaches the bootstrap token of a ManagedSeed whose gardenlet has not bootstrapped yet', async () => {
    for (const verb of ['get', 'patch', 'update', 'delete']) {
      expect(await decide(secret(verb, tokenOf('child'), 'kube-system')), verb).toBe('allow');
      expect(await decide(secret(verb, tokenOf('child'), 'kube-system'), 'b'), verb).toBe('no-opinion');
      // Bootstrapped: the token is no longer reachable, nor is one of another seed's ManagedSeed.
      expect(await decide(secret(verb, tokenOf('done'), 'kube-system')), verb).toBe('no-opinion');
      expect(await decide(secret(verb, tokenOf('other'), 'kube-system')), verb).toBe('no-opinion');
    }
    // The ServiceAccount mode has no token.
    expect(await decide(secret('get', tokenOf('child-sa'), 'kube-system'))).toBe('no-opinion');
  });

  it('bootstraps again when the child Seed’s client certificate expired or the ManagedSeed asks for renew-kubeconfig', async () => {
    const expired = staticListers(
      world.map((o) =>
        o.kind === 'Seed' && o.metadata.name === 'done'
          ? seedObject('done', { clientCertificateExpirationTimestamp: '2020-01-01T00:00:00Z' })
          : o,
      ),
    );
    expect(await decide(secret('patch', tokenOf('done'), 'kube-system'), 'a', 'gardenlet', expired)).toBe('allow');
    const renew = staticListers(
      world.map((o) =>
        o.kind === 'ManagedSeed' && o.metadata.name === 'done'
          ? managedSeed('done', 'shoot-done', 'BootstrapToken', {
              annotations: { 'gardener.cloud/operation': 'renew-kubeconfig' },
            })
          : o,
      ),
    );
    expect(await decide(secret('patch', tokenOf('done'), 'kube-system'), 'a', 'gardenlet', renew)).toBe('allow');
  });

  it("reaches the seed template's backup Secret of its ManagedSeeds", async () => {
    expect(await decide(secret('get', 'done-backup', 'garden'))).toBe('allow');
    expect(await decide(secret('get', 'other-backup', 'garden'))).toBe('no-opinion');
    expect(await decide(secret('get', 'other-backup', 'garden'), 'b')).toBe('allow');
  });

  it('lets the child gardenlet delete its own bootstrap token, ServiceAccount and ClusterRoleBinding', async () => {
    expect(await decide(secret('delete', tokenOf('child'), 'kube-system'), 'child')).toBe('allow');
    expect(await decide(secret('get', tokenOf('child'), 'kube-system'), 'child')).toBe('no-opinion');
    expect(await decide(secret('delete', tokenOf('other'), 'kube-system'), 'child')).toBe('no-opinion');
    expect(await decide(serviceAccount('delete', 'gardenlet-bootstrap-child-sa'), 'child-sa')).toBe('allow');
    expect(await decide(serviceAccount('delete', 'gardenlet-bootstrap-child-sa'), 'child')).toBe('no-opinion');
    const crb = 'gardener.cloud:system:seed-bootstrapper:garden:gardenlet-bootstrap-child-sa';
    expect(await decide(binding('delete', crb), 'child-sa')).toBe('allow');
    expect(await decide(binding('delete', crb), 'child')).toBe('no-opinion');
  });

  it('reaches the bootstrap ServiceAccount and its ClusterRoleBinding in ServiceAccount mode', async () => {
    const crb = 'gardener.cloud:system:seed-bootstrapper:garden:gardenlet-bootstrap-child-sa';
    for (const verb of ['get', 'patch', 'update']) {
      expect(await decide(serviceAccount(verb, 'gardenlet-bootstrap-child-sa')), verb).toBe('allow');
      expect(await decide(serviceAccount(verb, 'gardenlet-bootstrap-child-sa'), 'b'), verb).toBe('no-opinion');
      expect(await decide(binding(verb, crb)), verb).toBe('allow');
      expect(await decide(binding(verb, crb), 'b'), verb).toBe('no-opinion');
    }
    // The token mode has neither; the parent may not delete them; token requests are left to RBAC, as in Gardener.
    expect(await decide(serviceAccount('get', 'gardenlet-bootstrap-child'))).toBe('no-opinion');
    expect(await decide(serviceAccount('delete', 'gardenlet-bootstrap-child-sa'))).toBe('no-opinion');
    expect(await decide(binding('delete', crb))).toBe('no-opinion');
    expect(await decide(serviceAccount('create', 'gardenlet-bootstrap-child-sa', 'garden', 'token'))).toBe(
      'no-opinion',
    );
    // Extensions of the parent seed only read them.
    expect(await decide(serviceAccount('get', 'gardenlet-bootstrap-child-sa'), 'a', 'extension')).toBe('allow');
    expect(await decide(serviceAccount('patch', 'gardenlet-bootstrap-child-sa'), 'a', 'extension')).toBe('no-opinion');
    expect(await decide(binding('get', crb), 'a', 'extension')).toBe('allow');
    expect(await decide(binding('create', crb), 'a', 'extension')).toBe('no-opinion');
  });

  it('reaches, as the graph, what is bound to a child seed (its Shoots, their Secrets); creations stay its own', async () => {
    const nested = staticListers([
      ...world,
      shoot('on-done', 'done'),
      // A grandchild: the ManagedSeed's Shoot runs on the child seed `done`.
      managedSeed('grandchild', 'on-done', 'BootstrapToken'),
      shoot('on-grandchild', 'grandchild'),
    ]);
    const shootOf = (verb: string, name: string) => core('shoots', verb, name, 'garden');
    for (const [seed, expected] of [
      ['a', 'allow'],
      ['done', 'allow'],
      ['b', 'no-opinion'],
    ] as const) {
      expect(await decide(shootOf('patch', 'on-grandchild'), seed, 'gardenlet', nested), seed).toBe(expected);
      expect(await decide(core('seeds', 'update', 'grandchild'), seed, 'gardenlet', nested), seed).toBe(expected);
      expect(await decide(secret('get', 'on-grandchild.kubeconfig', 'garden'), seed, 'gardenlet', nested), seed).toBe(
        expected,
      );
    }
    // The child's own gardenlet does not reach its parent's objects.
    expect(await decide(shootOf('patch', 'shoot-done'), 'done', 'gardenlet', nested)).toBe('no-opinion');
    // Creating a Shoot's Secret is for the seed the Shoot is on, only: the authorizer allows every creation and
    // SeedRestriction checks it (Gardener).
    expect(await decide(secret('create', 'on-grandchild.kubeconfig', 'garden'), 'a', 'gardenlet', nested)).toBe(
      'allow',
    );
    const creating = (seed: string) => ({
      operation: 'CREATE' as const,
      kind: { group: '', version: 'v1', kind: 'Secret' },
      resource: { group: '', version: 'v1', resource: 'secrets' },
      name: 'on-grandchild.kubeconfig',
      namespace: 'garden',
      object: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'on-grandchild.kubeconfig', namespace: 'garden' } },
      userInfo: { username: `gardener.cloud:system:seed:${seed}`, groups: ['gardener.cloud:system:seeds'] },
    });
    expect((await runValidating([SeedRestriction], creating('a'), nested)).allowed).toBe(false);
    expect((await runValidating([SeedRestriction], creating('grandchild'), nested)).allowed).toBe(true);
    expect(await decide(secret('get', tokenOf('grandchild'), 'kube-system'), 'a', 'gardenlet', nested)).toBe('allow');
  });

  it('SeedRestriction admits deleting a child Seed only for the parent of a ManagedSeed being deleted', async () => {
    const deleting = (name: string, seed: string) => ({
      operation: 'DELETE' as const,
      kind: { group: 'core.gardener.cloud', version: 'v1beta1', kind: 'Seed' },
      resource: { group: 'core.gardener.cloud', version: 'v1beta1', resource: 'seeds' },
      name,
      object: null,
      userInfo: { username: `gardener.cloud:system:seed:${seed}`, groups: ['gardener.cloud:system:seeds'] },
    });
    expect(SeedRestriction.handles(deleting('done', 'a'))).toBe(true);
    expect((await runValidating([SeedRestriction], deleting('done', 'a'), ms)).allowed).toBe(true);
    expect((await runValidating([SeedRestriction], deleting('done', 'done'), ms)).allowed).toBe(true);
    const notParent = await runValidating([SeedRestriction], deleting('done', 'b'), ms);
    expect(!notParent.allowed && notParent.message).toBe(
      'seeds.core.gardener.cloud "done" is forbidden: object does not belong to seed "b"',
    );
    const notDeleting = await runValidating([SeedRestriction], deleting('child', 'a'), ms);
    expect(!notDeleting.allowed && notDeleting.message).toBe(
      'seeds.core.gardener.cloud "child" is forbidden: object can only be deleted if corresponding ManagedSeed has a deletion timestamp',
    );
    expect((await runValidating([SeedRestriction], deleting('unmanaged', 'a'), ms)).allowed).toBe(false);
  });
});
