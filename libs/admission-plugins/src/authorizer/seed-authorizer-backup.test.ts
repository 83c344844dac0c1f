// The SeedAuthorizer's BackupBucket → BackupEntry edge (a bucket and its Secrets belong to the seeds of the
// BackupEntries using it; a BackupEntry to the seed of its Shoot) and the Shoots' managed issuer Secret
// `gardener-system-shoot-issuer/<project>--<shoot UID>` (Gardener's Secret → Shoot edge).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../attributes.js';
import { staticListers } from '../listers.js';
import { backupBucketsOf, managedIssuerSecretOfShoot } from './graph.js';
import { authorizeSeed, type ResourceAttributes } from './seed-authorizer.js';

const CORE = 'core.gardener.cloud/v1beta1';
const bucket = (name: string, seedName: string): KubeObject => ({
  apiVersion: CORE,
  kind: 'BackupBucket',
  metadata: { name },
  spec: { seedName, credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: `creds-${name}`, namespace: 'garden' } },
  status: { generatedSecretRef: { name: `generated-bucket-${name}`, namespace: 'garden' } },
});
const entry = (name: string, bucketName: string, seedName: string, owner?: string): KubeObject => ({
  apiVersion: CORE,
  kind: 'BackupEntry',
  metadata: {
    name,
    namespace: 'garden-p',
    ...(owner ? { ownerReferences: [{ apiVersion: CORE, kind: 'Shoot', name: owner, uid: `uid-${owner}` }] } : {}),
  },
  spec: { bucketName, seedName },
});
const shoot = (name: string, seedName: string, managedIssuer = false, namespace = 'garden-p'): KubeObject => ({
  apiVersion: CORE,
  kind: 'Shoot',
  metadata: {
    name,
    namespace,
    uid: `uid-${name}`,
    ...(managedIssuer ? { annotations: { 'authentication.gardener.cloud/issuer': 'managed' } } : {}),
  },
  spec: { seedName },
});

const listers = staticListers([
  bucket('bucket-b', 'b'),
  bucket('bucket-c', 'c'),
  // Seed a's entry lives in seed b's bucket: the bucket is a's as well.
  entry('entry-a', 'bucket-b', 'a'),
  // An entry of seed c owned by a Shoot that moved to seed a (control plane migration).
  entry('entry-of-moved', 'bucket-c', 'c', 'moved'),
  shoot('moved', 'a'),
  shoot('issuer', 'a', true),
  shoot('issuer-b', 'b', true),
  shoot('plain', 'a'),
  shoot('elsewhere', 'a', true, 'no-project'),
  {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'garden-p', labels: { 'project.gardener.cloud/name': 'p' } },
  },
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'no-project' } },
  ...['creds-bucket-b', 'generated-bucket-bucket-b', 'creds-bucket-c'].map((name) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'garden' },
  })),
  ...['p--uid-issuer', 'p--uid-issuer-b', 'p--uid-plain'].map((name) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'gardener-system-shoot-issuer' },
  })),
]);

const decide = async (seed: string, a: ResourceAttributes) => (await authorizeSeed(seed, a, listers)).decision;
const core = (resource: string, name: string, verb = 'update', namespace?: string): ResourceAttributes => ({
  group: 'core.gardener.cloud',
  resource,
  name,
  verb,
  ...(namespace ? { namespace } : {}),
});
const secret = (namespace: string, name: string, verb = 'get'): ResourceAttributes => ({
  group: '',
  resource: 'secrets',
  namespace,
  name,
  verb,
});

describe('SeedAuthorizer: BackupBucket → BackupEntry', () => {
  it('gives a seed the buckets its BackupEntries use, and their Secrets', async () => {
    expect(await backupBucketsOf(listers, new Set(['a']))).toEqual(new Set(['bucket-b', 'bucket-c']));
    expect(await decide('a', core('backupbuckets', 'bucket-b'))).toBe('allow');
    expect(await decide('a', secret('garden', 'creds-bucket-b'))).toBe('allow');
    expect(await decide('a', secret('garden', 'generated-bucket-bucket-b', 'update'))).toBe('allow');
    // Seed b owns the bucket directly; seed d has nothing to do with it.
    expect(await decide('b', core('backupbuckets', 'bucket-b'))).toBe('allow');
    expect(await decide('d', core('backupbuckets', 'bucket-b'))).toBe('no-opinion');
    expect(await decide('d', secret('garden', 'creds-bucket-b'))).toBe('no-opinion');
  });

  it('gives a seed the BackupEntries of its Shoots, wherever they are bound', async () => {
    expect(await decide('a', core('backupentries', 'entry-of-moved', 'patch', 'garden-p'))).toBe('allow');
    expect(await decide('c', core('backupentries', 'entry-of-moved', 'patch', 'garden-p'))).toBe('allow');
    expect(await decide('b', core('backupentries', 'entry-of-moved', 'patch', 'garden-p'))).toBe('no-opinion');
    // ... and through them their bucket.
    expect(await decide('a', core('backupbuckets', 'bucket-c', 'patch'))).toBe('allow');
    expect(await decide('b', core('backupentries', 'entry-a', 'update', 'garden-p'))).toBe('no-opinion');
  });
});

describe('SeedAuthorizer: the Shoots’ managed issuer Secrets', () => {
  it('names the Secret after the project and the Shoot UID, only for the managed issuer in a project', async () => {
    expect(await managedIssuerSecretOfShoot(listers, shoot('issuer', 'a', true))).toBe(
      'gardener-system-shoot-issuer/p--uid-issuer',
    );
    expect(await managedIssuerSecretOfShoot(listers, shoot('plain', 'a'))).toBeUndefined();
    expect(await managedIssuerSecretOfShoot(listers, shoot('elsewhere', 'a', true, 'no-project'))).toBeUndefined();
  });

  it('lets the gardenlet of the Shoot’s seed write it, nobody else', async () => {
    for (const verb of ['get', 'update', 'patch', 'delete'])
      expect(await decide('a', secret('gardener-system-shoot-issuer', 'p--uid-issuer', verb))).toBe('allow');
    expect(await decide('b', secret('gardener-system-shoot-issuer', 'p--uid-issuer'))).toBe('no-opinion');
    expect(await decide('a', secret('gardener-system-shoot-issuer', 'p--uid-issuer-b'))).toBe('no-opinion');
    // Without the managed issuer the Shoot has no such Secret.
    expect(await decide('a', secret('gardener-system-shoot-issuer', 'p--uid-plain'))).toBe('no-opinion');
  });
});
