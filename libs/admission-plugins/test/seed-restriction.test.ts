// SeedRestriction on a live API server: the admission webhooks registered as the admission controller registers them
// (`seed-restriction.gardener.cloud` at /webhooks/admission/seedrestriction) and the SeedAuthorizer as the
// authorization webhook; gardenlets authenticated with static tokens (`gardener.cloud:system:seed:<name>` in
// `gardener.cloud:system:seeds`) driven with the real kubectl. The authorizer lets a gardenlet create Leases, CSRs and
// Secrets of any name; the API server then refuses through SeedRestriction what does not belong to its seed.
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl } from '@gardener-ts/testing';
import { startSeedGarden, type SeedGarden } from './kubeconfig.js';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A seed client certificate request of `seed`'s gardenlet, as the gardenlet sends it to renew its certificate. */
async function seedClientCSR(name: string, seed: string): Promise<string> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const request = await x509.Pkcs10CertificateRequestGenerator.create({
    name: `CN=gardener.cloud:system:seed:${seed}, O=gardener.cloud:system:seeds`,
    keys: keys as unknown as Parameters<typeof x509.Pkcs10CertificateRequestGenerator.create>[0]['keys'],
    signingAlgorithm: ALG,
  });
  return JSON.stringify({
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: {
      request: Buffer.from(request.toString('pem')).toString('base64'),
      signerName: 'kubernetes.io/kube-apiserver-client',
      usages: ['digital signature', 'key encipherment', 'client auth'],
    },
  });
}

const lease = (namespace: string, name: string) =>
  JSON.stringify({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace },
    spec: { holderIdentity: name },
  });

const REFUSAL = 'admission webhook "seed-restriction.gardener.cloud" denied the request';

describe('SeedRestriction on a live API server', () => {
  let garden: SeedGarden;
  let admin: string;
  let seedA: string;

  beforeAll(async () => {
    // SeedRestriction reads ManagedSeeds, BackupBuckets and Shoots for Secrets.
    garden = await startSeedGarden(['a']);
    admin = garden.admin;
    seedA = await garden.seedKubeconfig('a');
    for (const ns of ['gardener-system-seed-lease', 'elsewhere']) await kubectl(admin, ['create', 'namespace', ns]);
  }, 120_000);

  afterAll(async () => {
    await garden?.stop();
  });

  it('registers SeedRestriction for Leases, CSRs, Secrets, ServiceAccounts and ClusterRoleBindings', async () => {
    const config = JSON.parse(
      await kubectl(admin, ['get', 'validatingwebhookconfiguration', 'gardener-admission-controller', '-o', 'json']),
    );
    const webhook = config.webhooks.find((w: { name: string }) => w.name === 'seed-restriction.gardener.cloud');
    expect(webhook.clientConfig.url).toMatch(/\/webhooks\/admission\/seedrestriction$/);
    const resources = webhook.rules.flatMap((r: { resources: string[] }) => r.resources);
    for (const r of ['leases', 'certificatesigningrequests', 'secrets', 'serviceaccounts', 'clusterrolebindings'])
      expect(resources).toContain(r);
  });

  it('admits the gardenlet’s own seed Lease', async () => {
    await kubectl(seedA, ['create', '-f', '-'], { input: lease('gardener-system-seed-lease', 'a') });
    expect(
      await kubectl(admin, [
        'get',
        'lease',
        'a',
        '-n',
        'gardener-system-seed-lease',
        '-o',
        'jsonpath={.metadata.name}',
      ]),
    ).toBe('a');
  });

  it('refuses a Lease named for another seed, and a Lease outside gardener-system-seed-lease', async () => {
    const other = await runKubectl(seedA, ['create', '-f', '-'], { input: lease('gardener-system-seed-lease', 'b') });
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain(REFUSAL);
    expect(other.stderr).toContain('leases.coordination.k8s.io "b" is forbidden: object does not belong to seed "a"');
    const outside = await runKubectl(seedA, ['create', '-f', '-'], { input: lease('elsewhere', 'a') });
    expect(outside.code).not.toBe(0);
    expect(outside.stderr).toContain(REFUSAL);
    expect(outside.stderr).toContain('object does not belong to seed "a"');
    // Nothing was stored.
    const got = await runKubectl(admin, ['get', 'lease', 'b', '-n', 'gardener-system-seed-lease']);
    expect(got.stderr).toContain('NotFound');
  });

  it('admits a CSR for the gardenlet’s own identity and refuses one for another seed’s', async () => {
    await kubectl(seedA, ['create', '-f', '-'], { input: await seedClientCSR('seed-csr-a', 'a') });
    const other = await runKubectl(seedA, ['create', '-f', '-'], { input: await seedClientCSR('seed-csr-b', 'b') });
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain(REFUSAL);
    expect(other.stderr).toContain(
      'certificatesigningrequests.certificates.k8s.io "seed-csr-b" is forbidden: object does not belong to seed "a"',
    );
  });

  it('refuses a Secret that belongs to no object of the seed', async () => {
    const result = await runKubectl(seedA, ['create', 'secret', 'generic', 'mine', '-n', 'elsewhere']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(REFUSAL);
    expect(result.stderr).toContain('secrets "mine" is forbidden: object does not belong to seed "a"');
  });

  it('leaves users who are no seed client alone', async () => {
    await kubectl(admin, ['create', '-f', '-'], { input: lease('elsewhere', 'b') });
    await kubectl(admin, ['create', '-f', '-'], { input: lease('gardener-system-seed-lease', 'b') });
    await kubectl(admin, ['create', '-f', '-'], { input: await seedClientCSR('admin-csr-b', 'b') });
    await kubectl(admin, ['create', 'secret', 'generic', 'mine', '-n', 'elsewhere']);
    expect(await kubectl(admin, ['get', 'leases', '-n', 'elsewhere', '-o', 'name'])).toContain(
      'lease.coordination.k8s.io/b',
    );
  });
});
