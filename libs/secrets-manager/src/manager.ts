// Gardener's secrets manager (pkg/utils/secrets/manager): generates secrets from configs, persists them as
// immutable Secrets labelled with the manager identity, reuses them while config, signing CA and rotation time are
// unchanged, keeps the old secret next to the new one for `KeepOld` rotations (with a bundle of both), renews them
// at 80 % of their validity, and deletes what this run did not ask for. The store of one instance covers one run.
import { SecretKind, isAlreadyExists, isNotFound, type Client, type Secret } from '@gardener-ts/controller-runtime';
import { DefaultCertificateKey, generateData, type SecretData } from './configs/generate.js';
import type { SecretConfig } from './configs/types.js';
import {
  DataKeyCertificate,
  DataKeyCertificateCA,
  DataKeyPrivateKey,
  DataKeyPrivateKeyCA,
  DataKeyRSAPrivateKey,
  LabelKeyBundleFor,
  LabelKeyIssuedAtTime,
  LabelKeyLastRotationInitiationTime,
  LabelKeyManagedBy,
  LabelKeyManagerIdentity,
  LabelKeyName,
  LabelKeyValidUntilTime,
  LabelValueSecretsManager,
  NameSuffixBundle,
} from './constants.js';
import { mustAutoRenew, newest, unixTime, validUntilForValidity } from './lifetime.js';
import { dataChecksum, secretMeta, truncateLabelValue } from './naming.js';
import {
  generateKeyPair,
  loadCertificateAuthority,
  parseCertificates,
  type CertificateAuthority,
  type KeyPair,
  type KeySpec,
} from './pki.js';

/** The client calls the manager makes, all on Secrets; the controller-runtime client and informer-backed clients fit. */
export type SecretsClient = Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'>;

/** Which of the secrets of one config `get` returns. */
export type SecretClass = 'current' | 'old' | 'bundle';

/** How a secret is rotated when it must be regenerated (Gardener's `InPlace` / `KeepOld`). */
export type RotationStrategy = 'InPlace' | 'KeepOld';

/** The log calls the manager makes; a pino logger fits. */
export interface SecretsManagerLogger {
  info(obj: object, msg?: string): void;
}

/** Options of a manager instance (Gardener's `manager.New` arguments and `Config`). */
export interface SecretsManagerOptions {
  /** The namespace of the secrets. */
  readonly namespace: string;
  /** The identity of this manager: the `manager-identity` label; one per component and purpose. */
  readonly identity: string;
  /** Consider CA secrets for automatic renewal too (false: CAs only rotate on request, as Gardener's default). */
  readonly caSecretAutoRotation?: boolean;
  /** Last rotation initiation times per config name (e.g. the shoot's CA rotation `lastInitiationTime` for CAs). */
  readonly secretNamesToTimes?: Readonly<Record<string, Date>>;
  /** The clock. */
  readonly now?: () => Date;
  readonly logger?: SecretsManagerLogger;
  /** How key pairs are made; `generateKeyPair` (Node's crypto, in the libuv threadpool) by default. */
  readonly generateKey?: (spec: KeySpec) => Promise<KeyPair>;
}

/** Options of one `generate` call (Gardener's `GenerateOption`s). */
export interface GenerateOptions {
  /** Sign the certificate with the CA generated earlier in this run under this config name (`SignedByCA`). */
  readonly signedByCA?: string;
  /**
   * Which CA signs while a rotation keeps an old one: by default server certificates are signed by the old CA (so
   * clients that only know the old CA keep working) and client certificates by the current one (`UseOldCA`/`UseCurrentCA`).
   */
  readonly signingCAClass?: 'current' | 'old';
  /** Label the secret `persist=true` (kept in the ShootState across control plane migration). */
  readonly persist?: boolean;
  /** `KeepOld` keeps the previous secret (and, for CAs and RSA keys, bundles both) until old secrets are ignored. */
  readonly rotate?: RotationStrategy;
  /** Drop the old secret (e.g. when completing a CA rotation); `cleanup()` deletes it then. */
  readonly ignoreOldSecrets?: boolean;
  /** Drop the old secret once the current one is older than this many milliseconds. */
  readonly ignoreOldSecretsAfter?: number;
  /** Validity in milliseconds for non-certificate secrets (certificates carry their own). */
  readonly validity?: number;
  /** Keep a CA secret's name without the config hash. */
  readonly ignoreConfigChecksumForCASecretName?: boolean;
}

interface SecretInfo {
  secret: Secret;
  dataChecksum: string;
}

/** A key generation started ahead of its `generate` call, with the spec it was started for. */
interface PreparedKey {
  readonly spec: KeySpec;
  readonly keys: Promise<KeyPair>;
}

interface SecretInfos {
  current: SecretInfo;
  old?: SecretInfo;
  bundle?: SecretInfo;
}

/** Manages the secrets of one identity in one namespace. Create it with `SecretsManager.create`. */
export class SecretsManager {
  private readonly store = new Map<string, SecretInfos>();
  private readonly lastRotationInitiationTimes = new Map<string, string>();
  /** Config names (`name` label) of which a secret of this identity existed when the manager was created. */
  private readonly existingNames = new Set<string>();
  private readonly preparedKeys = new Map<string, PreparedKey>();
  private readonly now: () => Date;
  private readonly generateKey: (spec: KeySpec) => Promise<KeyPair>;

  private constructor(
    private readonly client: SecretsClient,
    private readonly options: SecretsManagerOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.generateKey = options.generateKey ?? generateKeyPair;
  }

  /**
   * A manager for one run: reads the existing secrets of this identity to learn their rotation times and marks
   * those at 80 % of their validity (or less than 10 days before expiry) for renewal.
   */
  static async create(client: SecretsClient, options: SecretsManagerOptions): Promise<SecretsManager> {
    const manager = new SecretsManager(client, options);
    await manager.initialize();
    return manager;
  }

  /** The `manager-identity` label value of all secrets of this manager. */
  get identity(): string {
    return this.options.identity;
  }

  /** The namespace of the secrets. */
  get namespace(): string {
    return this.options.namespace;
  }

  private async listOwn(extra: Record<string, string> = {}): Promise<Secret[]> {
    const list = await this.client.list(SecretKind, {
      namespace: this.options.namespace,
      labelSelector: {
        [LabelKeyManagedBy]: LabelValueSecretsManager,
        [LabelKeyManagerIdentity]: this.options.identity,
        ...extra,
      },
    });
    return list.items;
  }

  private async initialize(): Promise<void> {
    let secrets: Secret[];
    try {
      secrets = await this.listOwn();
    } catch (err) {
      throw new Error(`listing the secrets of manager ${this.options.identity} in ${this.options.namespace}`, {
        cause: err,
      });
    }
    const byName = new Map<string, Secret[]>();
    for (const s of secrets) {
      const name = s.metadata?.labels?.[LabelKeyName] ?? '';
      byName.set(name, [...(byName.get(name) ?? []), s]);
    }
    const now = this.now();
    for (const [name, group] of byName) {
      this.existingNames.add(name);
      const latest = newest(group)!;
      const labels = latest.metadata?.labels ?? {};
      this.lastRotationInitiationTimes.set(name, labels[LabelKeyLastRotationInitiationTime] ?? '');
      if (isCASecret(latest) && !this.options.caSecretAutoRotation) continue;
      if (mustAutoRenew(labels, now)) {
        this.options.logger?.info(
          {
            secret: latest.metadata?.name,
            issuedAt: labels[LabelKeyIssuedAtTime],
            validUntil: labels[LabelKeyValidUntilTime],
          },
          'Preparing secret for automatic renewal',
        );
        this.lastRotationInitiationTimes.set(name, unixTime(now));
      }
    }
    for (const [name, time] of Object.entries(this.options.secretNamesToTimes ?? {})) {
      this.lastRotationInitiationTimes.set(name, unixTime(time));
    }
  }

  /**
   * Starts generating the keys of the configs that will need a new one: certificates and RSA keys of which no secret
   * of this identity exists yet (a shoot's first reconcile). Key generation runs in the libuv threadpool, so the keys
   * of certificates are made while their CAs' keys are still being made instead of after them; `generate` takes the
   * prepared key of its config. Configs with an existing secret get none (it is reused or rotated as before). In the
   * order given: the threadpool starts them first come, first served, so pass the CAs first.
   */
  prepareKeys(configs: readonly SecretConfig[]): void {
    for (const config of configs) {
      const spec = keySpecOf(config);
      if (!spec || this.existingNames.has(config.name) || this.preparedKeys.has(config.name)) continue;
      const keys = this.generateKey(spec);
      // A key nobody takes (its secret turned out to exist) must not become an unhandled rejection.
      keys.catch(() => undefined);
      this.preparedKeys.set(config.name, { spec, keys });
    }
  }

  /**
   * Returns the secret for `config`, generating and creating it when no secret for this config (checksum), signing
   * CA and rotation time exists; labels are kept up to date and the secret is immutable. Generate CAs before the
   * certificates they sign.
   */
  async generate(config: SecretConfig, options: GenerateOptions = {}): Promise<Secret> {
    try {
      return await this.generateSecret(config, options, undefined);
    } catch (err) {
      throw new Error(`generating secret "${config.name}" of manager ${this.options.identity}`, { cause: err });
    }
  }

  private async generateSecret(
    config: SecretConfig,
    options: GenerateOptions,
    bundleFor: string | undefined,
  ): Promise<Secret> {
    let signingCA: CertificateAuthority | undefined;
    let signingCAChecksum: string | undefined;
    if (options.signedByCA !== undefined) {
      const ca = this.signingCAFor(config, options.signedByCA, options.signingCAClass);
      signingCA = await loadCertificateAuthority(
        decode(ca.secret, DataKeyCertificateCA).toString(),
        decode(ca.secret, DataKeyPrivateKeyCA).toString(),
      );
      signingCAChecksum = truncateLabelValue(ca.dataChecksum);
    }

    const meta = secretMeta({
      identity: this.options.identity,
      config,
      lastRotationInitiationTime: this.lastRotationInitiationTimes.get(config.name) ?? '',
      signingCAChecksum,
      persist: options.persist,
      bundleFor,
      ignoreConfigChecksumForCASecretName: options.ignoreConfigChecksumForCASecretName,
    });
    const desiredLabels = { ...meta.labels };

    let secret = await this.getSecret(meta.name);
    if (!secret) secret = await this.generateAndCreate(config, meta, signingCA);

    this.maintainLifetimeLabels(config, secret, desiredLabels, options.validity);

    if (bundleFor === undefined) {
      const infos: SecretInfos = { current: info(secret) };
      this.store.set(config.name, infos);
      if (!this.shouldIgnoreOldSecrets(desiredLabels[LabelKeyIssuedAtTime], options)) {
        const old = newest(
          (await this.listOwn({ [LabelKeyName]: config.name })).filter((s) => s.metadata?.name !== meta.name),
        );
        if (old) infos.old = info(old);
      }
      await this.generateBundle(config, infos, options);
    }

    secret = await this.reconcileSecret(secret, desiredLabels);
    if (bundleFor === undefined) this.store.get(config.name)!.current = info(secret);
    return secret;
  }

  private signingCAFor(config: SecretConfig, caName: string, caClass: 'current' | 'old' | undefined): SecretInfo {
    if (config.kind !== 'certificate') {
      throw new Error(`could not sign a ${config.kind} config with CA "${caName}": expected a certificate config`);
    }
    const infos = this.store.get(caName);
    if (!infos) throw new Error(`secrets for name "${caName}" not found in internal store`);
    if (config.certType === 'client') return caClass === 'old' && infos.old ? infos.old : infos.current;
    if (config.certType === 'server' || config.certType === 'both') {
      return infos.old && caClass !== 'current' ? infos.old : infos.current;
    }
    return infos.current;
  }

  private async getSecret(name: string): Promise<Secret | undefined> {
    try {
      return await this.client.get(SecretKind, { namespace: this.options.namespace, name });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  private async generateAndCreate(
    config: SecretConfig,
    meta: { name: string; labels: Record<string, string> },
    signingCA: CertificateAuthority | undefined,
  ): Promise<Secret> {
    // A CA's common name is its secret name, so the subjects of old and new CA differ during a rotation.
    const effective =
      config.kind === 'certificate' && config.certType === 'ca' ? { ...config, commonName: meta.name } : config;
    const spec = keySpecOf(config);
    const keys = (await this.takePreparedKey(config)) ?? (spec ? await this.generateKey(spec) : undefined);
    const data = await generateData(effective, { now: this.now(), signingCA, keys });
    const secret: Secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: meta.name, namespace: this.options.namespace, labels: meta.labels },
      type: data[DataKeyCertificate] && data[DataKeyPrivateKey] ? 'kubernetes.io/tls' : 'Opaque',
      immutable: true,
      data: encode(data),
    };
    let created: Secret;
    try {
      created = await this.client.create(secret);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      created = await this.client.get(SecretKind, { namespace: this.options.namespace, name: meta.name });
    }
    this.options.logger?.info({ configName: config.name, secretName: meta.name }, 'Generated new secret');
    return created;
  }

  // The key prepared for this config, if it was prepared for the key spec the config asks for now; used once.
  private async takePreparedKey(config: SecretConfig): Promise<KeyPair | undefined> {
    const prepared = this.preparedKeys.get(config.name);
    if (!prepared) return undefined;
    this.preparedKeys.delete(config.name);
    const spec = keySpecOf(config);
    return spec && sameKeySpec(spec, prepared.spec) ? prepared.keys : undefined;
  }

  private maintainLifetimeLabels(
    config: SecretConfig,
    secret: Secret,
    desired: Record<string, string>,
    validity: number | undefined,
  ): void {
    const existing = secret.metadata?.labels ?? {};
    const issuedAt = existing[LabelKeyIssuedAtTime] || unixTime(this.now());
    desired[LabelKeyIssuedAtTime] = issuedAt;
    if (validity && validity > 0) desired[LabelKeyValidUntilTime] = validUntilForValidity(issuedAt, validity);
    if (config.kind !== 'certificate') return;
    const key = secret.data?.[DataKeyCertificate] ? DataKeyCertificate : DataKeyCertificateCA;
    const [certificate] = parseCertificates(decode(secret, key).toString());
    if (!certificate) throw new Error(`secret ${secret.metadata?.name} has no certificate in ${key}`);
    desired[LabelKeyIssuedAtTime] = unixTime(certificate.notBefore);
    desired[LabelKeyValidUntilTime] = unixTime(certificate.notAfter);
  }

  private shouldIgnoreOldSecrets(issuedAt: string | undefined, options: GenerateOptions): boolean {
    if (options.rotate !== 'KeepOld' || options.ignoreOldSecrets) return true;
    if (options.ignoreOldSecretsAfter !== undefined && issuedAt) {
      const ageMs = this.now().getTime() - Number(issuedAt) * 1000;
      if (ageMs >= options.ignoreOldSecretsAfter) return true;
    }
    return false;
  }

  // CAs (certificates signed by nobody) get a `<name>-bundle` with `bundle.crt` = current + old CA; RSA keys not used
  // for SSH a `bundle.key` = current + old key (e.g. the service account key, so old tokens still verify).
  private async generateBundle(config: SecretConfig, infos: SecretInfos, options: GenerateOptions): Promise<void> {
    let bundle: SecretConfig | undefined;
    if (config.kind === 'certificate' && options.signedByCA === undefined) {
      const pems = [infos.current, infos.old]
        .filter((i) => i !== undefined)
        .map((i) => decode(i.secret, DataKeyCertificateCA).toString());
      bundle = { kind: 'certificateBundle', name: config.name + NameSuffixBundle, certificatePEMs: pems };
    } else if (config.kind === 'rsa' && !config.usedForSSH) {
      const pems = [infos.current, infos.old]
        .filter((i) => i !== undefined)
        .map((i) => decode(i.secret, DataKeyRSAPrivateKey).toString());
      bundle = { kind: 'privateKeyBundle', name: config.name + NameSuffixBundle, privateKeyPEMs: pems };
    }
    if (!bundle) return;
    infos.bundle = info(await this.generateSecret(bundle, {}, config.name));
  }

  private async reconcileSecret(secret: Secret, desired: Record<string, string>): Promise<Secret> {
    const current = secret.metadata?.labels ?? {};
    const labels: Record<string, string | null> = {};
    for (const [k, v] of Object.entries(desired)) if (current[k] !== v) labels[k] = v;
    for (const k of Object.keys(current)) if (!(k in desired)) labels[k] = null;
    const patch: Record<string, unknown> = {};
    if (Object.keys(labels).length > 0) patch.metadata = { labels };
    if (secret.immutable !== true) patch.immutable = true;
    if (Object.keys(patch).length === 0) return secret;
    return this.client.patch(
      SecretKind,
      { namespace: this.options.namespace, name: secret.metadata!.name! },
      { type: 'merge', patch },
    );
  }

  /**
   * The secret generated for a config name in this run: by default its bundle if it has one, else the current
   * secret; `old` is the previous secret kept by a `KeepOld` rotation (Gardener's `Get` with `Bundle`/`Current`/`Old`).
   */
  get(name: string, options: { class?: SecretClass } = {}): Secret | undefined {
    const infos = this.store.get(name);
    if (!infos) return undefined;
    const cls = options.class ?? (infos.bundle ? 'bundle' : 'current');
    return infos[cls]?.secret;
  }

  /**
   * Deletes the secrets of this identity that this run did not generate, load as old or bundle (stale secrets:
   * replaced configs, completed rotations). Call it after all `generate` calls; not during a migration, where
   * `persist=true` secrets must survive.
   */
  async cleanup(): Promise<void> {
    const stale = (await this.listOwn()).filter((s) => {
      const labels = s.metadata?.labels ?? {};
      const infos = this.store.get(labels[LabelKeyBundleFor] ?? labels[LabelKeyName] ?? '');
      if (!infos) return true;
      const name = s.metadata?.name;
      return ![infos.current, infos.old, infos.bundle].some((i) => i?.secret.metadata?.name === name);
    });
    const results = await Promise.allSettled(
      stale.map(async (s) => {
        this.options.logger?.info({ secret: `${this.options.namespace}/${s.metadata?.name}` }, 'Deleting stale secret');
        try {
          await this.client.delete(SecretKind, { namespace: this.options.namespace, name: s.metadata!.name! });
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      }),
    );
    const errors = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason);
    if (errors.length > 0)
      throw new AggregateError(errors, `deleting stale secrets of manager ${this.options.identity}`);
  }
}

/** The key a config's data is made with (Gardener's defaults: RSA 3072 bits for certificates); none for the others. */
export function keySpecOf(config: SecretConfig): KeySpec | undefined {
  if (config.kind === 'certificate') return config.key ?? DefaultCertificateKey;
  if (config.kind === 'rsa') return { algorithm: 'RSA', bits: config.bits };
  return undefined;
}

function sameKeySpec(a: KeySpec, b: KeySpec): boolean {
  if (a.algorithm === 'RSA' && b.algorithm === 'RSA') return a.bits === b.bits;
  if (a.algorithm === 'ECDSA' && b.algorithm === 'ECDSA') return (a.curve ?? 'P-256') === (b.curve ?? 'P-256');
  return false;
}

function info(secret: Secret): SecretInfo {
  return { secret, dataChecksum: dataChecksum(secret.data) };
}

function isCASecret(secret: Secret): boolean {
  return Boolean(secret.data?.[DataKeyCertificateCA] && secret.data?.[DataKeyPrivateKeyCA]);
}

function encode(data: SecretData): Record<string, string> {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v.toString('base64')]));
}

/** The bytes of one data key of a Secret (`data` is base64 on the wire). */
export function decode(secret: Secret, key: string): Buffer {
  const value = secret.data?.[key];
  if (value === undefined) throw new Error(`secret ${secret.metadata?.name} has no data key ${key}`);
  return Buffer.from(value, 'base64');
}
