import { createDecipheriv, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encryptionTransformer } from './encryption.js';

const secretKey = (bytes = 32) => randomBytes(bytes).toString('base64');

// As Gardener's gardenlet writes it (libs/gardenlet-controllers component/kube-apiserver.ts encryptionConfiguration).
function gardenerConfig(keys: { name: string; secret: string }[], resources = ['secrets']): string {
  return `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [${resources.join(', ')}]
    providers:
      - aescbc:
          keys:
${keys.map((k) => `            - name: ${k.name}\n              secret: ${k.secret}`).join('\n')}
      - identity: {}
`;
}

const SECRET_KEY = '/registry/core/secrets/kube-system/token';
const CONFIGMAP_KEY = '/registry/core/configmaps/default/cm';

describe('encryptionTransformer', () => {
  it("writes secrets in kube's aescbc format: prefix, IV, AES-CBC with PKCS#7 padding under the first key", () => {
    const secret = secretKey();
    const t = encryptionTransformer(gardenerConfig([{ name: 'key1', secret }]));
    const json = '{"kind":"Secret","data":{"password":"c2VjcmV0"}}';
    const stored = t.toStorage(SECRET_KEY, json);
    const prefix = 'k8s:enc:aescbc:v1:key1:';
    expect(stored.subarray(0, prefix.length).toString()).toBe(prefix);
    expect(stored.includes(Buffer.from('c2VjcmV0'))).toBe(false);
    // Decrypted independently of the transformer, as kube-apiserver would.
    const body = stored.subarray(prefix.length);
    const decipher = createDecipheriv('aes-256-cbc', Buffer.from(secret, 'base64'), body.subarray(0, 16));
    expect(Buffer.concat([decipher.update(body.subarray(16)), decipher.final()]).toString()).toBe(json);
    expect(t.fromStorage(SECRET_KEY, stored)).toBe(json);
  });

  it('leaves resources no rule names as they are', () => {
    const t = encryptionTransformer(gardenerConfig([{ name: 'key1', secret: secretKey() }]));
    expect(t.toStorage(CONFIGMAP_KEY, '{"a":1}').toString()).toBe('{"a":1}');
    expect(t.fromStorage(CONFIGMAP_KEY, Buffer.from('{"a":1}'))).toBe('{"a":1}');
  });

  it('reads what an older key wrote during a rotation, and plaintext through identity', () => {
    const old = { name: 'old', secret: secretKey() };
    const current = { name: 'new', secret: secretKey() };
    const before = encryptionTransformer(gardenerConfig([old]));
    const during = encryptionTransformer(gardenerConfig([current, old]));
    const written = before.toStorage(SECRET_KEY, '{"v":"old"}');
    expect(during.fromStorage(SECRET_KEY, written)).toBe('{"v":"old"}');
    expect(during.toStorage(SECRET_KEY, '{}').subarray(0, 21).toString()).toBe('k8s:enc:aescbc:v1:new');
    expect(during.fromStorage(SECRET_KEY, Buffer.from('{"v":"plain"}'))).toBe('{"v":"plain"}');
  });

  it('refuses a value no provider can read (no identity, or a key that is gone)', () => {
    const config = `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: ["*.*"]
    providers:
      - aesgcm:
          keys: [{ name: k, secret: ${secretKey(16)} }]
`;
    const t = encryptionTransformer(config);
    expect(() => t.fromStorage(CONFIGMAP_KEY, Buffer.from('{}'))).toThrow('no provider');
    const other = encryptionTransformer(gardenerConfig([{ name: 'gone', secret: secretKey() }]));
    expect(() => t.fromStorage(SECRET_KEY, other.toStorage(SECRET_KEY, '{}'))).toThrow('no provider');
  });

  it('binds an aesgcm value to its storage key', () => {
    const t = encryptionTransformer(`apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: ["*."]
    providers: [{ aesgcm: { keys: [{ name: k, secret: ${secretKey()} }] } }]
`);
    const stored = t.toStorage(SECRET_KEY, '{"x":1}');
    expect(t.fromStorage(SECRET_KEY, stored)).toBe('{"x":1}');
    expect(() => t.fromStorage('/registry/core/secrets/kube-system/other', stored)).toThrow();
    // `*.` is the core group only.
    expect(t.toStorage('/registry/apps/deployments/default/d', '{}').toString()).toBe('{}');
  });

  it('names what it cannot honour', () => {
    expect(() => encryptionTransformer('kind: Other')).toThrow('EncryptionConfiguration');
    expect(() =>
      encryptionTransformer(
        'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources: [{ resources: [secrets], providers: [{ secretbox: { keys: [{ name: a, secret: b }] } }] }]',
      ),
    ).toThrow('resources[0].providers[0]: provider secretbox is not supported');
    expect(() => encryptionTransformer(gardenerConfig([{ name: 'short', secret: secretKey(10) }]))).toThrow(
      'resources[0].providers[0].aescbc.keys[0]: aescbc key "short": the secret must be 16, 24 or 32 bytes',
    );
  });

  it('round-trips every value through every AES key size (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(16, 24, 32),
        fc.constantFrom('aescbc', 'aesgcm'),
        fc.string(),
        (bytes, kind, text) => {
          const t = encryptionTransformer(`apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources: [{ resources: [secrets], providers: [{ ${kind}: { keys: [{ name: k, secret: ${secretKey(bytes)} }] } }] }]
`);
          const json = JSON.stringify({ text });
          expect(t.fromStorage(SECRET_KEY, t.toStorage(SECRET_KEY, json))).toBe(json);
        },
      ),
      { numRuns: 200 },
    );
  });
});
