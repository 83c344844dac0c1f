import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import type { KubeObject } from '../attributes.js';
import { ShootValidator } from './shoot-validator.js';
import { managedIssuerConfigSecret } from './shoot-managed-issuer.js';
import { validateNewShootOIDCConfig } from './shoot-oidc-config.js';

const withOIDC = (oidcConfig: Record<string, unknown> | undefined): KubeObject => {
  const s = example('local/shoot.yaml');
  s.spec.kubernetes.kubeAPIServer = oidcConfig === undefined ? {} : { oidcConfig };
  return s;
};
const messages = (errors: { message: string }[]) => errors.map((e) => e.message);

describe("a new Shoot's OIDC configuration", () => {
  it("needs a client ID and an issuer URL, with Gardener's messages", () => {
    expect(messages(validateNewShootOIDCConfig(withOIDC({})))).toEqual([
      'spec.kubernetes.kubeAPIServer.oidcConfig.clientID: Required value: clientID must be set when oidcConfig is provided',
      'spec.kubernetes.kubeAPIServer.oidcConfig.issuerURL: Required value: issuerURL must be set when oidcConfig is provided',
    ]);
    expect(messages(validateNewShootOIDCConfig(withOIDC({ clientID: '', issuerURL: '' })))).toEqual([
      'spec.kubernetes.kubeAPIServer.oidcConfig.clientID: Required value: clientID cannot be empty',
      'spec.kubernetes.kubeAPIServer.oidcConfig.issuerURL: Required value: issuerURL cannot be empty',
    ]);
  });

  it('accepts a complete configuration and a Shoot without one', () => {
    expect(validateNewShootOIDCConfig(withOIDC({ clientID: 'k', issuerURL: 'https://dex.example.com' }))).toEqual([]);
    expect(validateNewShootOIDCConfig(withOIDC(undefined))).toEqual([]);
  });

  it('is checked by ShootValidator on CREATE only (existing Shoots keep what they have)', async () => {
    const listers = staticListers(
      [
        example('local/project.yaml'),
        example('local/cloudprofile.yaml'),
        managedIssuerConfigSecret('discovery.local.gardener.cloud'),
      ],
      async () => true,
    );
    const incomplete = withOIDC({ clientID: 'k' });
    const created = await runChain([ShootValidator], request('CREATE', incomplete), listers);
    expect(!created.allowed && created.message).toBe(
      'shoots.core.gardener.cloud "local" is forbidden: spec.kubernetes.kubeAPIServer.oidcConfig.issuerURL: Required value: issuerURL must be set when oidcConfig is provided',
    );
    const stored = (await runChain([ShootValidator], request('CREATE', withOIDC(undefined)), listers)) as {
      object?: KubeObject;
    };
    const old = { ...stored.object!, spec: { ...stored.object!.spec } };
    old.spec.kubernetes = { ...old.spec.kubernetes, kubeAPIServer: { oidcConfig: { clientID: 'k' } } };
    const updated = await runChain([ShootValidator], request('UPDATE', structuredClone(old), old), listers);
    expect(updated.allowed).toBe(true);
  });
});
