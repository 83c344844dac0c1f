import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import { ExtensionValidator } from './extension-validator.js';
import { StrategyValidation } from './strategy.js';
import type { KubeObject } from '../attributes.js';

/** Gardener's example Shoot without workers (and without what a workerless Shoot may not have). */
function workerless(): KubeObject {
  const s = example('local/shoot.yaml');
  s.spec.provider = { type: 'local' };
  delete s.spec.networking;
  delete s.spec.credentialsBindingName;
  delete s.spec.kubernetes.kubelet;
  s.spec.kubernetes.version = '1.35.4';
  return s;
}

describe('workerless Shoots in strategy validation', () => {
  const strategy = (s: KubeObject) => runChain([StrategyValidation], request('CREATE', s), staticListers([]));

  it('accepts the example Shoot without workers', async () => {
    expect(await strategy(workerless())).toMatchObject({ allowed: true });
  });

  it("refuses provider settings that need workers, with Gardener's message", async () => {
    const s = workerless();
    s.spec.provider.infrastructureConfig = { apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1' };
    s.spec.provider.workersSettings = { sshAccess: { enabled: true } };
    expect(await strategy(s)).toMatchObject({
      allowed: false,
      code: 422,
      message:
        'Shoot.core.gardener.cloud "local" is invalid: [spec.provider.infrastructureConfig: Forbidden: this field should not be set for workerless Shoot clusters, ' +
        'spec.provider.workersSettings: Forbidden: this field should not be set for workerless Shoot clusters]',
    });
  });
});

describe('ExtensionValidator on workerless Shoots', () => {
  const registration = () => example('local/controllerregistration.yaml');
  const validate = (s: KubeObject) =>
    runChain([ExtensionValidator], request('CREATE', s), staticListers([registration()]));

  it('needs no provider extensions and accepts extensions registered as workerlessSupported', async () => {
    const s = workerless();
    s.spec.provider.type = 'unregistered';
    s.spec.extensions = [{ type: 'local-ext-shoot' }];
    expect(await validate(s)).toMatchObject({ allowed: true });
  });

  it('refuses an extension whose registration does not support workerless Shoots', async () => {
    const s = workerless();
    s.spec.extensions = [{ type: 'local-ext-shoot' }, { type: 'local-ext-shoot-after-worker' }];
    expect(await validate(s)).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: spec.extensions[1].type: Invalid value: "local-ext-shoot-after-worker": given Shoot is workerless and uses non-supported extension type "local-ext-shoot-after-worker"',
    });
    const withWorkers = example('local/shoot.yaml');
    withWorkers.spec.extensions = [{ type: 'local-ext-shoot-after-worker' }];
    const result = await validate(withWorkers);
    expect(!result.allowed && result.message).not.toContain('workerless');
  });
});
