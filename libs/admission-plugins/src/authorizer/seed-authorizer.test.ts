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
    expect((await authorizeSeed('a', core('controllerinstallations', 'get', 'ci-b'), listers)).decision).toBe(
      'no-opinion',
    );
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
      expect(await decide('b', secret(verb, 'generated-bucket-bucket-a', 'garden')), verb).toBe('no-opinion');
    }
    expect(await decide('a', secret('create', 'generated-bucket-unknown', 'garden'))).toBe('no-opinion');
    expect(await decide('a', secret('create', 'generated-bucket-bucket-a', 'garden-p'))).toBe('no-opinion');
    expect(await decide('a', secret('create', 'generated-bucket-', 'garden'))).toBe('no-opinion');
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
      expect((await authorizeSeed('b', bastion(verb, 'cli-a'), bastions)).decision).toBe('no-opinion');
    }
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
    resource: { group: 'core.gardener.cloud', version: 'v1beta1', resource: `${object.kind.toLowerCase()}s` },
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
      spec: { bucketName: 'seed-a-uid', seedName: 'a' },
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
