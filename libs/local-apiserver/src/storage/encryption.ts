// Encryption at rest as kube-apiserver's --encryption-provider-config configures it (apiserver.config.k8s.io/v1
// EncryptionConfiguration): per resource a list of providers, the first one writes, every one may read. `aescbc`
// (AES-CBC with PKCS#7 padding, a random 16-byte IV) and `aesgcm` (AES-GCM, a random 12-byte nonce, the storage key as
// additional data) write kube's format `k8s:enc:<provider>:v1:<key name>:<iv|nonce><ciphertext>[tag]`, so a value
// stays readable by the same configuration across restarts and, for aescbc, by kube itself; `identity` stores
// plaintext and reads values without the prefix. secretbox and kms providers are refused at load time.
import { createCipheriv, createDecipheriv, randomBytes, type CipherGCMTypes } from 'node:crypto';
import { parse } from 'yaml';

/** Turns stored values into bytes and back, per storage key. */
export interface ValueTransformer {
  /** The bytes to store for `value` (an object's JSON) at `key`. */
  toStorage(key: string, value: string): Buffer;
  /** The JSON of the bytes stored at `key`; throws when no provider of the key's resource can read them. */
  fromStorage(key: string, stored: Buffer): string;
}

interface Provider {
  /** The prefix this provider's values start with ('' for identity). */
  readonly name: string;
  encrypt(key: string, plain: Buffer): Buffer;
  /** The plaintext, or undefined when the value is not this provider's. */
  decrypt(key: string, stored: Buffer): Buffer | undefined;
}

interface ResourceRule {
  /** `secrets`, `deployments.apps`, `*.` (every core resource), `*.apps`, `*.*` (every resource). */
  readonly patterns: string[];
  readonly providers: Provider[];
}

const identity: Provider = {
  name: 'identity',
  encrypt: (_key, plain) => plain,
  decrypt: (_key, stored) => (stored.subarray(0, 8).toString('latin1') === 'k8s:enc:' ? undefined : stored),
};

function aesKey(provider: string, name: string, secret: string): Buffer {
  const key = Buffer.from(secret ?? '', 'base64');
  if (![16, 24, 32].includes(key.length))
    throw new Error(`${provider} key ${JSON.stringify(name)}: the secret must be 16, 24 or 32 bytes, base64 encoded`);
  return key;
}

function aescbc(name: string, secret: string): Provider {
  const key = aesKey('aescbc', name, secret);
  const prefix = Buffer.from(`k8s:enc:aescbc:v1:${name}:`);
  const algorithm = `aes-${key.length * 8}-cbc`;
  return {
    name: `aescbc:${name}`,
    encrypt(_storageKey, plain) {
      const iv = randomBytes(16);
      const cipher = createCipheriv(algorithm, key, iv);
      return Buffer.concat([prefix, iv, cipher.update(plain), cipher.final()]);
    },
    decrypt(_storageKey, stored) {
      if (!stored.subarray(0, prefix.length).equals(prefix)) return undefined;
      const body = stored.subarray(prefix.length);
      const decipher = createDecipheriv(algorithm, key, body.subarray(0, 16));
      return Buffer.concat([decipher.update(body.subarray(16)), decipher.final()]);
    },
  };
}

function aesgcm(name: string, secret: string): Provider {
  const key = aesKey('aesgcm', name, secret);
  const prefix = Buffer.from(`k8s:enc:aesgcm:v1:${name}:`);
  const algorithm = `aes-${key.length * 8}-gcm` as CipherGCMTypes;
  return {
    name: `aesgcm:${name}`,
    encrypt(storageKey, plain) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv(algorithm, key, nonce);
      cipher.setAAD(Buffer.from(storageKey));
      const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([prefix, nonce, sealed, cipher.getAuthTag()]);
    },
    decrypt(storageKey, stored) {
      if (!stored.subarray(0, prefix.length).equals(prefix)) return undefined;
      const body = stored.subarray(prefix.length);
      const decipher = createDecipheriv(algorithm, key, body.subarray(0, 12));
      decipher.setAAD(Buffer.from(storageKey));
      decipher.setAuthTag(body.subarray(body.length - 16));
      return Buffer.concat([decipher.update(body.subarray(12, body.length - 16)), decipher.final()]);
    },
  };
}

type RawKeys = { keys?: { name?: string; secret?: string }[] };

function providersOf(raw: Record<string, RawKeys | undefined>[], path: string): Provider[] {
  return raw.flatMap((entry, i): Provider[] => {
    const kinds = Object.keys(entry ?? {});
    if (kinds.length !== 1) throw new Error(`${path}.providers[${i}]: exactly one provider kind, got ${kinds.length}`);
    const [kind] = kinds;
    if (kind === 'identity') return [identity];
    const make = kind === 'aescbc' ? aescbc : kind === 'aesgcm' ? aesgcm : undefined;
    if (!make)
      throw new Error(`${path}.providers[${i}]: provider ${kind} is not supported (aescbc, aesgcm and identity are)`);
    const keys = entry[kind]?.keys ?? [];
    if (keys.length === 0) throw new Error(`${path}.providers[${i}].${kind}.keys: at least one key`);
    return keys.map((k, j) => {
      if (!k.name) throw new Error(`${path}.providers[${i}].${kind}.keys[${j}].name: required`);
      try {
        return make(k.name, k.secret ?? '');
      } catch (err) {
        throw new Error(`${path}.providers[${i}].${kind}.keys[${j}]: ${(err as Error).message}`, { cause: err });
      }
    });
  });
}

/** The group and resource of a storage key `/registry/<group|core>/<resource>/...`. */
function groupResource(key: string): { group: string; resource: string } {
  const [, , group = '', resource = ''] = key.split('/');
  return { group: group === 'core' ? '' : group, resource };
}

function matches(pattern: string, group: string, resource: string): boolean {
  const dot = pattern.indexOf('.');
  const [res, grp] = dot < 0 ? [pattern, ''] : [pattern.slice(0, dot), pattern.slice(dot + 1)];
  return (res === '*' || res === resource) && (grp === '*' || grp === group);
}

/**
 * The transformer of an EncryptionConfiguration (YAML or JSON text). Resources no rule names are stored as they are.
 * Throws naming the field for anything it cannot honour.
 */
export function encryptionTransformer(text: string): ValueTransformer {
  let doc: any;
  try {
    doc = parse(text);
  } catch (err) {
    throw new Error(`not valid YAML: ${(err as Error).message}`, { cause: err });
  }
  if (doc?.kind !== 'EncryptionConfiguration' || !/^apiserver\.config\.k8s\.io\/v1$/.test(doc?.apiVersion ?? ''))
    throw new Error('expected kind EncryptionConfiguration of apiVersion apiserver.config.k8s.io/v1');
  const rules: ResourceRule[] = (doc.resources ?? []).map((r: any, i: number) => {
    const path = `resources[${i}]`;
    if (!Array.isArray(r?.resources) || r.resources.length === 0) throw new Error(`${path}.resources: required`);
    if (!Array.isArray(r?.providers) || r.providers.length === 0) throw new Error(`${path}.providers: required`);
    return { patterns: r.resources.map(String), providers: providersOf(r.providers, path) };
  });
  const cache = new Map<string, Provider[]>();
  const providersFor = (key: string): Provider[] | undefined => {
    const { group, resource } = groupResource(key);
    const id = `${group}/${resource}`;
    if (!cache.has(id)) {
      // The first rule that names the resource counts, as in kube.
      const rule = rules.find((r) => r.patterns.some((p) => matches(p, group, resource)));
      cache.set(id, rule?.providers ?? []);
    }
    const providers = cache.get(id)!;
    return providers.length ? providers : undefined;
  };
  return {
    toStorage(key, value) {
      const plain = Buffer.from(value);
      const providers = providersFor(key);
      return providers ? providers[0].encrypt(key, plain) : plain;
    },
    fromStorage(key, stored) {
      const providers = providersFor(key);
      if (!providers) return stored.toString();
      for (const provider of providers) {
        const plain = provider.decrypt(key, stored);
        if (plain) return plain.toString();
      }
      throw new Error(`${key}: no provider of the encryption configuration can read the stored value`);
    },
  };
}
