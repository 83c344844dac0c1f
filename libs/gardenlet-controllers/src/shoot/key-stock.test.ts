import { keySpecId, keyStockOf } from '@gardener-ts/secrets-manager';
import { describe, expect, it } from 'vitest';
import { shootSecretConfigs } from '../component/secrets.js';
import { exampleValues } from '../component/testdata/fixtures.js';
import { sshKeypairConfig } from './rotation/secrets.js';
import { ShootKeyStock } from './seed-steps.js';

describe('ShootKeyStock', () => {
  it("holds the keys of the example shoot's first reconcile: its secret configs, the SSH key pair and two client certificates", () => {
    const configs = [...shootSecretConfigs(exampleValues()), sshKeypairConfig()].map((c) => c.config);
    const fromConfigs = Object.fromEntries(keyStockOf(configs).map((s) => [keySpecId(s.spec), s.count]));
    // The resource manager's bootstrap and kube-proxy's client certificates come later in the flow, with the
    // certificates' default key.
    fromConfigs['RSA-3072'] = (fromConfigs['RSA-3072'] ?? 0) + 2;
    expect(Object.fromEntries(ShootKeyStock.map((s) => [keySpecId(s.spec), s.count]))).toEqual(fromConfigs);
  });
});
