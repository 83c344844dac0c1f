import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import type { KubeObject } from '../attributes.js';
import { runValidating } from '../chain.js';
import { staticListers } from '../listers.js';
import { defaultPlugins } from './index.js';
import { InternalDomainSecretValidator } from './internal-domain-secret.js';

// The internal domain Secret as an operator writes it (Gardener's docs: `kubectl apply` of a Secret in `garden`).
function internalDomain(
  name = 'internal-domain',
  annotations: Record<string, string> | undefined = {
    'dns.gardener.cloud/provider': 'local',
    'dns.gardener.cloud/domain': 'internal.local.gardener.cloud',
  },
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name,
      namespace: 'garden',
      labels: { 'gardener.cloud/role': 'internal-domain' },
      ...(annotations ? { annotations } : {}),
    },
    type: 'Opaque',
    data: {},
  };
}

const shoot = { ...example('local/shoot.yaml'), spec: { ...example('local/shoot.yaml').spec, seedName: 'local' } };
const validate = (a: Parameters<typeof runValidating>[1], objects: KubeObject[]) =>
  runValidating([InternalDomainSecretValidator], a, staticListers(objects));

describe('InternalDomainSecretValidator', () => {
  it('needs the provider and domain annotations on creation (400)', async () => {
    expect((await validate(request('CREATE', internalDomain()), [])).allowed).toBe(true);
    const noDomain = await validate(
      request('CREATE', internalDomain('internal-domain', { 'dns.gardener.cloud/provider': 'local' })),
      [],
    );
    expect(noDomain).toMatchObject({
      allowed: false,
      code: 400,
      message: 'missing dns domain annotation on domain secret',
    });
    const bare = internalDomain();
    delete bare.metadata!.annotations;
    const none = await validate(request('CREATE', bare), []);
    expect(!none.allowed && none.message).toBe('domain secret has no annotations');
    expect(defaultPlugins).toContain(InternalDomainSecretValidator);
  });

  it('allows only one internal domain Secret per namespace (409)', async () => {
    const result = await validate(request('CREATE', internalDomain('second')), [internalDomain()]);
    expect(result).toMatchObject({
      allowed: false,
      code: 409,
      message:
        'Operation cannot be fulfilled on Secret "second": cannot create internal domain secret because there can be only one secret with the \'internal-domain\' secret role per namespace',
    });
    const unlabelled = internalDomain('second');
    delete unlabelled.metadata!.labels;
    const labelled = await validate(request('UPDATE', internalDomain('second'), unlabelled), [internalDomain()]);
    expect(!labelled.allowed && labelled.code).toBe(409);
  });

  it('refuses changing the domain or deleting the Secret while Shoots exist (403)', async () => {
    const moved = internalDomain();
    moved.metadata!.annotations!['dns.gardener.cloud/domain'] = 'internal.example.com';
    const changed = await validate(request('UPDATE', moved, internalDomain()), [shoot]);
    expect(changed).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'Secret "internal-domain" is forbidden: cannot change domain because there are still shoots left in the system',
    });
    expect((await validate(request('UPDATE', moved, internalDomain()), [])).allowed).toBe(true);
    const deleted = await validate(request('DELETE', undefined, internalDomain()), [shoot]);
    expect(!deleted.allowed && deleted.message).toBe(
      'Secret "internal-domain" is forbidden: cannot delete internal domain secret because there are still shoots left in the system',
    );
    expect((await validate(request('DELETE', undefined, internalDomain()), [])).allowed).toBe(true);
  });

  it('only counts the Shoots of the seed for a seed namespace, and ignores other namespaces', async () => {
    const seedSecret = { ...internalDomain(), metadata: { ...internalDomain().metadata, namespace: 'seed-other' } };
    expect((await validate(request('DELETE', undefined, seedSecret), [shoot])).allowed).toBe(true);
    const projectSecret = {
      ...internalDomain(),
      metadata: { ...internalDomain().metadata, namespace: 'garden-local' },
    };
    expect((await validate(request('DELETE', undefined, projectSecret), [shoot])).allowed).toBe(true);
  });

  it('lets a valid internal domain Secret through the whole chain', async () => {
    expect((await runValidating(defaultPlugins, request('CREATE', internalDomain()), staticListers([]))).allowed).toBe(
      true,
    );
  });

  it('does not look at Secrets without the role', () => {
    const other = internalDomain();
    delete other.metadata!.labels;
    expect(InternalDomainSecretValidator.handles(request('DELETE', undefined, other))).toBe(false);
  });
});
