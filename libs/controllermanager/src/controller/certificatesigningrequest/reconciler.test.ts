import { describe, expect, it } from 'vitest';
import type { CertificateSigningRequest } from '../../kinds.js';
import { certificateRequestPem, silentContext } from '../../../test/support/csr.js';
import { CertificateSigningRequestReconciler, type AccessQuestion, type CSRGarden } from './reconciler.js';

const SEED_SUBJECT = 'CN=gardener.cloud:system:seed:local, O=gardener.cloud:system:seeds';

async function csr(
  subject: string,
  changes: Partial<NonNullable<CertificateSigningRequest['spec']>> = {},
): Promise<CertificateSigningRequest> {
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'csr-1' },
    spec: {
      request: Buffer.from(await certificateRequestPem(subject)).toString('base64'),
      signerName: 'kubernetes.io/kube-apiserver-client',
      usages: ['digital signature', 'key encipherment', 'client auth'],
      username: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers', 'system:authenticated'],
      ...changes,
    },
  };
}

class FakeGarden implements CSRGarden {
  readonly questions: AccessQuestion[] = [];
  approved?: CertificateSigningRequest;
  constructor(
    private readonly stored: CertificateSigningRequest | undefined,
    private readonly allowed = true,
  ) {}
  get = () => Promise.resolve(this.stored && structuredClone(this.stored));
  review = (q: AccessQuestion) => {
    this.questions.push(q);
    return Promise.resolve({ allowed: this.allowed, reason: this.allowed ? '' : 'no RBAC policy matched' });
  };
  approve = (c: CertificateSigningRequest) => {
    this.approved = c;
    return Promise.resolve();
  };
}

const reconcile = (garden: FakeGarden) =>
  new CertificateSigningRequestReconciler(garden, () => new Date('2026-01-01T00:00:00.123Z')).reconcile(
    { namespace: '', name: 'csr-1' },
    silentContext(),
  );

describe('CertificateSigningRequestReconciler', () => {
  it('approves a seed client CSR once the requester may create certificatesigningrequests/seedclient', async () => {
    const garden = new FakeGarden(await csr(SEED_SUBJECT));
    await reconcile(garden);
    expect(garden.questions).toEqual([
      {
        user: 'system:bootstrap:abcdef',
        groups: ['system:bootstrappers', 'system:authenticated'],
        resourceAttributes: {
          group: 'certificates.k8s.io',
          resource: 'certificatesigningrequests',
          subresource: 'seedclient',
          verb: 'create',
        },
      },
    ]);
    expect(garden.approved?.status?.conditions).toEqual([
      {
        type: 'Approved',
        status: 'True',
        reason: 'AutoApproved',
        message: 'Auto approving gardenlet client certificate after SubjectAccessReview.',
        lastUpdateTime: '2026-01-01T00:00:00Z',
      },
    ]);
  });

  it('fails (to retry) when the SubjectAccessReview denies, and approves nothing', async () => {
    const garden = new FakeGarden(await csr(SEED_SUBJECT), false);
    await expect(reconcile(garden)).rejects.toThrow(
      'recognized CSR but SubjectAccessReview was not allowed: no RBAC policy matched',
    );
    expect(garden.approved).toBeUndefined();
  });

  it('leaves CSRs alone that are no seed client certificates, decided already, or gone', async () => {
    const node = new FakeGarden(await csr('CN=system:node:n1, O=system:nodes'));
    await reconcile(node);
    expect(node.questions).toEqual([]);
    expect(node.approved).toBeUndefined();

    const serverAuth = new FakeGarden(
      await csr(SEED_SUBJECT, { usages: ['digital signature', 'key encipherment', 'server auth'] }),
    );
    await reconcile(serverAuth);
    expect(serverAuth.approved).toBeUndefined();

    const denied = await csr(SEED_SUBJECT);
    denied.status = { conditions: [{ type: 'Denied', status: 'True', reason: 'ByAdmin' }] };
    const decided = new FakeGarden(denied);
    await reconcile(decided);
    expect(decided.questions).toEqual([]);

    await reconcile(new FakeGarden(undefined));
  });

  it('refuses a request that cannot be parsed', async () => {
    const garden = new FakeGarden(await csr(SEED_SUBJECT, { request: Buffer.from('garbage').toString('base64') }));
    await expect(reconcile(garden)).rejects.toThrow('unable to parse csr: PEM block type must be CERTIFICATE REQUEST');
  });
});
