// The SeedAuthorizer for a seed's extensions (ServiceAccounts `extension-*` of `seed-<seed>`), the gardenlet's
// ServiceAccounts of its seed namespace and the InternalSecrets of its shoots.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { staticListers } from '../listers.js';
import { authorizeSeed, seedIdentityOfUser, seedOfUser } from './seed-authorizer.js';
import { reviewSubjectAccess } from './handler.js';

const listers = staticListers([
  {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: { name: 'on-a', namespace: 'garden-p' },
    spec: { seedName: 'a' },
  },
  {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: { name: 'on-b', namespace: 'garden-p' },
    spec: { seedName: 'b' },
  },
  {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'ControllerInstallation',
    metadata: { name: 'ci-a' },
    spec: { seedRef: { name: 'a' } },
  },
  {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'ControllerInstallation',
    metadata: { name: 'ci-b' },
    spec: { seedRef: { name: 'b' } },
  },
]);

const extensionOf = (seed: string, name = 'extension-ci-a') => ({
  user: `system:serviceaccount:seed-${seed}:${name}`,
  groups: ['system:serviceaccounts', `system:serviceaccounts:seed-${seed}`, 'system:authenticated'],
});
const review = (who: { user: string; groups: string[] }, resourceAttributes: Record<string, string | undefined>) =>
  reviewSubjectAccess(
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { ...who, resourceAttributes: resourceAttributes as never },
    },
    listers,
  );
const gardenlet = { user: 'gardener.cloud:system:seed:a', groups: ['gardener.cloud:system:seeds'] };

describe('seedIdentityOfUser', () => {
  it('takes extension-* ServiceAccounts of seed-<seed> for extensions of that seed', () => {
    const { user, groups } = extensionOf('a');
    expect(seedIdentityOfUser(user, groups)).toEqual({ seed: 'a', userType: 'extension' });
    expect(seedOfUser(user, groups)).toBe('a');
    expect(seedIdentityOfUser(gardenlet.user, gardenlet.groups)).toEqual({ seed: 'a', userType: 'gardenlet' });
  });

  it('refuses other ServiceAccounts and namespaces', () => {
    // Not an extension-* ServiceAccount.
    expect(seedIdentityOfUser(extensionOf('a', 'default').user, extensionOf('a').groups)).toBeUndefined();
    // Not a seed namespace.
    expect(
      seedIdentityOfUser('system:serviceaccount:garden:extension-x', [
        'system:serviceaccounts',
        'system:serviceaccounts:garden',
      ]),
    ).toBeUndefined();
    // Without the ServiceAccounts group.
    expect(seedIdentityOfUser(extensionOf('a').user, ['system:serviceaccounts:seed-a'])).toBeUndefined();
    // The user must be of the namespace its group names.
    expect(seedIdentityOfUser(extensionOf('b').user, extensionOf('a').groups)).toBeUndefined();
    // Empty seed name.
    expect(seedIdentityOfUser(extensionOf('').user, extensionOf('').groups)).toBeUndefined();
  });

  it('finds the seed of any extension ServiceAccount name', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9-]{1,20}$/), fc.stringMatching(/^[a-z0-9-]{0,20}$/), (seed, suffix) => {
        const { user, groups } = extensionOf(seed, `extension-${suffix}`);
        expect(seedIdentityOfUser(user, groups)).toEqual({ seed, userType: 'extension' });
      }),
    );
  });
});

describe('authorizeSeed for extensions', () => {
  it("gives an extension the gardenlet's rights on its seed's objects and refuses another seed's", async () => {
    const ext = extensionOf('a');
    const ci = (name: string, verb: string) => ({
      group: 'core.gardener.cloud',
      resource: 'controllerinstallations',
      verb,
      name,
    });
    expect(await review(ext, ci('ci-a', 'get'))).toMatchObject({ allowed: true });
    expect(await review(ext, ci('ci-b', 'patch'))).toMatchObject({ allowed: false });
    // Gardener's always-allowed verbs of ControllerInstallations: get, list, watch.
    expect(await review(ext, ci('ci-b', 'get'))).toMatchObject({ allowed: true });
    const shoot = (name: string) => ({
      group: 'core.gardener.cloud',
      resource: 'shoots',
      verb: 'patch',
      name,
      namespace: 'garden-p',
    });
    expect(await review(ext, shoot('on-a'))).toMatchObject({ allowed: true });
    expect(await review(ext, shoot('on-b'))).toMatchObject({ allowed: false });
    // Secrets of its seed namespace, not another seed's.
    const seedSecret = (namespace: string) => ({ resource: 'secrets', verb: 'get', name: 'x', namespace });
    expect(await review(ext, seedSecret('seed-a'))).toMatchObject({ allowed: true });
    expect(await review(ext, seedSecret('seed-b'))).toMatchObject({ allowed: false });
    // An extension of seed b is refused seed a's installation.
    expect(await review(extensionOf('b', 'extension-ci-b'), ci('ci-a', 'update'))).toMatchObject({ allowed: false });
  });

  it('lets an extension use Leases only in its seed namespace (the gardenlet keeps its seed lease)', async () => {
    const lease = (verb: string, namespace: string, name = 'provider-local-leader-election') => ({
      group: 'coordination.k8s.io',
      resource: 'leases',
      verb,
      name,
      namespace,
    });
    for (const verb of ['create', 'get', 'update', 'delete'])
      expect((await authorizeSeed('a', lease(verb, 'seed-a'), listers, 'extension')).decision).toBe('allow');
    expect(await authorizeSeed('a', lease('get', 'seed-b'), listers, 'extension')).toEqual({
      decision: 'no-opinion',
      reason: 'lease object is not in seed namespace',
    });
    // The seed lease is the gardenlet's, not the extension's.
    expect(
      (await authorizeSeed('a', lease('update', 'gardener-system-seed-lease', 'a'), listers, 'extension')).decision,
    ).toBe('no-opinion');
    expect((await authorizeSeed('a', lease('update', 'gardener-system-seed-lease', 'a'), listers)).decision).toBe(
      'allow',
    );
    expect((await authorizeSeed('a', lease('get', 'seed-a'), listers)).decision).toBe('no-opinion');
  });

  it('does not let an extension manage ServiceAccounts, not even in its seed namespace', async () => {
    const sa = { resource: 'serviceaccounts', verb: 'get', name: 'extension-ci-a', namespace: 'seed-a' };
    expect(await review(extensionOf('a'), sa)).toMatchObject({ allowed: false });
    expect(await review(extensionOf('a'), { ...sa, verb: 'create', subresource: 'token' })).toMatchObject({
      allowed: false,
    });
  });
});

describe('authorizeSeed for ServiceAccounts of the gardenlet', () => {
  it('lets the gardenlet manage the ServiceAccounts of seed-<seed>, tokens included, and no others', async () => {
    const sa = (verb: string, namespace: string, subresource?: string) => ({
      resource: 'serviceaccounts',
      verb,
      name: 'extension-ci-a',
      namespace,
      subresource,
    });
    for (const verb of ['create', 'get', 'list', 'watch', 'patch', 'update', 'delete'])
      expect(await review(gardenlet, sa(verb, 'seed-a'))).toMatchObject({ allowed: true });
    expect(await review(gardenlet, sa('create', 'seed-a', 'token'))).toMatchObject({ allowed: true });
    expect(await review(gardenlet, sa('create', 'seed-b', 'token'))).toMatchObject({ allowed: false });
    expect(await review(gardenlet, sa('get', 'garden'))).toMatchObject({ allowed: false });
  });
});

describe('authorizeSeed for InternalSecrets', () => {
  const internal = (verb: string, name?: string, subresource?: string) => ({
    group: 'core.gardener.cloud',
    resource: 'internalsecrets',
    verb,
    name,
    namespace: 'garden-p',
    subresource,
  });

  it("lets the gardenlet write <shoot>.ca-client of its seed's shoots, not another seed's", async () => {
    for (const verb of ['get', 'update', 'patch', 'delete'])
      expect(await review(gardenlet, internal(verb, 'on-a.ca-client'))).toMatchObject({ allowed: true });
    expect(await review(gardenlet, internal('create', 'on-a.ca-client'))).toMatchObject({ allowed: true });
    expect(await review(gardenlet, internal('patch', 'on-b.ca-client'))).toEqual({
      allowed: false,
      reason: "no relationship found between seed 'a' and this object",
    });
    // Only Gardener's internal suffixes are bound to the shoot.
    expect(await review(gardenlet, internal('get', 'on-a.kubeconfig'))).toMatchObject({ allowed: false });
    // A list needs a name, as in Gardener; subresources are not handled.
    expect(await review(gardenlet, internal('list'))).toMatchObject({ allowed: false });
    expect(await review(gardenlet, internal('update', 'on-a.ca-client', 'status'))).toMatchObject({ allowed: false });
    expect(await review(extensionOf('a'), internal('get', 'on-a.ca-client'))).toMatchObject({ allowed: true });
  });
});
