import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import type { KubeObject } from '../attributes.js';
import { ShootValidator } from './shoot-validator.js';
import { hasManagedIssuer, managedIssuerRefusal, validateManagedIssuer } from './shoot-managed-issuer.js';

const managed = (s: KubeObject = example('local/shoot.yaml')) => {
  s.metadata!.annotations = { ...s.metadata!.annotations, 'authentication.gardener.cloud/issuer': 'managed' };
  return s;
};
/** Gardener's example Shoot (which asks for the managed issuer) without the issuer annotation. */
const plain = () => {
  const s = example('local/shoot.yaml');
  delete s.metadata!.annotations!['authentication.gardener.cloud/issuer'];
  return s;
};
const issuerSecret: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name: 'shoot-service-account-issuer',
    namespace: 'garden',
    labels: { 'gardener.cloud/role': 'shoot-service-account-issuer' },
  },
  data: { hostname: Buffer.from('issuer.example.com').toString('base64') },
};

describe('managed service account issuer rules', () => {
  it('refuses enabling the managed issuer where the garden is not configured for it', () => {
    expect(managedIssuerRefusal(managed(), undefined, false)).toEqual({
      code: 403,
      reason: 'cannot enable managed service account issuer as it is not supported in this Gardener installation',
    });
    expect(managedIssuerRefusal(managed(), undefined, true)).toBeUndefined();
  });

  it('answers an internal error when a Shoot had it and the configuration is gone', () => {
    expect(managedIssuerRefusal(plain(), managed(), false)).toEqual({
      code: 500,
      reason: 'old shoot object has managed service account issuer enabled, but Gardener configuration is missing',
    });
  });

  it('refuses disabling it once enabled', () => {
    expect(managedIssuerRefusal(plain(), managed(), true)).toEqual({
      code: 403,
      reason: 'once enabled managed service account issuer cannot be disabled',
    });
    expect(managedIssuerRefusal(managed(), managed(), true)).toBeUndefined();
  });

  it('refuses it together with an own service account issuer', () => {
    const s = managed();
    s.spec.kubernetes.kubeAPIServer = { serviceAccountConfig: { issuer: 'https://example.com' } };
    expect(managedIssuerRefusal(s, undefined, true)).toEqual({
      code: 403,
      reason:
        'managed service account issuer cannot be enabled when .kubernetes.kubeAPIServer.serviceAccountConfig.issuer is set',
    });
  });

  it('never refuses a Shoot that neither has nor had the managed issuer, whatever the annotation says otherwise', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.boolean(), (now, before, configured) => {
        fc.pre(now !== 'managed' && before !== 'managed');
        const s = plain();
        s.metadata!.annotations = { 'authentication.gardener.cloud/issuer': now };
        const o = plain();
        o.metadata!.annotations = { 'authentication.gardener.cloud/issuer': before };
        expect(hasManagedIssuer(s)).toBe(false);
        expect(managedIssuerRefusal(s, o, configured)).toBeUndefined();
      }),
    );
  });

  it('reads the configuration Secret from the garden namespace only when the Shoot involves the managed issuer', async () => {
    let listed = 0;
    const listers = staticListers([issuerSecret]);
    const counting = {
      ...listers,
      list: (...args: Parameters<typeof listers.list>) => (listed++, listers.list(...args)),
    };
    expect(await validateManagedIssuer(plain(), undefined, counting)).toBeUndefined();
    expect(listed).toBe(0);
    expect(await validateManagedIssuer(managed(), undefined, counting)).toBeUndefined();
    expect(listed).toBe(1);
    const elsewhere = structuredClone(issuerSecret);
    elsewhere.metadata!.namespace = 'garden-local';
    expect(await validateManagedIssuer(managed(), undefined, staticListers([elsewhere]))).toMatchObject({ code: 403 });
  });
});

describe('ShootValidator: managed service account issuer', () => {
  const admit = (object: KubeObject, old?: KubeObject, objects: KubeObject[] = []) =>
    runChain(
      [ShootValidator],
      request(old ? 'UPDATE' : 'CREATE', object, old),
      staticListers([example('local/project.yaml'), example('local/cloudprofile.yaml'), ...objects], async () => true),
    );

  it("refuses a new Shoot asking for it in a garden without it, with Gardener's message", async () => {
    expect(await admit(managed())).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: cannot enable managed service account issuer as it is not supported in this Gardener installation',
    });
    expect((await admit(managed(), undefined, [issuerSecret])).allowed).toBe(true);
  });

  it('refuses an update that drops it, and answers 500 when the garden lost its configuration', async () => {
    const old = managed();
    expect(await admit(plain(), old, [issuerSecret])).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: once enabled managed service account issuer cannot be disabled',
    });
    // Without the configuration, a Shoot that keeps asking is refused as if new; one that dropped it needs an operator.
    expect(await admit(managed(), old)).toMatchObject({ allowed: false, code: 403 });
    expect(await admit(plain(), old)).toMatchObject({
      allowed: false,
      code: 500,
      message:
        'Internal error occurred: old shoot object has managed service account issuer enabled, but Gardener configuration is missing',
    });
  });
});
