// SeedRestriction beyond the name checks: BackupEntries (their bucket, and source BackupEntries during control plane
// migration), Seed updates, the Shoots' public service account keys in `gardener-system-shoot-issuer`, and the
// ConfigMaps a gardenlet creates for its Shoots.
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes, KubeObject } from '../attributes.js';
import { runValidating } from '../chain.js';
import { staticListers } from '../listers.js';
import { SeedRestriction, ShootIssuerSecretLabels } from './seed-restriction.js';

const CORE = 'core.gardener.cloud/v1beta1';
const gardenletOf = (seed: string) => ({
  username: `gardener.cloud:system:seed:${seed}`,
  groups: ['gardener.cloud:system:seeds'],
});

const shoot = (name: string, seedName: string, lastOperation?: Record<string, string>): KubeObject => ({
  apiVersion: CORE,
  kind: 'Shoot',
  metadata: { name, namespace: 'garden-p', uid: `uid-${name}` },
  spec: { seedName },
  ...(lastOperation ? { status: { lastOperation } } : {}),
});
const bucket = (name: string, seedName: string): KubeObject => ({
  apiVersion: CORE,
  kind: 'BackupBucket',
  metadata: { name },
  spec: { seedName },
});
const entry = (name: string, bucketName: string, seedName = 'a', owner = 'restoring'): KubeObject => ({
  apiVersion: CORE,
  kind: 'BackupEntry',
  metadata: {
    name,
    namespace: 'garden-p',
    ownerReferences: [{ apiVersion: CORE, kind: 'Shoot', name: owner, uid: `uid-${owner}` }],
  },
  spec: { bucketName, seedName },
});

const listers = staticListers([
  bucket('bucket-a', 'a'),
  bucket('bucket-b', 'b'),
  shoot('restoring', 'a', { type: 'Restore', state: 'Processing' }),
  shoot('reconciled', 'a', { type: 'Reconcile', state: 'Succeeded' }),
  shoot('on-b', 'b'),
  entry('shoot--p--restoring', 'bucket-a'),
  entry('shoot--p--reconciled', 'bucket-a', 'a', 'reconciled'),
]);

const RESOURCES: Record<string, string> = {
  BackupEntry: 'backupentries',
  Seed: 'seeds',
  Secret: 'secrets',
  ConfigMap: 'configmaps',
};
const request = (
  operation: AdmissionAttributes['operation'],
  object: KubeObject,
  seed = 'a',
  oldObject: KubeObject | null = null,
): AdmissionAttributes => {
  const group = object.apiVersion === 'v1' ? '' : 'core.gardener.cloud';
  const version = object.apiVersion === 'v1' ? 'v1' : 'v1beta1';
  return {
    operation,
    kind: { group, version, kind: object.kind! },
    resource: { group, version, resource: RESOURCES[object.kind!]! },
    name: object.metadata?.name,
    namespace: object.metadata?.namespace,
    object,
    oldObject,
    userInfo: gardenletOf(seed),
  };
};
const decide = async (a: AdmissionAttributes) => {
  expect(SeedRestriction.handles(a)).toBe(true);
  const d = await runValidating([SeedRestriction], a, listers);
  return d.allowed ? 'allowed' : `${d.code} ${d.message}`;
};

describe('SeedRestriction for BackupEntries', () => {
  it('admits a BackupEntry for its seed in a bucket of its seed only', async () => {
    expect(await decide(request('CREATE', entry('e1', 'bucket-a')))).toBe('allowed');
    expect(await decide(request('CREATE', entry('e2', 'bucket-b')))).toBe(
      '403 backupentries.core.gardener.cloud "e2" is forbidden: object does not belong to seed "a"',
    );
    // Another seed's entry is refused before the bucket is looked at.
    expect(await decide(request('CREATE', entry('e3', 'bucket-a', 'b')))).toMatch(/object does not belong to seed "a"/);
  });

  it('answers 500 when the bucket does not exist (Gardener reads it through its client)', async () => {
    expect(await decide(request('CREATE', entry('e4', 'missing')))).toBe(
      '500 Internal error occurred: backupbuckets.core.gardener.cloud "missing" not found',
    );
  });

  it('admits a source BackupEntry only while its Shoot is restored, as a copy of the original', async () => {
    expect(await decide(request('CREATE', entry('source-shoot--p--restoring', 'bucket-a')))).toBe('allowed');
    // Any other spec than the original's is refused, even in a bucket of the seed.
    const changed = entry('source-shoot--p--restoring', 'bucket-a');
    changed.spec.bucketName = 'bucket-b';
    changed.spec.seedName = 'a';
    expect(await decide(request('CREATE', changed))).toMatch(
      /specification of source BackupEntry must equal specification of original BackupEntry shoot--p--restoring$/,
    );
    expect(
      await decide(request('CREATE', entry('source-shoot--p--reconciled', 'bucket-a', 'a', 'reconciled'))),
    ).toMatch(/creation of source BackupEntry is only allowed during shoot Restore operation \(shoot: reconciled\)$/);
    expect(await decide(request('CREATE', entry('source-shoot--p--gone', 'bucket-a')))).toMatch(
      /could not find original BackupEntry shoot--p--gone/,
    );
  });
});

describe('SeedRestriction for Seed updates', () => {
  const seed = (name: string): KubeObject => ({ apiVersion: CORE, kind: 'Seed', metadata: { name }, spec: {} });
  it('lets a gardenlet update its own Seed only', async () => {
    expect(await decide(request('UPDATE', seed('a'), 'a', seed('a')))).toBe('allowed');
    expect(await decide(request('UPDATE', seed('b'), 'a', seed('b')))).toBe(
      '403 seeds.core.gardener.cloud "b" is forbidden: object does not belong to seed "a"',
    );
  });

  it('leaves the Seed status alone (a subresource)', () => {
    expect(SeedRestriction.handles({ ...request('UPDATE', seed('b'), 'a', seed('b')), subresource: 'status' })).toBe(
      false,
    );
  });
});

describe('SeedRestriction for the Shoots’ public service account keys', () => {
  const keys = (labels: Record<string, string>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'p--uid-x', namespace: 'gardener-system-shoot-issuer', labels },
  });
  const labelled = (shootName: string) => ({
    [ShootIssuerSecretLabels.shootName]: shootName,
    [ShootIssuerSecretLabels.shootNamespace]: 'garden-p',
    [ShootIssuerSecretLabels.discoveryPublic]: 'serviceaccount',
  });

  it('admits the keys of a Shoot on its seed, not of a Shoot on another seed', async () => {
    expect(await decide(request('CREATE', keys(labelled('restoring'))))).toBe('allowed');
    expect(await decide(request('CREATE', keys(labelled('on-b'))))).toMatch(/object does not belong to seed "a"$/);
    expect(await decide(request('CREATE', keys(labelled('nope'))))).toMatch(
      /^403 .*shoots.core.gardener.cloud "nope" not found$/,
    );
  });

  it('requires the Shoot labels and the public-keys label with 422', async () => {
    const { [ShootIssuerSecretLabels.shootNamespace]: _, ...withoutNamespace } = labelled('restoring');
    expect(await decide(request('CREATE', keys(withoutNamespace)))).toBe(
      '422 label "shoot.gardener.cloud/namespace" is missing',
    );
    expect(
      await decide(
        request('CREATE', keys({ ...labelled('restoring'), [ShootIssuerSecretLabels.discoveryPublic]: 'shoot-ca' })),
      ),
    ).toBe('422 label "discovery.gardener.cloud/public" value must be set to "serviceaccount"');
  });
});

describe('SeedRestriction for ConfigMaps', () => {
  const configMap = (name: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'garden-p' },
  });
  it('admits `<shoot>.ca-cluster` and `<shoot>.ca-kubelet` of its Shoots only', async () => {
    expect(await decide(request('CREATE', configMap('restoring.ca-cluster')))).toBe('allowed');
    expect(await decide(request('CREATE', configMap('restoring.ca-kubelet')))).toBe('allowed');
    expect(await decide(request('CREATE', configMap('on-b.ca-cluster')))).toBe(
      '403 configmaps "on-b.ca-cluster" is forbidden: object does not belong to seed "a"',
    );
    expect(await decide(request('CREATE', configMap('anything')))).toMatch(/object does not belong to seed "a"$/);
  });
});
