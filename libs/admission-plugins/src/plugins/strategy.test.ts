import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { managedIssuerConfigSecret } from './shoot-managed-issuer.js';
import { runChain } from '../chain.js';
import { defaultPlugins } from './index.js';
import type { KubeObject } from '../attributes.js';

const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'local', namespace: 'garden-local' } };
const garden = (): KubeObject[] => [
  example('local/cloudprofile.yaml'),
  example('local/project.yaml'),
  example('local/credentialsbinding.yaml'),
  secret,
  managedIssuerConfigSecret('discovery.local.gardener.cloud'),
  // The example ControllerRegistration's deployment (ResourceReferenceManager needs it to exist).
  { apiVersion: 'core.gardener.cloud/v1', kind: 'ControllerDeployment', metadata: { name: 'provider-local' } },
];

/** The test user may read what the manifests refer to (the bindings' SubjectAccessReviews). */
const readAll = async () => true;

describe('the full chain on Gardener’s example manifests', () => {
  for (const file of [
    '30-cloudprofile.yaml',
    '50-seed.yaml',
    'local/cloudprofile.yaml',
    'local/project.yaml',
    'local/credentialsbinding.yaml',
    'local/controllerregistration.yaml',
    'local/shoot.yaml',
  ]) {
    it(`accepts ${file}`, async () => {
      const result = await runChain(defaultPlugins, request('CREATE', example(file)), staticListers(garden(), readAll));
      expect(result).toMatchObject({ allowed: true });
    });
  }

  it('defaults the example Shoot as Gardener does (purpose, version, maintenance window, networking)', async () => {
    const result = await runChain(
      defaultPlugins,
      request('CREATE', example('local/shoot.yaml')),
      staticListers(garden(), readAll),
    );
    if (!result.allowed) throw new Error(result.message);
    const spec = result.object!.spec;
    expect(spec.kubernetes.version).toBe('1.36.0');
    expect(spec.purpose).toBe('evaluation');
    expect(spec.networking.ipFamilies).toEqual(['IPv4']);
    expect(spec.maintenance.timeWindow.begin).toMatch(/^\d{6}\+0000$/);
  });

  it('refuses an invalid Shoot with the 422 of Gardener’s validation', async () => {
    const shoot = example('local/shoot.yaml');
    shoot.spec.provider.workers[0].maximum = 0;
    const result = await runChain(defaultPlugins, request('CREATE', shoot), staticListers(garden(), readAll));
    expect(result).toMatchObject({ allowed: false, code: 422, reason: 'Invalid' });
    expect(!result.allowed && result.message).toMatch(
      /^Shoot\.core\.gardener\.cloud "local" is invalid: .*spec\.provider\.workers\[0\]\.maximum/,
    );
  });

  it('refuses changing an immutable field on UPDATE', async () => {
    const created = await runChain(
      defaultPlugins,
      request('CREATE', example('local/shoot.yaml')),
      staticListers(garden(), readAll),
    );
    if (!created.allowed) throw new Error(created.message);
    const old = created.object!;
    const changed = structuredClone(old);
    changed.spec.region = 'other';
    const result = await runChain(defaultPlugins, request('UPDATE', changed, old), staticListers(garden(), readAll));
    expect(result).toMatchObject({ allowed: false, code: 422 });
    expect(!result.allowed && result.message).toContain('spec.region');
  });

  it('stores the example Project with its creator as owner member, and accepts it applied again', async () => {
    const created = await runChain(
      defaultPlugins,
      request('CREATE', example('local/project.yaml')),
      staticListers(garden(), readAll),
    );
    if (!created.allowed) throw new Error(created.message);
    const alice = { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice@example.com' };
    expect(created.object!.spec.members).toEqual([{ ...alice, role: 'admin', roles: ['owner'] }]);
    const stored = created.object!;
    // `kubectl apply` of the same manifest sends the stored object back.
    const again = await runChain(defaultPlugins, request('UPDATE', stored, stored), staticListers(garden(), readAll));
    expect(again).toMatchObject({ allowed: true });
    expect(again.allowed && again.object).toEqual(stored);
  });

  it('refuses a new Project whose members hold the owner role twice (no owner given), as Gardener', async () => {
    const project = example('local/project.yaml');
    const user = (name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name });
    project.spec.members = [
      { ...user('bob'), role: 'owner' },
      { ...user('carol'), role: 'owner' },
    ];
    expect(await runChain(defaultPlugins, request('CREATE', project), staticListers([]))).toMatchObject({
      allowed: false,
      code: 422,
      message:
        'Project.core.gardener.cloud "local" is invalid: spec.members[1].roles[0]: Forbidden: cannot have more than one member having the owner role',
    });
    // With an owner given, the conversion takes the role from everyone else.
    project.spec.owner = user('carol');
    const result = await runChain(defaultPlugins, request('CREATE', project), staticListers([]));
    expect(result.allowed && result.object?.spec.members).toEqual([
      { ...user('bob'), role: '' },
      { ...user('carol'), role: 'owner' },
    ]);
  });

  it('leaves objects of other groups alone', async () => {
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' } };
    expect(await runChain(defaultPlugins, request('CREATE', configMap), staticListers([]))).toEqual({
      allowed: true,
      warnings: [],
    });
  });
});

describe('the strategy of the settings presets', () => {
  const preset = (weight: number) => ({
    apiVersion: 'settings.gardener.cloud/v1alpha1',
    kind: 'OpenIDConnectPreset',
    metadata: { name: 'dex', namespace: 'garden-local' },
    spec: { server: { clientID: 'kubernetes', issuerURL: 'https://dex.example.com' }, weight },
  });

  it('defaults an OpenIDConnectPreset and refuses one with a weight outside 1-100', async () => {
    const ok = await runChain(defaultPlugins, request('CREATE', preset(50)), staticListers([]));
    expect(ok.allowed && ok.object?.spec).toMatchObject({
      shootSelector: {},
      server: { signingAlgs: ['RS256'], usernameClaim: 'sub' },
    });
    expect(await runChain(defaultPlugins, request('CREATE', preset(0)), staticListers([]))).toMatchObject({
      allowed: false,
      code: 422,
      message:
        'OpenIDConnectPreset.settings.gardener.cloud "dex" is invalid: spec.weight: Invalid value: 0: must be in the range 1-100',
    });
  });
});
