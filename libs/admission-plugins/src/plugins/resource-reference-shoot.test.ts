import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import type { AccessAttributes, KubeObject, Listers } from '../attributes.js';
import { ResourceReferenceManager } from './resource-reference-manager.js';
import { discoverResource } from './resource-reference-shoot.js';

const secret = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'garden-local' },
});
const configMap = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'garden-local' },
});
const seed = (): KubeObject => {
  const s = example('50-seed.yaml');
  s.metadata!.name = 'local';
  return s;
};
/** What Gardener's local Shoot refers to: its CloudProfile and CredentialsBinding. */
const garden = () => [example('local/cloudprofile.yaml'), example('local/credentialsbinding.yaml')];
const mayRead = async () => true;

const admit = (
  shoot: KubeObject,
  old: KubeObject | undefined,
  objects: KubeObject[],
  authorize?: Listers['authorize'],
) =>
  runChain(
    [ResourceReferenceManager],
    request(old ? 'UPDATE' : 'CREATE', shoot, old),
    staticListers(objects, authorize),
  );
const shoot = (change: (s: KubeObject) => void = () => undefined) => {
  const s = example('local/shoot.yaml');
  change(s);
  return s;
};
const reason = (result: Awaited<ReturnType<typeof admit>>) => (result.allowed ? undefined : result.message);
const prefix = 'shoots.core.gardener.cloud "local" is forbidden: ';

describe('ResourceReferenceManager: Shoot references', () => {
  it("accepts Gardener's local Shoot with its CloudProfile and CredentialsBinding", async () => {
    expect((await admit(shoot(), undefined, garden())).allowed).toBe(true);
  });

  it("refuses a missing CloudProfile with Gardener's message", async () => {
    expect(reason(await admit(shoot(), undefined, [example('local/credentialsbinding.yaml')]))).toBe(
      `${prefix}could not find cloudProfileSpec from the shoot cloudProfile reference: cloudprofile.core.gardener.cloud "local" not found`,
    );
  });

  it('refuses a Seed that does not exist when the seed is set or changed, not when it stays', async () => {
    const scheduled = shoot((s) => (s.spec.seedName = 'local'));
    expect(reason(await admit(scheduled, undefined, garden()))).toBe(
      `${prefix}seed.core.gardener.cloud "local" not found`,
    );
    expect((await admit(scheduled, undefined, [...garden(), seed()])).allowed).toBe(true);
    const changed = shoot((s) => {
      s.spec.seedName = 'local';
      s.spec.region = 'other';
    });
    expect((await admit(changed, scheduled, garden())).allowed).toBe(true);
  });

  it('does not check an UPDATE that leaves the spec alone (labels, annotations)', async () => {
    const labelled = shoot((s) => (s.metadata!.labels = { team: 'a' }));
    expect((await admit(labelled, shoot(), [])).allowed).toBe(true);
  });

  describe('spec.resources', () => {
    const withResource = (kind: string, name: string, apiVersion = 'v1') =>
      shoot((s) => (s.spec.resources = [{ name: 'my-ref', resourceRef: { apiVersion, kind, name } }]));

    it('accepts a Secret of the namespace the user may read', async () => {
      expect(
        (await admit(withResource('Secret', 'creds'), undefined, [...garden(), secret('creds')], mayRead)).allowed,
      ).toBe(true);
    });

    it("refuses a missing resource with Gardener's message", async () => {
      expect(reason(await admit(withResource('Secret', 'creds'), undefined, garden(), mayRead))).toBe(
        `${prefix}failed to resolve shoot resource reference "my-ref": secrets "creds" not found`,
      );
      expect(reason(await admit(withResource('ConfigMap', 'cfg'), undefined, garden(), mayRead))).toBe(
        `${prefix}failed to resolve shoot resource reference "my-ref": configmaps "cfg" not found`,
      );
    });

    it('refuses a resource the user may not read, asking with the resource and namespace', async () => {
      const asked: AccessAttributes[] = [];
      const deny = async (_: unknown, attributes: AccessAttributes) => (asked.push(attributes), false);
      expect(
        reason(await admit(withResource('Secret', 'creds'), undefined, [...garden(), secret('creds')], deny)),
      ).toBe(`${prefix}shoot cannot reference a resource you are not allowed to read`);
      expect(asked).toEqual([
        { verb: 'get', group: '', resource: 'secrets', namespace: 'garden-local', name: 'creds' },
      ]);
    });

    it('refuses cluster-scoped kinds and kinds nothing knows', async () => {
      expect(reason(await admit(withResource('Namespace', 'garden-local'), undefined, garden(), mayRead))).toBe(
        `${prefix}failed to resolve shoot resource reference "my-ref". Cannot reference a resource that is not namespaced`,
      );
      const unknown: Listers = {
        ...staticListers(garden(), mayRead),
        list: async (apiVersion, kind, namespace) => {
          if (kind === 'Widget') throw new Error('no matches for kind "Widget" in version "example.com/v1"');
          return staticListers(garden()).list(apiVersion, kind, namespace);
        },
      };
      const result = await runChain(
        [ResourceReferenceManager],
        request('CREATE', withResource('Widget', 'w', 'example.com/v1')),
        unknown,
      );
      expect(reason(result)).toBe(
        `${prefix}shoot resource reference "my-ref" could not be resolved for API resource with version "example.com/v1" and kind "Widget"`,
      );
    });

    it('only checks spec.resources when they change', async () => {
      const old = withResource('Secret', 'gone');
      const updated = withResource('Secret', 'gone');
      updated.spec.region = 'elsewhere';
      expect((await admit(updated, old, garden(), mayRead)).allowed).toBe(true);
    });
  });

  it('refuses missing Secrets of DNS providers and admission plugin kubeconfigs, and structured auth ConfigMaps', async () => {
    const dns = shoot(
      (s) => (s.spec.dns = { domain: 'x.example.com', providers: [{ type: 'local', secretName: 'dns' }] }),
    );
    expect(reason(await admit(dns, undefined, garden()))).toBe(
      `${prefix}failed to resolve DNS provider secret reference: secrets "dns" not found`,
    );
    expect((await admit(dns, undefined, [...garden(), secret('dns')])).allowed).toBe(true);

    const plugins = shoot(
      (s) =>
        (s.spec.kubernetes.kubeAPIServer = {
          admissionPlugins: [{ name: 'ImagePolicyWebhook', kubeconfigSecretName: 'policy' }],
        }),
    );
    expect(reason(await admit(plugins, undefined, garden()))).toBe(
      `${prefix}failed to resolve admission plugin kubeconfig secret reference for "ImagePolicyWebhook": secrets "policy" not found`,
    );

    const authn = shoot(
      (s) => (s.spec.kubernetes.kubeAPIServer = { structuredAuthentication: { configMapName: 'authn' } }),
    );
    expect(reason(await admit(authn, undefined, garden()))).toBe(
      `${prefix}failed to resolve structured authentication config map reference: configmaps "authn" not found`,
    );
    expect((await admit(authn, undefined, [...garden(), configMap('authn')])).allowed).toBe(true);

    const authz = shoot(
      (s) =>
        (s.spec.kubernetes.kubeAPIServer = {
          structuredAuthorization: { configMapName: 'authz', kubeconfigs: [{ authorizerName: 'a', secretName: 'kc' }] },
        }),
    );
    expect(reason(await admit(authz, undefined, [...garden(), configMap('authz')]))).toBe(
      `${prefix}failed to resolve structured authorization kubeconfig secret reference: secrets "kc" not found`,
    );
  });
});

describe('discoverResource', () => {
  const listers = staticListers([]);
  it("knows built-in kinds and Gardener's kinds, and asks listers that can discover", async () => {
    expect(await discoverResource(listers, 'v1', 'Secret', 'ns')).toEqual({ resource: 'secrets', namespaced: true });
    expect(await discoverResource(listers, 'core.gardener.cloud/v1beta1', 'Seed', 'ns')).toEqual({
      resource: 'seeds',
      namespaced: false,
    });
    const discovering = { ...listers, discoverResource: async () => ({ resource: 'widgets', namespaced: false }) };
    expect(await discoverResource(discovering, 'v1', 'Secret', 'ns')).toEqual({
      resource: 'widgets',
      namespaced: false,
    });
  });
});
