// The secrets manager against an in-memory API server: generation, reuse across runs, config changes, CA rotation
// through its phases, automatic renewal and cleanup. Keys are ECDSA where the algorithm does not matter (fast).
import { X509Certificate } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Secret } from '@gardener-ts/controller-runtime';
import {
  caRotationOptions,
  generateAllSecrets,
  secretNamesToTimesForCARotation,
  type SecretConfigWithOptions,
} from './ca-rotation.js';
import type { CertificateSecretConfig, SecretConfig } from './configs/types.js';
import { decode, SecretsManager, type SecretsManagerOptions } from './manager.js';
import { generateKeyPair, parseCertificates, verifyCertificate, type KeyPair, type KeySpec } from './pki.js';
import { FakeSecretsClient } from './testing/fake-secrets-client.js';

const NS = 'shoot--foo--bar';
const DAY = 86400_000;
const ecdsa = { algorithm: 'ECDSA' } as const;

const caConfig: CertificateSecretConfig = {
  kind: 'certificate',
  name: 'ca',
  commonName: 'kubernetes',
  certType: 'ca',
  key: ecdsa,
};
const serverConfig: CertificateSecretConfig = {
  kind: 'certificate',
  name: 'kube-apiserver',
  commonName: 'kube-apiserver',
  dnsNames: ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'api.bar.foo.local.gardener.cloud'],
  ipAddresses: ['10.4.0.1'],
  certType: 'server',
  key: ecdsa,
};
const clientConfig: CertificateSecretConfig = {
  kind: 'certificate',
  name: 'kube-controller-manager',
  commonName: 'system:kube-controller-manager',
  certType: 'client',
  key: ecdsa,
};

class World {
  readonly client = new FakeSecretsClient();
  time = new Date('2026-02-01T08:00:00Z');
  constructor() {
    this.client.now = () => this.time;
  }
  advance(ms: number) {
    this.time = new Date(this.time.getTime() + ms);
  }
  manager(options: Partial<SecretsManagerOptions> = {}) {
    return SecretsManager.create(this.client, {
      namespace: NS,
      identity: 'gardenlet',
      now: () => this.time,
      ...options,
    });
  }
  names(): string[] {
    return [...this.client.secrets.values()].map((s) => s.metadata!.name!).sort();
  }
}

const pem = (secret: Secret | undefined, key: string) => decode(secret!, key).toString();

describe('SecretsManager', () => {
  it('generates a CA and certificates signed by it, persisted as labelled immutable Secrets', async () => {
    const world = new World();
    const sm = await world.manager();
    const ca = await sm.generate(caConfig, { persist: true });
    const server = await sm.generate(serverConfig, { signedByCA: 'ca' });
    const client = await sm.generate(clientConfig, { signedByCA: 'ca' });

    expect(ca.metadata!.name).toMatch(/^ca-[0-9a-f]{8}$/);
    expect(ca.immutable).toBe(true);
    expect(ca.type).toBe('Opaque');
    expect(server.type).toBe('kubernetes.io/tls');
    expect(Object.keys(server.data!).sort()).toEqual(['ca.crt', 'tls.crt', 'tls.key']);
    const caCert = new X509Certificate(pem(ca, 'ca.crt'));
    expect(caCert.subject).toBe(`CN=${ca.metadata!.name}`); // a CA is named after its secret
    expect(ca.metadata!.labels).toMatchObject({
      name: 'ca',
      'managed-by': 'secrets-manager',
      'manager-identity': 'gardenlet',
      persist: 'true',
      'last-rotation-initiation-time': '',
      'issued-at-time': String(Math.floor(new Date(caCert.validFrom).getTime() / 1000)),
      'valid-until-time': String(Math.floor(new Date(caCert.validTo).getTime() / 1000)),
    });
    expect(server.metadata!.labels!['checksum-of-signing-ca']).toMatch(/^[0-9a-f]{63}$/);

    // get: the bundle by default for a CA, the current secret on request and for certificates.
    const bundle = sm.get('ca')!;
    expect(bundle.metadata!.name).toMatch(/^ca-bundle-[0-9a-f]{8}$/);
    expect(bundle.metadata!.labels).toMatchObject({ name: 'ca-bundle', 'bundle-for': 'ca' });
    expect(sm.get('ca', { class: 'current' })!.metadata!.name).toBe(ca.metadata!.name);
    expect(sm.get('ca', { class: 'old' })).toBeUndefined();
    expect(sm.get('kube-apiserver')!.metadata!.name).toBe(server.metadata!.name);
    expect(sm.get('unknown')).toBeUndefined();

    for (const leaf of [server, client]) {
      expect(await verifyCertificate(pem(leaf, 'tls.crt'), pem(bundle, 'bundle.crt'), world.time)).toBe(true);
    }
    expect(world.names()).toHaveLength(4);
    // The stored objects are what generate returned.
    expect(world.client.secrets.get(`${NS}/${server.metadata!.name}`)!.metadata!.labels).toEqual(
      server.metadata!.labels,
    );
  });

  it('reuses every secret in the next run while nothing changed, and then cleans up nothing', async () => {
    const world = new World();
    const first = await world.manager();
    const configs: SecretConfigWithOptions[] = [
      { config: caConfig },
      { config: serverConfig, options: { signedByCA: 'ca' } },
      { config: { kind: 'basicAuth', name: 'observability-ingress', username: 'admin', passwordLength: 32 } },
      { config: { kind: 'etcdEncryptionKey', name: 'kube-apiserver-etcd-encryption-key', secretLength: 32 } },
      {
        config: {
          kind: 'staticToken',
          name: 'kube-apiserver-static-token',
          tokens: [{ username: 'health-check', userID: 'health-check' }],
        },
      },
    ];
    const a = await generateAllSecrets(first, configs);
    await first.cleanup();
    const before = structuredClone([...world.client.secrets.values()]);
    world.advance(3_600_000);
    const second = await world.manager();
    const b = await generateAllSecrets(second, configs);
    await second.cleanup();
    expect(Object.fromEntries(Object.entries(b).map(([k, s]) => [k, s.metadata!.name]))).toEqual(
      Object.fromEntries(Object.entries(a).map(([k, s]) => [k, s.metadata!.name])),
    );
    expect([...world.client.secrets.values()]).toEqual(before);
  });

  it('creates a new secret when the config changes and cleanup deletes the replaced one', async () => {
    const world = new World();
    const first = await world.manager();
    await first.generate(caConfig);
    const old = await first.generate(serverConfig, { signedByCA: 'ca' });
    const second = await world.manager();
    await second.generate(caConfig);
    const changed = await second.generate(
      { ...serverConfig, dnsNames: [...serverConfig.dnsNames!, 'api.example.com'] },
      { signedByCA: 'ca' },
    );
    expect(changed.metadata!.name).not.toBe(old.metadata!.name);
    expect(new X509Certificate(pem(changed, 'tls.crt')).subjectAltName).toContain('DNS:api.example.com');
    expect(world.names()).toContain(old.metadata!.name);
    await second.cleanup();
    expect(world.names()).not.toContain(old.metadata!.name);
    expect(world.names()).toContain(changed.metadata!.name);
  });

  it('rotates a CA in phases: bundle of old and new while preparing, only the new one after completing', async () => {
    const world = new World();
    const configs: SecretConfigWithOptions[] = [
      { config: caConfig },
      { config: serverConfig, options: { signedByCA: 'ca' } },
      { config: clientConfig, options: { signedByCA: 'ca' } },
    ];
    const run = async (phase?: 'Preparing' | 'Prepared' | 'Completing' | 'Completed', initiated?: Date) => {
      const sm = await world.manager({ secretNamesToTimes: secretNamesToTimesForCARotation(configs, initiated) });
      const secrets = await generateAllSecrets(sm, configs, phase);
      await sm.cleanup();
      world.advance(60_000);
      return { sm, secrets };
    };

    const initial = await run();
    const oldCA = initial.secrets.ca;
    const oldServer = initial.secrets['kube-apiserver'];
    const oldClient = initial.secrets['kube-controller-manager'];

    // Preparing: a new CA under a new name; the old CA is kept; the bundle trusts both.
    const initiated = world.time;
    const preparing = await run('Preparing', initiated);
    const newCA = preparing.secrets.ca;
    expect(newCA.metadata!.name).not.toBe(oldCA.metadata!.name);
    expect(newCA.metadata!.name).toMatch(new RegExp(`^${oldCA.metadata!.name}-[0-9a-f]{5}$`));
    expect(newCA.metadata!.labels!['last-rotation-initiation-time']).toBe(String(initiated.getTime() / 1000));
    expect(preparing.sm.get('ca', { class: 'old' })!.metadata!.name).toBe(oldCA.metadata!.name);
    const bundle = pem(preparing.sm.get('ca'), 'bundle.crt');
    expect(parseCertificates(bundle).map((c) => c.subject)).toEqual([
      `CN=${newCA.metadata!.name}`,
      `CN=${oldCA.metadata!.name}`,
    ]);
    // Certificates signed by the old CA still verify against the bundle; the server certificate stays signed by
    // the old CA (clients may only trust the old one yet), the client certificate is re-issued by the new CA.
    expect(preparing.secrets['kube-apiserver'].metadata!.name).toBe(oldServer.metadata!.name);
    expect(await verifyCertificate(pem(oldServer, 'tls.crt'), bundle, world.time)).toBe(true);
    const newClient = preparing.secrets['kube-controller-manager'];
    expect(newClient.metadata!.name).not.toBe(oldClient.metadata!.name);
    expect(await verifyCertificate(pem(newClient, 'tls.crt'), pem(newCA, 'ca.crt'), world.time)).toBe(true);
    expect(await verifyCertificate(pem(newClient, 'tls.crt'), pem(oldCA, 'ca.crt'), world.time)).toBe(false);
    expect(world.names()).toContain(oldCA.metadata!.name);
    expect(world.names()).not.toContain(oldClient.metadata!.name);

    // Prepared: the same secrets again.
    const prepared = await run('Prepared', initiated);
    expect(prepared.secrets.ca.metadata!.name).toBe(newCA.metadata!.name);
    expect(pem(prepared.sm.get('ca'), 'bundle.crt')).toBe(bundle);

    // Completing: the old CA is dropped; the bundle holds only the new CA; the server certificate is re-issued by
    // the new CA; cleanup deletes the old CA and what it signed.
    const completing = await run('Completing', initiated);
    const finalBundle = pem(completing.sm.get('ca'), 'bundle.crt');
    expect(parseCertificates(finalBundle).map((c) => c.subject)).toEqual([`CN=${newCA.metadata!.name}`]);
    const newServer = completing.secrets['kube-apiserver'];
    expect(newServer.metadata!.name).not.toBe(oldServer.metadata!.name);
    expect(await verifyCertificate(pem(newServer, 'tls.crt'), finalBundle, world.time)).toBe(true);
    expect(await verifyCertificate(pem(oldServer, 'tls.crt'), finalBundle, world.time)).toBe(false);
    expect(world.names()).not.toContain(oldCA.metadata!.name);
    expect(world.names()).not.toContain(oldServer.metadata!.name);

    // Completed: stable.
    const before = world.names();
    const completed = await run('Completed', initiated);
    expect(completed.secrets.ca.metadata!.name).toBe(newCA.metadata!.name);
    expect(world.names()).toEqual(before);
    expect(before).toHaveLength(4); // CA, CA bundle, server, client
  });

  it('signs a server certificate with the current CA during a rotation when asked (UseCurrentCA)', async () => {
    const world = new World();
    const first = await world.manager();
    await first.generate(caConfig, caRotationOptions(undefined));
    const second = await world.manager({ secretNamesToTimes: { ca: world.time } });
    const ca = await second.generate(caConfig, caRotationOptions('Preparing'));
    const server = await second.generate(serverConfig, { signedByCA: 'ca', signingCAClass: 'current' });
    expect(await verifyCertificate(pem(server, 'tls.crt'), pem(ca, 'ca.crt'), world.time)).toBe(true);
    const client = await second.generate(clientConfig, { signedByCA: 'ca', signingCAClass: 'old' });
    const old = second.get('ca', { class: 'old' });
    expect(await verifyCertificate(pem(client, 'tls.crt'), pem(old, 'ca.crt'), world.time)).toBe(true);
  });

  it('renews a certificate at 80 % of its validity, but a CA only with CA auto-rotation', async () => {
    const world = new World();
    const short = { ...serverConfig, validity: 100 * DAY };
    const shortCA = { ...caConfig, validity: 100 * DAY };
    const first = await world.manager();
    const ca = await first.generate(shortCA);
    const server = await first.generate(short, { signedByCA: 'ca' });

    world.advance(79 * DAY);
    const notYet = await world.manager();
    await notYet.generate(shortCA);
    expect((await notYet.generate(short, { signedByCA: 'ca' })).metadata!.name).toBe(server.metadata!.name);

    world.advance(2 * DAY);
    const due = await world.manager();
    expect((await due.generate(shortCA)).metadata!.name).toBe(ca.metadata!.name);
    const renewed = await due.generate(short, { signedByCA: 'ca' });
    expect(renewed.metadata!.name).not.toBe(server.metadata!.name);
    expect(renewed.metadata!.labels!['last-rotation-initiation-time']).toBe(
      String(Math.floor(world.time.getTime() / 1000)),
    );
    expect(new Date(new X509Certificate(pem(renewed, 'tls.crt')).validFrom).getTime()).toBeGreaterThan(
      world.time.getTime() - 120_000,
    );
    await due.cleanup();
    expect(world.names()).not.toContain(server.metadata!.name);

    const caRotating = await world.manager({ caSecretAutoRotation: true });
    expect((await caRotating.generate(shortCA)).metadata!.name).not.toBe(ca.metadata!.name);
  });

  it('renews a non-certificate secret generated with a validity', async () => {
    const world = new World();
    const config: SecretConfig = {
      kind: 'basicAuth',
      name: 'observability-ingress-users',
      username: 'admin',
      passwordLength: 32,
    };
    const first = await (await world.manager()).generate(config, { validity: 10 * DAY });
    const issued = Math.floor(world.time.getTime() / 1000);
    expect(first.metadata!.labels).toMatchObject({
      'issued-at-time': String(issued),
      'valid-until-time': String(issued + 10 * 86400),
    });
    world.advance(Math.ceil(0.81 * 10 * DAY));
    const second = await (await world.manager()).generate(config, { validity: 10 * DAY });
    expect(second.metadata!.name).not.toBe(first.metadata!.name);
    expect(pem(second, 'password')).not.toBe(pem(first, 'password'));
  });

  it('keeps the old RSA service account key in a bundle.key while rotating, but never bundles an SSH key', async () => {
    const world = new World();
    const sa: SecretConfig = { kind: 'rsa', name: 'service-account-key', bits: 1024 };
    const ssh: SecretConfig = { kind: 'rsa', name: 'ssh-keypair', bits: 1024, usedForSSH: true };
    const first = await world.manager();
    const oldKey = await first.generate(sa, { rotate: 'KeepOld' });
    await first.generate(ssh, { rotate: 'KeepOld' });
    const second = await world.manager({
      secretNamesToTimes: { 'service-account-key': world.time, 'ssh-keypair': world.time },
    });
    const newKey = await second.generate(sa, { rotate: 'KeepOld' });
    const newSSH = await second.generate(ssh, { rotate: 'KeepOld' });
    expect(pem(second.get('service-account-key'), 'bundle.key')).toBe(pem(newKey, 'id_rsa') + pem(oldKey, 'id_rsa'));
    expect(second.get('ssh-keypair')!.metadata!.name).toBe(newSSH.metadata!.name);
    expect(second.get('ssh-keypair', { class: 'old' })).toBeDefined();
    expect(pem(newSSH, 'id_rsa.pub')).toMatch(/^ssh-rsa /);
  });

  it('drops the old secret once the current one is older than ignoreOldSecretsAfter', async () => {
    const world = new World();
    const config: SecretConfig = { kind: 'rsa', name: 'service-account-key', bits: 1024 };
    await (await world.manager()).generate(config, { rotate: 'KeepOld' });
    const rotated = await world.manager({ secretNamesToTimes: { 'service-account-key': world.time } });
    await rotated.generate(config, { rotate: 'KeepOld', ignoreOldSecretsAfter: DAY });
    expect(rotated.get('service-account-key', { class: 'old' })).toBeDefined();
    world.advance(DAY + 1000);
    const later = await world.manager();
    await later.generate(config, { rotate: 'KeepOld', ignoreOldSecretsAfter: DAY });
    expect(later.get('service-account-key', { class: 'old' })).toBeUndefined();
    await later.cleanup();
    expect(world.names().filter((n) => n.startsWith('service-account-key-') && !n.includes('bundle'))).toHaveLength(1);
  });

  it('brings the labels of an existing secret back to the desired ones and makes it immutable', async () => {
    const world = new World();
    const sm = await world.manager();
    const secret = await sm.generate(caConfig, { persist: true });
    const key = `${NS}/${secret.metadata!.name}`;
    const stored = world.client.secrets.get(key)!;
    stored.immutable = false;
    stored.metadata!.labels = { ...stored.metadata!.labels, stray: 'x' };
    delete stored.metadata!.labels['issued-at-time'];
    const again = await (await world.manager()).generate(caConfig);
    expect(again.metadata!.name).toBe(secret.metadata!.name);
    expect(again.immutable).toBe(true);
    expect(again.metadata!.labels).not.toHaveProperty('stray');
    expect(again.metadata!.labels).not.toHaveProperty('persist'); // no longer asked for
    expect(again.metadata!.labels!['issued-at-time']).toBe(secret.metadata!.labels!['issued-at-time']);
  });

  it('cleans up only secrets of its own identity', async () => {
    const world = new World();
    const other = await world.manager({ identity: 'provider-local-controlplane' });
    const foreign = await other.generate({ kind: 'basicAuth', name: 'x', username: 'u', passwordLength: 8 });
    const mine = await world.manager();
    await mine.generate({ kind: 'basicAuth', name: 'y', username: 'u', passwordLength: 8 });
    const stale = await mine.generate({ kind: 'basicAuth', name: 'z', username: 'u', passwordLength: 8 });
    const next = await world.manager();
    await next.generate({ kind: 'basicAuth', name: 'y', username: 'u', passwordLength: 8 });
    await next.cleanup();
    expect(world.names()).toContain(foreign.metadata!.name);
    expect(world.names()).not.toContain(stale.metadata!.name);
  });

  it('names the problem when the signing CA is unknown or the config is no certificate', async () => {
    const sm = await new World().manager();
    await expect(sm.generate(serverConfig, { signedByCA: 'ca' })).rejects.toMatchObject({
      message: 'generating secret "kube-apiserver" of manager gardenlet',
      cause: new Error('secrets for name "ca" not found in internal store'),
    });
    await sm.generate(caConfig);
    await expect(sm.generate({ kind: 'rsa', name: 'k', bits: 1024 }, { signedByCA: 'ca' })).rejects.toMatchObject({
      cause: new Error('could not sign a rsa config with CA "ca": expected a certificate config'),
    });
  });

  it('generates leaves that all verify against the CA bundle and are reused as long as their config is unchanged', async () => {
    const leaf = fc.record({
      commonName: fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
      dnsNames: fc.array(fc.domain(), { maxLength: 3 }),
      certType: fc.constantFrom('server' as const, 'client' as const, 'both' as const),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(leaf, { minLength: 1, maxLength: 3 }), async (leaves) => {
        const world = new World();
        const configs: SecretConfigWithOptions[] = [
          { config: caConfig },
          ...leaves.map((l, i) => ({
            config: { kind: 'certificate' as const, name: `leaf-${i}`, key: ecdsa, ...l },
            options: { signedByCA: 'ca' },
          })),
        ];
        const sm = await world.manager();
        const secrets = await generateAllSecrets(sm, configs);
        const bundle = pem(sm.get('ca'), 'bundle.crt');
        for (let i = 0; i < leaves.length; i++) {
          expect(await verifyCertificate(pem(secrets[`leaf-${i}`], 'tls.crt'), bundle, world.time)).toBe(true);
        }
        const again = await generateAllSecrets(await world.manager(), configs);
        for (const [name, s] of Object.entries(again)) {
          expect(s.metadata!.name).toBe(secrets[name].metadata!.name);
          expect(s.data).toEqual(secrets[name].data);
        }
        const changed = await (
          await world.manager()
        )
          .generate(
            { ...(configs[1].config as CertificateSecretConfig), commonName: `${leaves[0].commonName}-changed` },
            { signedByCA: 'ca' },
          )
          .catch((e: unknown) => e);
        // The CA is not in the new manager's store yet: generate it first, as a run does.
        expect((changed as Error).message).toContain('generating secret "leaf-0"');
        const run = await world.manager();
        await run.generate(caConfig);
        const renamed = await run.generate(
          { ...(configs[1].config as CertificateSecretConfig), commonName: `${leaves[0].commonName}-changed` },
          { signedByCA: 'ca' },
        );
        expect(renamed.metadata!.name).not.toBe(secrets['leaf-0'].metadata!.name);
      }),
      { numRuns: 8 },
    );
  });
  it('starts the keys of the certificates of a first run before the CAs are done, and none for existing secrets', async () => {
    // Key generation that finishes only when the test says so: what was started while the CAs' keys are still pending.
    const started: { spec: KeySpec; release: () => void }[] = [];
    const generateKey = (spec: KeySpec) =>
      new Promise<KeyPair>((resolve, reject) =>
        started.push({ spec, release: () => generateKeyPair(spec).then(resolve, reject) }),
      );
    const etcdCA: CertificateSecretConfig = { ...caConfig, name: 'ca-etcd', commonName: 'etcd' };
    const configs: SecretConfigWithOptions[] = [
      { config: caConfig },
      { config: etcdCA },
      { config: serverConfig, options: { signedByCA: 'ca' } },
      { config: clientConfig, options: { signedByCA: 'ca' } },
      {
        config: { ...clientConfig, name: 'etcd-client', commonName: 'etcd-client' },
        options: { signedByCA: 'ca-etcd' },
      },
      { config: { kind: 'rsa', name: 'service-account-key', bits: 1024 } },
      { config: { kind: 'staticToken', name: 'static-token', tokens: [{ username: 'u', userID: 'u' }] } },
    ];
    const world = new World();
    const run = generateAllSecrets(await world.manager({ generateKey }), configs);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // All six keys are being made (the CAs' first), though no CA exists yet.
    expect(started.map((s) => s.spec)).toEqual([ecdsa, ecdsa, ecdsa, ecdsa, ecdsa, { algorithm: 'RSA', bits: 1024 }]);
    expect(world.names()).toEqual([]);
    for (const s of started) s.release();
    const secrets = await run;
    // Each prepared key went into one secret, and the certificates are signed by their CAs.
    expect(started).toHaveLength(6);
    const keys = [
      ...['ca', 'ca-etcd'].map((n) => pem(secrets[n], 'ca.key')),
      ...['kube-apiserver', 'kube-controller-manager', 'etcd-client'].map((n) => pem(secrets[n], 'tls.key')),
      pem(secrets['service-account-key'], 'id_rsa'),
    ];
    expect(new Set(keys).size).toBe(6);
    expect(await verifyCertificate(pem(secrets['etcd-client'], 'tls.crt'), pem(secrets['ca-etcd'], 'ca.crt'))).toBe(
      true,
    );
    expect(await verifyCertificate(pem(secrets['kube-apiserver'], 'tls.crt'), pem(secrets.ca, 'ca.crt'))).toBe(true);

    // The next run reuses every secret: no key is made, ahead or otherwise.
    started.length = 0;
    const again = await generateAllSecrets(await world.manager({ generateKey }), configs);
    expect(started).toEqual([]);
    expect(again['kube-apiserver'].metadata!.name).toBe(secrets['kube-apiserver'].metadata!.name);

    // A new config in a later run: only its key is made.
    const more = [...configs, { config: { ...clientConfig, name: 'new-client' }, options: { signedByCA: 'ca' } }];
    const later = generateAllSecrets(await world.manager({ generateKey }), more);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started.map((s) => s.spec)).toEqual([ecdsa]);
    started[0]!.release();
    expect(await verifyCertificate(pem((await later)['new-client'], 'tls.crt'), pem(secrets.ca, 'ca.crt'))).toBe(true);
  });

  it('makes a new key when the prepared one was prepared for another key spec', async () => {
    const specs: KeySpec[] = [];
    const generateKey = (spec: KeySpec) => (specs.push(spec), generateKeyPair(spec));
    const sm = await new World().manager({ generateKey });
    sm.prepareKeys([caConfig]);
    const secret = await sm.generate({ ...caConfig, key: { algorithm: 'ECDSA', curve: 'P-384' } });
    expect(specs).toEqual([ecdsa, { algorithm: 'ECDSA', curve: 'P-384' }]);
    expect(new X509Certificate(pem(secret, 'ca.crt')).publicKey.asymmetricKeyDetails?.namedCurve).toBe('secp384r1');
  });
});
