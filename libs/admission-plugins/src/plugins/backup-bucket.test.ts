import { describe, expect, it } from 'vitest';
import { request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import type { KubeObject } from '../attributes.js';
import { BackupBucketValidator } from './backup-bucket.js';

// A BackupBucket as a gardenlet writes it for Gardener's example Seed (provider local, region europe-1).
const bucket = (credentialsRef: KubeObject): KubeObject => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'BackupBucket',
  metadata: { name: 'my-seed-bucket' },
  spec: { provider: { type: 'local', region: 'europe-1' }, seedName: 'my-seed', credentialsRef },
});
const workloadIdentityRef = {
  apiVersion: 'security.gardener.cloud/v1alpha1',
  kind: 'WorkloadIdentity',
  name: 'backup',
  namespace: 'garden',
};
const identity = (type: string): KubeObject => ({
  apiVersion: 'security.gardener.cloud/v1alpha1',
  kind: 'WorkloadIdentity',
  metadata: { name: 'backup', namespace: 'garden' },
  spec: { audiences: ['gardener'], targetSystem: { type } },
});

describe('BackupBucketValidator', () => {
  it('accepts a WorkloadIdentity of the provider type and any Secret', async () => {
    for (const [object, objects] of [
      [bucket(workloadIdentityRef), [identity('local')]],
      [bucket({ apiVersion: 'v1', kind: 'Secret', name: 'backup-secret', namespace: 'garden' }), []],
    ] as const) {
      const result = await runChain([BackupBucketValidator], request('CREATE', object), staticListers([...objects]));
      expect(result.allowed).toBe(true);
    }
  });

  it("refuses a WorkloadIdentity of another provider type on CREATE and UPDATE, with Gardener's message", async () => {
    const message =
      'backupbuckets.core.gardener.cloud "my-seed-bucket" is forbidden: BackupBucket using backup of type "local" cannot use WorkloadIdentity of type "aws"';
    const b = bucket(workloadIdentityRef);
    expect(
      await runChain([BackupBucketValidator], request('CREATE', b), staticListers([identity('aws')])),
    ).toMatchObject({ allowed: false, code: 403, message });
    expect(
      await runChain(
        [BackupBucketValidator],
        request('UPDATE', b, structuredClone(b)),
        staticListers([identity('aws')]),
      ),
    ).toMatchObject({ allowed: false, message });
  });

  it('answers 500 when the WorkloadIdentity does not exist', async () => {
    expect(
      await runChain([BackupBucketValidator], request('CREATE', bucket(workloadIdentityRef)), staticListers([])),
    ).toMatchObject({
      allowed: false,
      code: 500,
      message: 'Internal error occurred: workloadidentity.security.gardener.cloud "backup" not found',
    });
  });
});
