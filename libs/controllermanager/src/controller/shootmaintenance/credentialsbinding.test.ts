// Tests of the SecretBinding → CredentialsBinding migration of a forced update to Kubernetes 1.34+: which binding is
// used or created, when the migration fails, and what the maintenance writes for it.
import { describe, expect, it } from 'vitest';
import type { CloudProfile, CredentialsBinding, SecretBinding } from '@gardener-ts/api';
import { example, localShoot } from '../../../test/support/examples.js';
import { FakeGarden } from '../testing/fake-garden.js';
import {
  needsCredentialsBindingMigration,
  planCredentialsBindingMigration,
  quotasEqual,
  resolveCredentialsBinding,
} from './credentialsbinding.js';
import { maintainShoot } from './maintain.js';

const NOW = new Date('2026-06-01T22:30:00Z');
const quota = { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Quota', name: 'trial', namespace: 'garden' };

const secretBinding = (quotas = [quota]): SecretBinding =>
  ({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'SecretBinding',
    metadata: { name: 'local', namespace: 'garden-local' },
    secretRef: { name: 'local-secret', namespace: 'garden-local' },
    provider: { type: 'local' },
    quotas,
  }) as SecretBinding;

const credentialsBinding = (name: string, secret = 'local-secret', quotas = [quota]): CredentialsBinding =>
  ({
    apiVersion: 'security.gardener.cloud/v1alpha1',
    kind: 'CredentialsBinding',
    metadata: { name, namespace: 'garden-local' },
    provider: { type: 'local' },
    credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: secret, namespace: 'garden-local' },
    quotas,
  }) as CredentialsBinding;

describe('quotasEqual', () => {
  it('compares as sets', () => {
    const other = { ...quota, name: 'other' };
    expect(quotasEqual([quota, other], [other, quota])).toBe(true);
    expect(quotasEqual([quota], [other])).toBe(false);
    expect(quotasEqual([quota], [])).toBe(false);
    expect(quotasEqual(undefined, [])).toBe(true);
  });
});

describe('planCredentialsBindingMigration', () => {
  it('uses the force-migrated binding when it matches, and fails when it does not', () => {
    expect(planCredentialsBindingMigration(secretBinding(), credentialsBinding('force-migrated-local'), [])).toEqual({
      use: 'force-migrated-local',
    });
    expect(
      planCredentialsBindingMigration(secretBinding(), credentialsBinding('force-migrated-local', 'other'), []),
    ).toEqual({
      error:
        'existing CredentialsBinding garden-local/force-migrated-local does not reference the same Secret as SecretBinding garden-local/local',
    });
    expect(
      planCredentialsBindingMigration(
        secretBinding(),
        credentialsBinding('force-migrated-local', 'local-secret', []),
        [],
      ),
    ).toEqual({
      error:
        'existing CredentialsBinding garden-local/force-migrated-local does not have the same Quotas as SecretBinding garden-local/local',
    });
  });

  it('else uses the first matching binding by name, else creates one', () => {
    const bindings = [credentialsBinding('zeta'), credentialsBinding('alpha'), credentialsBinding('beta', 'other')];
    expect(planCredentialsBindingMigration(secretBinding(), undefined, bindings)).toEqual({ use: 'alpha' });
    expect(planCredentialsBindingMigration(secretBinding([]), undefined, bindings)).toEqual({
      create: {
        apiVersion: 'security.gardener.cloud/v1alpha1',
        kind: 'CredentialsBinding',
        metadata: {
          name: 'force-migrated-local',
          namespace: 'garden-local',
          labels: { 'credentialsbinding.gardener.cloud/status': 'force-migrated' },
        },
        provider: { type: 'local' },
        credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'local-secret', namespace: 'garden-local' },
        quotas: [],
      },
    });
  });
});

describe('resolveCredentialsBinding', () => {
  it('creates the force-migrated binding when none matches', async () => {
    const garden = new FakeGarden(secretBinding());
    expect(await resolveCredentialsBinding(garden, 'garden-local', 'local')).toEqual({ name: 'force-migrated-local' });
    expect(garden.writes).toEqual(['create CredentialsBinding garden-local/force-migrated-local']);
  });

  it('reports a missing SecretBinding', async () => {
    expect(await resolveCredentialsBinding(new FakeGarden(), 'garden-local', 'local')).toMatchObject({
      error: expect.stringMatching(/^failed to get SecretBinding garden-local\/local: /),
    });
  });
});

describe('maintainShoot across 1.34 with a SecretBinding', () => {
  const profile = () => {
    const p = example<CloudProfile>('local', 'cloudprofile.yaml');
    p.spec.kubernetes!.versions = [
      { version: '1.34.3' },
      { version: '1.33.0', expirationDate: '2026-01-01T00:00:00Z' },
    ];
    return p;
  };
  const shoot = () => {
    const s = localShoot('migrated', 'local');
    s.spec.kubernetes.version = '1.33.0';
    s.spec.secretBindingName = 'local';
    delete s.spec.credentialsBindingName;
    s.spec.maintenance = { autoUpdate: { kubernetesVersion: false, machineImageVersion: false } };
    return s;
  };

  it('asks for the migration, then applies its outcome', () => {
    const first = maintainShoot(shoot(), profile(), { now: NOW });
    expect(needsCredentialsBindingMigration(first.shoot, '1.33.0')).toBe(true);
    expect(first.needsCredentialsBindingMigration).toBe(true);

    const migrated = maintainShoot(shoot(), profile(), { now: NOW, credentialsBinding: { name: 'alpha' } });
    expect(migrated.needsCredentialsBindingMigration).toBeUndefined();
    expect(migrated.shoot.spec.credentialsBindingName).toBe('alpha');
    expect(migrated.shoot.spec.secretBindingName).toBeUndefined();
    expect(migrated.lastMaintenance?.description).toContain(
      '.spec.secretBindingName was migrated to .spec.credentialsBindingName. Reason: SecretBinding is deprecated and can no longer be used for Shoot clusters using Kubernetes version 1.34+',
    );

    const failed = maintainShoot(shoot(), profile(), { now: NOW, credentialsBinding: { error: 'boom' } });
    expect(failed.shoot.spec.secretBindingName).toBe('local');
    expect(failed.lastMaintenance?.description).toContain(
      'Failed to migrate from secretBindingName to credentialsBindingName: boom',
    );
  });

  it('leaves a Shoot that stays below 1.34 or already has a CredentialsBinding alone', () => {
    const s = shoot();
    s.spec.credentialsBindingName = 'alpha';
    expect(maintainShoot(s, profile(), { now: NOW }).needsCredentialsBindingMigration).toBeUndefined();
    const p = profile();
    p.spec.kubernetes!.versions = [
      { version: '1.33.5' },
      { version: '1.33.0', expirationDate: '2026-01-01T00:00:00Z' },
    ];
    expect(maintainShoot(shoot(), p, { now: NOW }).needsCredentialsBindingMigration).toBeUndefined();
  });
});
