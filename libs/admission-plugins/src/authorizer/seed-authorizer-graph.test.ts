// The SeedAuthorizer's graph per resource type (Gardener's authorizer.go and graph event handlers): for each kind, the
// object connected to seed `a` is allowed for `a` and refused for `b`; the verbs each kind allows always, through the
// graph or not at all; the subresources; the extensions' read-only kinds.
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../attributes.js';
import { staticListers } from '../listers.js';
import { authorizeSeed, type ResourceAttributes } from './seed-authorizer.js';
import { parseCertificateRequest, seedClientVerdict } from './seed-client-csr.js';
import { shootOfProjectResource, SHOOT_PROJECT_SECRET_SUFFIXES } from './graph.js';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A PEM certificate request for `subject` (e.g. `CN=gardener.cloud:system:seed:a, O=gardener.cloud:system:seeds`). */
async function certificateRequest(subject: string, dnsName?: string): Promise<string> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: subject,
    keys: keys as unknown as Parameters<typeof x509.Pkcs10CertificateRequestGenerator.create>[0]['keys'],
    signingAlgorithm: ALG,
    ...(dnsName ? { extensions: [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: dnsName }])] } : {}),
  });
  return csr.toString('pem');
}

const SEED_CLIENT_USAGES = ['digital signature', 'key encipherment', 'client auth'];
const csrObject = (name: string, pem: string, usages = SEED_CLIENT_USAGES): KubeObject => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name },
  spec: { request: Buffer.from(pem).toString('base64'), usages },
});

const shoot = (name: string, seed: string): KubeObject => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'Shoot',
  metadata: { name, namespace: 'garden-p' },
  spec: {
    seedName: seed,
    credentialsBindingName: `wi-${name}`,
    dns: { providers: [{ type: 'local', secretName: `dns-${name}` }] },
    kubernetes: {
      kubeAPIServer: {
        auditConfig: { auditPolicy: { configMapRef: { name: `audit-${name}` } } },
        structuredAuthentication: { configMapName: `authn-${name}` },
        structuredAuthorization: { configMapName: `authz-${name}`, kubeconfigs: [{ secretName: `authz-kc-${name}` }] },
      },
    },
    resources: [
      { name: 'cm', resourceRef: { apiVersion: 'v1', kind: 'ConfigMap', name: `res-cm-${name}` } },
      { name: 's', resourceRef: { apiVersion: 'v1', kind: 'Secret', name: `res-secret-${name}` } },
    ],
  },
});
const seedObject = (name: string): KubeObject => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'Seed',
  metadata: { name },
  spec: {
    backup: {
      provider: 'local',
      credentialsRef: {
        apiVersion: 'security.gardener.cloud/v1alpha1',
        kind: 'WorkloadIdentity',
        name: `backup-${name}`,
        namespace: 'garden',
      },
    },
    resources: [
      { name: 'cm', resourceRef: { apiVersion: 'v1', kind: 'ConfigMap', name: `seed-cm-${name}` } },
      { name: 's', resourceRef: { apiVersion: 'v1', kind: 'Secret', name: `seed-secret-${name}` } },
    ],
  },
  status: { clientCertificateExpirationTimestamp: '2000-01-01T00:00:00Z' },
});
const credentialsBinding = (name: string): KubeObject => ({
  apiVersion: 'security.gardener.cloud/v1alpha1',
  kind: 'CredentialsBinding',
  metadata: { name: `wi-${name}`, namespace: 'garden-p' },
  credentialsRef: {
    apiVersion: 'security.gardener.cloud/v1alpha1',
    kind: 'WorkloadIdentity',
    name: `cloud-${name}`,
    namespace: 'garden-p',
  },
});
const gardenlet = (name: string): KubeObject => ({
  apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
  kind: 'Gardenlet',
  metadata: { name, namespace: 'garden' },
  spec: {
    config: {
      seedConfig: {
        spec: {
          backup: {
            credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: `gl-backup-${name}`, namespace: 'garden' },
          },
        },
      },
    },
  },
});

const attrs = (
  group: string,
  resource: string,
  verb: string,
  name?: string,
  namespace?: string,
  subresource?: string,
) => ({ group, resource, verb, name, namespace, ...(subresource ? { subresource } : {}) }) as ResourceAttributes;

let listers: ReturnType<typeof staticListers>;
beforeAll(async () => {
  listers = staticListers([
    shoot('on-a', 'a'),
    shoot('on-b', 'b'),
    seedObject('a'),
    seedObject('b'),
    credentialsBinding('on-a'),
    credentialsBinding('on-b'),
    gardenlet('a'),
    gardenlet('b'),
    csrObject('csr-a', await certificateRequest('CN=gardener.cloud:system:seed:a, O=gardener.cloud:system:seeds')),
    csrObject('csr-b', await certificateRequest('CN=gardener.cloud:system:seed:b, O=gardener.cloud:system:seeds')),
    // Names seed a, but asks for a server usage: not a seed client certificate, so not in the graph.
    csrObject(
      'csr-a-server',
      await certificateRequest('CN=gardener.cloud:system:seed:a, O=gardener.cloud:system:seeds'),
      ['digital signature', 'key encipherment', 'server auth'],
    ),
    ...['a', 'b'].map((s) => ({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'BackupBucket',
      metadata: { name: `bucket-${s}` },
      spec: {
        seedName: s,
        credentialsRef: {
          apiVersion: 'security.gardener.cloud/v1alpha1',
          kind: 'WorkloadIdentity',
          name: `bucket-wi-${s}`,
          namespace: 'garden',
        },
      },
    })),
  ]);
});

const decide = async (seed: string, a: ResourceAttributes, userType: 'gardenlet' | 'extension' = 'gardenlet') =>
  authorizeSeed(seed, a, listers, userType, new Date('2026-01-01T00:00:00Z'));

/** Objects connected to seed `a` (the same object for `b` has no path), with a verb that needs the graph. */
const connected: [string, ResourceAttributes][] = [
  ['configmap: seed resources', attrs('', 'configmaps', 'patch', 'seed-cm-a', 'garden')],
  ['configmap: audit policy of a shoot', attrs('', 'configmaps', 'update', 'audit-on-a', 'garden-p')],
  ['configmap: structured authentication', attrs('', 'configmaps', 'patch', 'authn-on-a', 'garden-p')],
  ['configmap: structured authorization', attrs('', 'configmaps', 'patch', 'authz-on-a', 'garden-p')],
  ['configmap: shoot resources', attrs('', 'configmaps', 'patch', 'res-cm-on-a', 'garden-p')],
  ['configmap: <shoot>.ca-cluster', attrs('', 'configmaps', 'update', 'on-a.ca-cluster', 'garden-p')],
  ['configmap: <shoot>.ca-kubelet', attrs('', 'configmaps', 'update', 'on-a.ca-kubelet', 'garden-p')],
  ['secret: shoot DNS provider', attrs('', 'secrets', 'get', 'dns-on-a', 'garden-p')],
  ['secret: structured authorization kubeconfig', attrs('', 'secrets', 'get', 'authz-kc-on-a', 'garden-p')],
  ['secret: shoot resources', attrs('', 'secrets', 'patch', 'res-secret-on-a', 'garden-p')],
  ['secret: seed resources', attrs('', 'secrets', 'get', 'seed-secret-a', 'garden')],
  ['secret: <shoot>.ssh-keypair.old', attrs('', 'secrets', 'update', 'on-a.ssh-keypair.old', 'garden-p')],
  ['secret: gardenlet backup', attrs('', 'secrets', 'get', 'gl-backup-a', 'garden')],
  [
    'workloadidentity: seed backup token',
    attrs('security.gardener.cloud', 'workloadidentities', 'create', 'backup-a', 'garden', 'token'),
  ],
  [
    'workloadidentity: bucket credentials',
    attrs('security.gardener.cloud', 'workloadidentities', 'create', 'bucket-wi-a', 'garden', 'token'),
  ],
  [
    'workloadidentity: shoot credentials',
    attrs('security.gardener.cloud', 'workloadidentities', 'create', 'cloud-on-a', 'garden-p', 'token'),
  ],
  ['lease: seed lease', attrs('coordination.k8s.io', 'leases', 'update', 'a', 'gardener-system-seed-lease')],
  ['csr: seed client CSR', attrs('certificates.k8s.io', 'certificatesigningrequests', 'get', 'csr-a')],
  ['gardenlet: status', attrs('seedmanagement.gardener.cloud', 'gardenlets', 'patch', 'a', 'garden', 'status')],
  ['gardenlet: update', attrs('seedmanagement.gardener.cloud', 'gardenlets', 'update', 'a', 'garden')],
  ['shoot: status', attrs('core.gardener.cloud', 'shoots', 'patch', 'on-a', 'garden-p', 'status')],
  ['shootstate: get', attrs('core.gardener.cloud', 'shootstates', 'get', 'on-a', 'garden-p')],
  ['internalsecret: ca-client', attrs('core.gardener.cloud', 'internalsecrets', 'get', 'on-a.ca-client', 'garden-p')],
  ['backupbucket: update', attrs('core.gardener.cloud', 'backupbuckets', 'update', 'bucket-a')],
  ['seed: status', attrs('core.gardener.cloud', 'seeds', 'update', 'a', undefined, 'status')],
];

describe('authorizeSeed along the graph', () => {
  it.each(connected)('%s: allowed for its seed, no relationship for another', async (_, a) => {
    expect((await decide('a', a)).decision).toBe('allow');
    expect(await decide('b', a)).toEqual({
      decision: 'no-opinion',
      reason: "no relationship found between seed 'b' and this object",
    });
  });

  it('reads the gardenlet backup Secret and the bootstrap token of a Gardenlet whose Seed’s certificate expired', async () => {
    const token = `bootstrap-token-${(await import('./managed-seeds.js')).bootstrapTokenID({ namespace: 'garden', name: 'a' })}`;
    expect((await decide('a', attrs('', 'secrets', 'get', token, 'kube-system'))).decision).toBe('allow');
    expect((await decide('b', attrs('', 'secrets', 'get', token, 'kube-system'))).decision).toBe('no-opinion');
  });

  it('connects kube-system/cluster-identity to every seed', async () => {
    for (const seed of ['a', 'b'])
      expect((await decide(seed, attrs('', 'configmaps', 'patch', 'cluster-identity', 'kube-system'))).decision).toBe(
        'allow',
      );
    expect((await decide('a', attrs('', 'configmaps', 'patch', 'cluster-identity', 'garden'))).decision).toBe(
      'no-opinion',
    );
  });

  it('does not connect CSRs that are no seed client certificate requests', async () => {
    const a = attrs('certificates.k8s.io', 'certificatesigningrequests', 'get', 'csr-a-server');
    expect((await decide('a', a)).decision).toBe('no-opinion');
  });

  it('leaves what Gardener allows always to no check (creations go to SeedRestriction)', async () => {
    for (const a of [
      attrs('certificates.k8s.io', 'certificatesigningrequests', 'create', 'csr-b'),
      attrs('certificates.k8s.io', 'certificatesigningrequests', 'create', 'csr-b', undefined, 'seedclient'),
      attrs('', 'configmaps', 'create', 'x', 'garden-p'),
      attrs('', 'secrets', 'create', 'x', 'garden-p'),
      attrs('', 'serviceaccounts', 'create', 'x', 'garden'),
      attrs('rbac.authorization.k8s.io', 'clusterrolebindings', 'create', 'x'),
      attrs('coordination.k8s.io', 'leases', 'create', 'b', 'gardener-system-seed-lease'),
      attrs('coordination.k8s.io', 'leases', 'watch', 'gardenlet-leader-election', 'kube-system'),
      attrs('seedmanagement.gardener.cloud', 'gardenlets', 'create', 'b', 'garden'),
      attrs('core.gardener.cloud', 'internalsecrets', 'create', 'x', 'garden-p'),
      attrs('core.gardener.cloud', 'shootstates', 'create', 'on-b', 'garden-p'),
    ]) {
      expect((await decide('a', a)).decision, `${a.verb} ${a.resource}/${a.subresource ?? ''} ${a.name}`).toBe('allow');
    }
  });

  it('allows deleting what does not exist (not in the graph) and refuses an existing unrelated object', async () => {
    expect((await decide('a', attrs('', 'configmaps', 'delete', 'gone', 'garden-p'))).decision).toBe('allow');
    expect((await decide('a', attrs('core.gardener.cloud', 'backupbuckets', 'delete', 'gone'))).decision).toBe('allow');
    expect((await decide('a', attrs('core.gardener.cloud', 'backupbuckets', 'delete', 'bucket-b'))).decision).toBe(
      'no-opinion',
    );
  });
});

describe('authorizeSeed verbs and subresources', () => {
  const matrix: [string, string, readonly string[]][] = [
    ['certificates.k8s.io', 'certificatesigningrequests', ['create', 'get', 'list', 'watch']],
    ['coordination.k8s.io', 'leases', ['create', 'get', 'update', 'patch', 'list', 'watch']],
    ['', 'secrets', ['create', 'get', 'patch', 'update', 'delete']],
    ['', 'serviceaccounts', ['create', 'get', 'patch', 'update']],
    ['rbac.authorization.k8s.io', 'clusterrolebindings', ['create', 'get', 'patch', 'update']],
    ['', 'configmaps', ['create', 'get', 'patch', 'update', 'delete', 'list', 'watch']],
    ['core.gardener.cloud', 'shoots', ['get', 'list', 'watch', 'update', 'patch']],
    ['core.gardener.cloud', 'controllerinstallations', ['get', 'list', 'watch', 'update', 'patch']],
    ['seedmanagement.gardener.cloud', 'gardenlets', ['get', 'list', 'watch', 'create', 'update', 'patch']],
    ['security.gardener.cloud', 'workloadidentities', ['get', 'list', 'watch', 'create']],
    ['core.gardener.cloud', 'bastions', ['create', 'get', 'list', 'watch', 'update', 'patch']],
  ];
  const verbs = ['create', 'get', 'list', 'watch', 'update', 'patch', 'delete', 'deletecollection'];

  it.each(matrix)('%s %s: other verbs get no opinion, naming the allowed ones', async (group, resource, allowed) => {
    const g = resource === 'bastions' ? 'operations.gardener.cloud' : group;
    for (const verb of verbs.filter((v) => !allowed.includes(v))) {
      const decision = await decide('a', attrs(g, resource, verb, 'anything', 'garden-p'));
      expect(decision.decision, verb).toBe('no-opinion');
      expect(decision.reason, verb).toMatch(/^only the following verbs are allowed for this resource type: \[/);
    }
  });

  it('refuses subresources Gardener does not list', async () => {
    for (const a of [
      attrs('core.gardener.cloud', 'shoots', 'update', 'on-a', 'garden-p', 'binding'),
      attrs('core.gardener.cloud', 'seeds', 'update', 'a', undefined, 'finalizers'),
      attrs('', 'secrets', 'get', 'on-a.kubeconfig', 'garden-p', 'x'),
      attrs('security.gardener.cloud', 'workloadidentities', 'create', 'backup-a', 'garden', 'status'),
      attrs('certificates.k8s.io', 'certificatesigningrequests', 'update', 'csr-a', undefined, 'approval'),
    ]) {
      const decision = await decide('a', a);
      expect(decision.decision, `${a.resource}/${a.subresource}`).toBe('no-opinion');
      expect(decision.reason).toMatch(/^only the following subresources are allowed for this resource type/);
    }
  });

  it('needs a name for what the graph decides', async () => {
    expect(
      await decide('a', attrs('coordination.k8s.io', 'leases', 'list', undefined, 'gardener-system-seed-lease')),
    ).toEqual({
      decision: 'no-opinion',
      reason: 'No Object name found',
    });
  });

  it('records events with create and patch only', async () => {
    expect((await decide('a', attrs('', 'events', 'create', undefined, 'garden-p'))).decision).toBe('allow');
    expect((await decide('a', attrs('events.k8s.io', 'events', 'patch', 'e', 'garden-p'))).decision).toBe('allow');
    expect((await decide('a', attrs('', 'events', 'delete', 'e', 'garden-p'))).decision).toBe('no-opinion');
  });
});

describe('authorizeSeed for extensions', () => {
  it('gives them the read-only subset for CSRs, never creation', async () => {
    const csr = (verb: string, name?: string, subresource?: string) =>
      attrs('certificates.k8s.io', 'certificatesigningrequests', verb, name, undefined, subresource);
    expect((await decide('a', csr('get', 'csr-a'), 'extension')).decision).toBe('allow');
    expect((await decide('b', csr('get', 'csr-a'), 'extension')).decision).toBe('no-opinion');
    expect((await decide('a', csr('create', 'x'), 'extension')).decision).toBe('no-opinion');
    expect((await decide('a', csr('create', 'x', 'seedclient'), 'extension')).decision).toBe('no-opinion');
    expect((await decide('a', attrs('', 'serviceaccounts', 'create', 'x', 'garden'), 'extension')).decision).toBe(
      'no-opinion',
    );
  });

  it('keeps the seed Lease to the gardenlet', async () => {
    const lease = attrs('coordination.k8s.io', 'leases', 'update', 'a', 'gardener-system-seed-lease');
    expect(await decide('a', lease, 'extension')).toEqual({
      decision: 'no-opinion',
      reason: 'lease object is not in seed namespace',
    });
  });
});

describe('seed client certificate requests', () => {
  it('names the seed of a seed client CSR and says why others are none', async () => {
    const subject = parseCertificateRequest(
      await certificateRequest('CN=gardener.cloud:system:seed:a, O=gardener.cloud:system:seeds'),
    )!;
    expect(seedClientVerdict(subject, SEED_CLIENT_USAGES)).toEqual({ ok: true, seed: 'a' });
    expect(seedClientVerdict(subject, ['client auth'])).toMatchObject({ ok: false });
    const withSAN = parseCertificateRequest(
      await certificateRequest('CN=gardener.cloud:system:seed:a, O=gardener.cloud:system:seeds', 'a.example.com'),
    )!;
    expect(seedClientVerdict(withSAN, SEED_CLIENT_USAGES)).toEqual({
      ok: false,
      reason: 'DNSNames, EmailAddresses and IPAddresses fields must be empty',
    });
    const otherOrg = parseCertificateRequest(await certificateRequest('CN=gardener.cloud:system:seed:a, O=other'))!;
    expect(seedClientVerdict(otherOrg, SEED_CLIENT_USAGES)).toMatchObject({ ok: false });
    const otherName = parseCertificateRequest(await certificateRequest('CN=alice, O=gardener.cloud:system:seeds'))!;
    expect(seedClientVerdict(otherName, SEED_CLIENT_USAGES)).toMatchObject({ ok: false });
    expect(parseCertificateRequest('not a PEM')).toBeUndefined();
  });

  it('finds the Shoot of a project resource by the longest suffix', () => {
    expect(shootOfProjectResource('x.ssh-keypair.old', SHOOT_PROJECT_SECRET_SUFFIXES)).toBe('x');
    expect(shootOfProjectResource('x.y.kubeconfig', SHOOT_PROJECT_SECRET_SUFFIXES)).toBe('x.y');
    expect(shootOfProjectResource('.kubeconfig', SHOOT_PROJECT_SECRET_SUFFIXES)).toBeUndefined();
    expect(shootOfProjectResource('x.token', SHOOT_PROJECT_SECRET_SUFFIXES)).toBeUndefined();
  });
});
