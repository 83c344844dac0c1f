// ResourceReferenceManager on SecretBindings and CredentialsBindings: the provider types of the Shoots using them, read
// permission of the user (a SubjectAccessReview), existence of credentials and Quotas, the provider secret sanity check,
// a WorkloadIdentity's target system, one Quota per scope.
import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import type { AccessAttributes, KubeObject, Listers } from '../attributes.js';
import { runChain } from '../chain.js';
import { staticListers } from '../listers.js';
import {
  bindingCredentials,
  bindingProviderTypes,
  quotaScope,
  sanityCheckSecret,
  shootProviderMismatch,
} from './resource-reference-bindings.js';
import { ResourceReferenceManager } from './resource-reference-manager.js';

const chain = [ResourceReferenceManager];
const ns = 'garden-local';
const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'local', namespace: ns } };
const identity = {
  apiVersion: 'security.gardener.cloud/v1alpha1',
  kind: 'WorkloadIdentity',
  metadata: { name: 'wi', namespace: ns },
  spec: { targetSystem: { type: 'local' } },
};
const quota = (name: string, apiVersion: string, kind: string): KubeObject => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'Quota',
  metadata: { name, namespace: ns },
  spec: { scope: { apiVersion, kind }, metrics: { cpu: '10' } },
});
const projectQuota = quota('project', 'core.gardener.cloud/v1beta1', 'Project');
const secretQuota = quota('secret', 'v1', 'Secret');
const secretBinding = (quotas: string[] = [], type: string | null = 'local'): KubeObject => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'SecretBinding',
  metadata: { name: 'local', namespace: ns },
  secretRef: { name: 'local', namespace: ns },
  quotas: quotas.map((name) => ({ name, namespace: ns })),
  ...(type === null ? {} : { provider: { type } }),
});
const shoot = (name: string, type: string, binding: Record<string, string>, namespace = ns): KubeObject => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'Shoot',
  metadata: { name, namespace },
  spec: { ...binding, provider: { type } },
});

/** An authorizer that records the questions and allows all but the `denied` resources. */
function recordingAuthorizer(denied: string[] = []) {
  const asked: AccessAttributes[] = [];
  const authorize = async (_user: unknown, resource: AccessAttributes) => {
    asked.push(resource);
    return !denied.includes(resource.resource);
  };
  return { asked, authorize };
}

describe('ResourceReferenceManager on bindings', () => {
  it('asks whether the user may read the credentials and each Quota', async () => {
    const { asked, authorize } = recordingAuthorizer();
    const listers = staticListers([secret, projectQuota], authorize);
    expect((await runChain(chain, request('CREATE', secretBinding(['project'])), listers)).allowed).toBe(true);
    expect(asked).toEqual([
      { verb: 'get', group: '', resource: 'secrets', name: 'local', namespace: ns },
      { verb: 'get', group: 'core.gardener.cloud', resource: 'quotas', name: 'project', namespace: ns },
    ]);
  });

  it('refuses credentials or Quotas the user may not read, with Gardener’s words', async () => {
    const refuse = async (denied: string, binding: KubeObject, objects: KubeObject[]) =>
      runChain(chain, request('CREATE', binding), staticListers(objects, recordingAuthorizer([denied]).authorize));
    expect(await refuse('secrets', secretBinding(), [secret])).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'secretbindings.core.gardener.cloud "local" is forbidden: SecretBinding cannot reference a Secret you are not allowed to read',
    });
    expect(await refuse('quotas', secretBinding(['project']), [secret, projectQuota])).toMatchObject({
      message:
        'secretbindings.core.gardener.cloud "local" is forbidden: SecretBinding cannot reference a quota you are not allowed to read',
    });
    const binding = example('local/credentialsbinding.yaml');
    binding.credentialsRef = {
      apiVersion: 'security.gardener.cloud/v1alpha1',
      kind: 'WorkloadIdentity',
      name: 'wi',
      namespace: ns,
    };
    expect(await refuse('workloadidentities', binding, [identity])).toMatchObject({
      message:
        'credentialsbindings.security.gardener.cloud "local" is forbidden: CredentialsBinding cannot reference a WorkloadIdentity you are not allowed to read',
    });
    expect(await refuse('none', binding, [])).toMatchObject({
      message:
        'credentialsbindings.security.gardener.cloud "local" is forbidden: workloadidentities.security.gardener.cloud "wi" not found',
    });
    expect((await refuse('none', binding, [identity])).allowed).toBe(true);
  });

  it('refuses when no authorizer answers (listers without SubjectAccessReviews)', async () => {
    expect(await runChain(chain, request('CREATE', secretBinding()), staticListers([secret]))).toMatchObject({
      allowed: false,
      message:
        'secretbindings.core.gardener.cloud "local" is forbidden: SecretBinding cannot reference a Secret you are not allowed to read',
    });
  });

  it('allows one Quota per scope only; a missing Quota is the lister’s not found', async () => {
    const { authorize } = recordingAuthorizer();
    const run = (quotas: string[], objects: KubeObject[]) =>
      runChain(chain, request('CREATE', secretBinding(quotas)), staticListers([secret, ...objects], authorize));
    const otherProjectQuota = quota('project2', 'core.gardener.cloud/v1beta1', 'Project');
    expect((await run(['project', 'secret'], [projectQuota, secretQuota])).allowed).toBe(true);
    expect(await run(['project', 'project2'], [projectQuota, otherProjectQuota])).toMatchObject({
      message:
        'secretbindings.core.gardener.cloud "local" is forbidden: only one quota per scope (project or credentials) can be assigned',
    });
    expect(await run(['gone'], [])).toMatchObject({
      message: 'secretbindings.core.gardener.cloud "local" is forbidden: quota.core.gardener.cloud "gone" not found',
    });
    expect(await run(['odd'], [quota('odd', 'v1', 'ConfigMap')])).toMatchObject({
      message: 'secretbindings.core.gardener.cloud "local" is forbidden: unknown quota scope',
    });
  });

  it('checks every UPDATE, but not a binding in deletion', async () => {
    const old = secretBinding();
    expect((await runChain(chain, request('UPDATE', old, old), staticListers([secret]))).allowed).toBe(false);
    const deleting = { ...old, metadata: { ...old.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } };
    expect((await runChain(chain, request('UPDATE', deleting, old), staticListers([]))).allowed).toBe(true);
  });

  it('refuses a binding whose provider types a Shoot using it does not have, before anything else', async () => {
    const shoots = [
      shoot('other-binding', 'aws', { secretBindingName: 'other' }),
      shoot('other-namespace', 'aws', { secretBindingName: 'local' }, 'garden-other'),
      shoot('by-credentials-binding', 'aws', { credentialsBindingName: 'local' }),
      shoot('uses-it', 'aws', { secretBindingName: 'local' }),
    ];
    // No authorizer: the provider check comes before the read permission.
    expect(
      await runChain(chain, request('UPDATE', secretBinding(), secretBinding()), staticListers(shoots)),
    ).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'secretbindings.core.gardener.cloud "local" is forbidden: SecretBinding is referenced by shoot "uses-it", but provider types ([local]) do not match with the shoot provider type "aws"',
    });
    const noProvider = secretBinding([], null);
    expect(await runChain(chain, request('UPDATE', noProvider, noProvider), staticListers(shoots))).toMatchObject({
      message:
        'secretbindings.core.gardener.cloud "local" is forbidden: SecretBinding is referenced by shoot "uses-it", but provider types ([]) do not match with the shoot provider type "aws"',
    });
    const { authorize } = recordingAuthorizer();
    const both = secretBinding([], 'local,aws');
    expect(
      (await runChain(chain, request('UPDATE', both, both), staticListers([secret, ...shoots], authorize))).allowed,
    ).toBe(true);
    const binding = example('local/credentialsbinding.yaml');
    expect(await runChain(chain, request('CREATE', binding), staticListers(shoots))).toMatchObject({
      message:
        'credentialsbindings.security.gardener.cloud "local" is forbidden: CredentialsBinding is referenced by shoot "by-credentials-binding", but provider types ([local]) do not match with the shoot provider type "aws"',
    });
    expect(bindingProviderTypes('SecretBinding', both)).toEqual(['local', 'aws']);
    expect(
      shootProviderMismatch('SecretBinding', both, ['local'], [shoot('s', 'local', { secretBindingName: 'local' })]),
    ).toBeUndefined();
  });

  it('creates a copy of the Secret per provider type with dry run and refuses what the API server refuses', async () => {
    const { authorize } = recordingAuthorizer();
    const stored = {
      ...secret,
      metadata: { ...secret.metadata, labels: { app: 'x' }, annotations: { note: 'y' } },
      type: 'Opaque',
      data: { token: 'dG9rZW4=' },
    };
    const created: KubeObject[] = [];
    const listers = (refuse?: string): Listers => ({
      ...staticListers([stored], authorize),
      createDryRun: async (object) => {
        created.push(object);
        if (refuse && object.metadata?.labels?.[`provider.shoot.gardener.cloud/${refuse}`])
          throw new Error(
            'admission webhook "validation.local.provider.extensions.gardener.cloud" denied the request: no token',
          );
      },
    });
    const binding = secretBinding([], 'local,aws');
    expect((await runChain(chain, request('CREATE', binding), listers())).allowed).toBe(true);
    expect(created).toEqual([sanityCheckSecret(stored, 'local'), sanityCheckSecret(stored, 'aws')]);
    expect(created[0]).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        generateName: 'local',
        namespace: ns,
        annotations: { note: 'y' },
        labels: { app: 'x', 'provider.shoot.gardener.cloud/local': 'true' },
      },
      type: 'Opaque',
      data: { token: 'dG9rZW4=' },
    });
    expect(await runChain(chain, request('CREATE', binding), listers('aws'))).toMatchObject({
      allowed: false,
      message:
        'secretbindings.core.gardener.cloud "local" is forbidden: aws provider secret sanity check failed: admission webhook "validation.local.provider.extensions.gardener.cloud" denied the request: no token',
    });
  });

  it('refuses a WorkloadIdentity of another provider type', async () => {
    const { authorize } = recordingAuthorizer();
    const binding = example('local/credentialsbinding.yaml');
    binding.credentialsRef = {
      apiVersion: 'security.gardener.cloud/v1alpha1',
      kind: 'WorkloadIdentity',
      name: 'wi',
      namespace: ns,
    };
    const targeting = (type: string) => ({ ...identity, spec: { targetSystem: { type } } });
    expect(
      await runChain(chain, request('CREATE', binding), staticListers([targeting('aws')], authorize)),
    ).toMatchObject({
      allowed: false,
      message:
        'credentialsbindings.security.gardener.cloud "local" is forbidden: CredentialsBinding provider type ([local]) does not match with WorkloadIdentity provider type aws',
    });
    expect(
      (await runChain(chain, request('CREATE', binding), staticListers([targeting('local')], authorize))).allowed,
    ).toBe(true);
  });

  it('maps credentials references and quota scopes as Gardener does', () => {
    const binding = example('local/credentialsbinding.yaml');
    expect(
      bindingCredentials('CredentialsBinding', { ...binding, credentialsRef: { apiVersion: 'x/v1', name: 'a' } }),
    ).toBe('unknown credentials ref: CredentialsBinding is referencing neither a Secret nor a WorkloadIdentity');
    expect(quotaScope(quota('q', 'security.gardener.cloud/v1alpha1', 'WorkloadIdentity'))).toBe('credentials');
    expect(quotaScope(quota('q', 'core.gardener.cloud/v1alpha1', 'Project'))).toBeUndefined();
  });
});
