import { describe, expect, it } from 'vitest';
import type { CredentialsBinding, SecretBinding } from '@gardener-ts/api';
import { example, localShoot } from '../../../test/support/examples.js';
import { secretRelease, shootsUsingBinding, viewCredentialsBinding, viewSecretBinding } from './binding.js';

const credentials = (name = 'local', deleting = false) => {
  const b = example<CredentialsBinding>('local', 'credentialsbinding.yaml');
  b.metadata = { ...b.metadata, name, ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) };
  return viewCredentialsBinding(b);
};
const secretBinding = (providerType = 'local') =>
  viewSecretBinding({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'SecretBinding',
    metadata: { namespace: 'garden-local', name: 'old' },
    secretRef: { name: 'local', namespace: 'garden-local' },
    provider: { type: providerType },
  } as SecretBinding);

describe('bindings', () => {
  it("reads Gardener's example CredentialsBinding: Secret garden-local/local of provider local", () => {
    expect(credentials()).toEqual({
      kind: 'CredentialsBinding',
      namespace: 'garden-local',
      name: 'local',
      secret: { namespace: 'garden-local', name: 'local' },
      providerType: 'local',
      quotas: [],
      deleting: false,
    });
  });

  it('finds the example Shoot using the example CredentialsBinding', () => {
    expect(shootsUsingBinding(credentials(), [localShoot('a', undefined)])).toEqual(['garden-local/a']);
    expect(shootsUsingBinding(secretBinding(), [localShoot('a', undefined)])).toEqual([]);
  });

  it('releases the Secret only when no other binding references it, and only the labels nobody needs', () => {
    const going = credentials('local', true);
    expect(secretRelease(going, [going])).toEqual({
      removeFinalizer: true,
      removeLabels: ['reference.gardener.cloud/credentialsbinding', 'provider.shoot.gardener.cloud/local'],
    });
    expect(secretRelease(going, [going, credentials('second')])).toEqual({ removeFinalizer: false, removeLabels: [] });
    expect(secretRelease(going, [going, secretBinding('other')])).toEqual({
      removeFinalizer: false,
      removeLabels: ['reference.gardener.cloud/credentialsbinding', 'provider.shoot.gardener.cloud/local'],
    });
    expect(secretRelease(going, [going, credentials('also-going', true)]).removeFinalizer).toBe(true);
  });
});
