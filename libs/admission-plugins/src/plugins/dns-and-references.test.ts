import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import { ManagedSeedValidator } from './managed-seed.js';
import { NamespacedCloudProfileValidator } from './namespaced-cloudprofile.js';
import { NamespaceDeletion } from './namespace-deletion.js';
import { ShootDNS } from './shoot-dns.js';
import type { KubeObject } from '../attributes.js';

const project = () => example('local/project.yaml');
const defaultDomain: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name: 'default-domain-local',
    namespace: 'garden',
    labels: { 'gardener.cloud/role': 'default-domain' },
    annotations: { 'dns.gardener.cloud/domain': 'local.gardener.cloud', 'dns.gardener.cloud/provider': 'local' },
  },
};

describe('ShootDNS', () => {
  it('gives a Shoot without a domain <shoot>.<project>.<default domain>', async () => {
    const result = await runChain(
      [ShootDNS],
      request('CREATE', example('local/shoot.yaml')),
      staticListers([project(), defaultDomain]),
    );
    expect(result.allowed && result.object?.spec.dns).toEqual({ domain: 'local.local.local.gardener.cloud' });
  });

  it('leaves Shoots alone when the garden has no default domain', async () => {
    expect(
      await runChain([ShootDNS], request('CREATE', example('local/shoot.yaml')), staticListers([project()])),
    ).toEqual({ allowed: true, warnings: [] });
  });

  it('refuses another name under the default domain', async () => {
    const shoot = example('local/shoot.yaml');
    shoot.spec.dns = { domain: 'other.local.gardener.cloud' };
    const result = await runChain([ShootDNS], request('CREATE', shoot), staticListers([project(), defaultDomain]));
    expect(!result.allowed && result.message).toContain(
      'spec.dns.domain: Invalid value: "other.local.gardener.cloud": the domain is a subdomain of the default domain "local.gardener.cloud": it must be "local.local.local.gardener.cloud"',
    );
  });
});

describe('NamespacedCloudProfileValidator', () => {
  const namespaced = (versions: { version: string; expirationDate?: string }[]): KubeObject => ({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'NamespacedCloudProfile',
    metadata: { name: 'custom', namespace: 'garden-local' },
    spec: { parent: { kind: 'CloudProfile', name: 'local' }, kubernetes: { versions } },
  });

  it('needs the parent and only versions the parent offers', async () => {
    const parent = example('local/cloudprofile.yaml');
    const missing = await runChain(
      [NamespacedCloudProfileValidator],
      request('CREATE', namespaced([])),
      staticListers([]),
    );
    expect(!missing.allowed && missing.message).toContain('parent CloudProfile "local" could not be found');
    const extended = namespaced([{ version: '1.32.0', expirationDate: '2099-01-01T00:00:00Z' }]);
    expect(
      (await runChain([NamespacedCloudProfileValidator], request('CREATE', extended), staticListers([parent]))).allowed,
    ).toBe(true);
    const unknown = await runChain(
      [NamespacedCloudProfileValidator],
      request('CREATE', namespaced([{ version: '1.99.0' }])),
      staticListers([parent]),
    );
    expect(!unknown.allowed && unknown.message).toContain(
      'spec.kubernetes.versions[0].version: Invalid value: "1.99.0": version is not defined in the parent CloudProfile',
    );
  });
});

describe('ManagedSeed', () => {
  const managedSeed = (name: string): KubeObject => ({
    apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
    kind: 'ManagedSeed',
    metadata: { name, namespace: 'garden-local' },
    spec: { shoot: { name: 'local' } },
  });

  it('registers an existing Shoot once', async () => {
    const shoot = example('local/shoot.yaml');
    const missing = await runChain([ManagedSeedValidator], request('CREATE', managedSeed('a')), staticListers([]));
    expect(!missing.allowed && missing.message).toContain(
      'spec.shoot.name: Invalid value: "local": shoot garden-local/local not found',
    );
    expect(
      (await runChain([ManagedSeedValidator], request('CREATE', managedSeed('a')), staticListers([shoot]))).allowed,
    ).toBe(true);
    const twice = await runChain(
      [ManagedSeedValidator],
      request('CREATE', managedSeed('b')),
      staticListers([shoot, managedSeed('a')]),
    );
    expect(!twice.allowed && twice.message).toContain('shoot is already registered as seed by ManagedSeed a');
  });
});

describe('NamespaceDeletion', () => {
  const namespace: KubeObject = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: 'garden-local',
      labels: { 'gardener.cloud/role': 'project', 'project.gardener.cloud/name': 'local' },
    },
  };

  it("refuses deleting a project's namespace directly, allows it once the project is being deleted", async () => {
    const attributes = {
      ...request('DELETE', undefined, namespace),
      kind: { group: '', version: 'v1', kind: 'Namespace' },
      resource: { group: '', version: 'v1', resource: 'namespaces' },
    };
    const refused = await runChain([NamespaceDeletion], attributes, staticListers([project()]));
    expect(!refused.allowed && refused.message).toBe(
      'namespaces "garden-local" is forbidden: direct deletion of namespace "garden-local" is forbidden: it belongs to project "local", delete the project instead',
    );
    const deleting = { ...project(), metadata: { ...project().metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } };
    expect((await runChain([NamespaceDeletion], attributes, staticListers([deleting]))).allowed).toBe(true);
    const plain = { ...attributes, oldObject: { ...namespace, metadata: { name: 'garden-local' } } };
    expect((await runChain([NamespaceDeletion], plain, staticListers([project()]))).allowed).toBe(true);
  });
});
