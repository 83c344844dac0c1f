// How the secrets manager names and labels a secret (Gardener's `ObjectMeta` / `computeSecretName`): the config
// name, a short hash of the config checksum (and of the signing CA's checksum) and, once rotated, a short hash of
// the last rotation initiation time. A changed config, signing CA or rotation therefore yields a new secret.
import { createHash } from 'node:crypto';
import {
  LabelKeyBundleFor,
  LabelKeyChecksumConfig,
  LabelKeyChecksumSigningCA,
  LabelKeyLastRotationInitiationTime,
  LabelKeyManagedBy,
  LabelKeyManagerIdentity,
  LabelKeyName,
  LabelKeyPersist,
  LabelValueSecretsManager,
  LabelValueTrue,
} from './constants.js';
import type { SecretConfig } from './configs/types.js';

/**
 * The checksum of a configuration, a decimal unsigned 64-bit number as Gardener's label carries (Gardener hashes
 * the Go struct with hashstructure; here: SHA-256 of the canonical JSON). Zero values (absent, empty, false, 0)
 * are ignored like hashstructure's `IgnoreZeroValue`, so a new optional field does not rename existing secrets.
 */
export function configChecksum(config: SecretConfig): string {
  const digest = createHash('sha256')
    .update(JSON.stringify(canonical(config)))
    .digest();
  return digest.readBigUInt64BE(0).toString(10);
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (isZero(v)) continue;
      out[key] = canonical(v);
    }
    return out;
  }
  return value;
}

function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v as object).length === 0;
  return false;
}

/** The checksum of secret data (Gardener's `ComputeSecretChecksum`: SHA-256 of the JSON of the base64 data map). */
export function dataChecksum(data: Record<string, string | Buffer> | undefined): string {
  const sorted: Record<string, string> = {};
  for (const key of Object.keys(data ?? {}).sort()) {
    const v = data![key];
    sorted[key] = typeof v === 'string' ? v : v.toString('base64');
  }
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}

function sha256Hex(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

/** What names and labels a secret besides its config. */
export interface SecretMetaInput {
  readonly identity: string;
  readonly config: SecretConfig;
  /** Unix seconds as a string, or '' before the first rotation. */
  readonly lastRotationInitiationTime: string;
  /** Checksum of the signing CA's data, for signed certificates. */
  readonly signingCAChecksum?: string;
  readonly persist?: boolean;
  /** For bundle secrets: the name of the secret the bundle belongs to. */
  readonly bundleFor?: string;
  /** Keep a CA's plain name (no config hash) for components that expect a static CA secret name. */
  readonly ignoreConfigChecksumForCASecretName?: boolean;
}

/** The name and labels of the secret for a config (Gardener's `ObjectMeta`). */
export function secretMeta(input: SecretMetaInput): { name: string; labels: Record<string, string> } {
  const labels: Record<string, string> = {
    [LabelKeyName]: input.config.name,
    [LabelKeyManagedBy]: LabelValueSecretsManager,
    [LabelKeyManagerIdentity]: input.identity,
    [LabelKeyChecksumConfig]: configChecksum(input.config),
    [LabelKeyLastRotationInitiationTime]: input.lastRotationInitiationTime,
  };
  if (input.signingCAChecksum !== undefined) labels[LabelKeyChecksumSigningCA] = input.signingCAChecksum;
  if (input.persist) labels[LabelKeyPersist] = LabelValueTrue;
  if (input.bundleFor !== undefined) labels[LabelKeyBundleFor] = input.bundleFor;
  return { name: secretName(input.config, labels, Boolean(input.ignoreConfigChecksumForCASecretName)), labels };
}

/** `<name>[-<8 hex of config+CA checksum>][-<5 hex of rotation time>]` (Gardener's `computeSecretName`). */
export function secretName(
  config: SecretConfig,
  labels: Record<string, string>,
  ignoreConfigChecksumForCA: boolean,
): string {
  let name = config.name;
  const isCA = config.kind === 'certificate' && config.certType === 'ca';
  if (!isCA || !ignoreConfigChecksumForCA) {
    const infix = (labels[LabelKeyChecksumConfig] ?? '') + (labels[LabelKeyChecksumSigningCA] ?? '');
    if (infix.length > 0) name += `-${sha256Hex(infix).slice(0, 8)}`;
  }
  const suffix = labels[LabelKeyLastRotationInitiationTime] ?? '';
  if (suffix.length > 0) name += `-${sha256Hex(suffix).slice(0, 5)}`;
  return name;
}

/** A label value cut to Kubernetes' 63 characters (Gardener's `TruncateLabelValue`). */
export function truncateLabelValue(value: string): string {
  return value.slice(0, 63);
}
