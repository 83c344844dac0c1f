// Reads the objects of a ManagedResource from its Secrets: every data key (sorted), YAML or JSON, several documents
// per key; keys ending in `.br` are brotli-compressed. Undecodable documents become errors, not exceptions.
import { createHash } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import { parseAllDocuments } from 'yaml';

type Obj = Record<string, any>;

export interface SecretLike {
  metadata?: { namespace?: string; name?: string };
  data?: Record<string, string>;
}

export interface DecodedObject {
  obj: Obj;
  secret: string;
  key: string;
  index: number;
}

export interface DecodeResult {
  objects: DecodedObject[];
  /** One message per document that could not be decoded. */
  errors: string[];
  /** sha256 over the data of every key, in order: changes whenever the content changes. */
  checksum: string;
}

export const BROTLI_SUFFIX = '.br';

function decodingError(secret: SecretLike, key: string, index: number, message: string): string {
  return `could not decode resource at index ${index} in '${key}' in secret '${secret.metadata?.namespace}/${secret.metadata?.name}': ${message}`;
}

function documents(text: string): { value?: unknown; error?: string }[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return [{ value: JSON.parse(trimmed) }];
    } catch {
      // Not one JSON value: read it as YAML (which also reads JSON documents separated by ---).
    }
  }
  return parseAllDocuments(text).map((doc) => (doc.errors.length > 0 ? { error: doc.errors[0].message } : { value: doc.toJS() }));
}

function validate(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `expected an object, got ${Array.isArray(value) ? 'a list' : typeof value}`;
  const o = value as Obj;
  if (typeof o.apiVersion !== 'string' || !o.apiVersion) return "Object 'apiVersion' is missing";
  if (typeof o.kind !== 'string' || !o.kind) return "Object 'Kind' is missing";
  if (o.metadata !== undefined && (typeof o.metadata !== 'object' || o.metadata === null || Array.isArray(o.metadata))) return "'metadata' must be an object";
  if (typeof o.metadata?.name !== 'string' || !o.metadata.name) return "Object 'metadata.name' is missing";
  return undefined;
}

export function decodeSecrets(secrets: readonly SecretLike[]): DecodeResult {
  const hash = createHash('sha256');
  const objects: DecodedObject[] = [];
  const errors: string[] = [];
  for (const secret of secrets) {
    const secretName = `${secret.metadata?.namespace}/${secret.metadata?.name}`;
    for (const key of Object.keys(secret.data ?? {}).sort()) {
      let bytes = Buffer.from(secret.data![key], 'base64');
      hash.update(bytes);
      if (key.endsWith(BROTLI_SUFFIX)) {
        try {
          bytes = brotliDecompressSync(bytes);
        } catch (err) {
          errors.push(decodingError(secret, key, 0, `brotli: ${(err as Error).message}`));
          continue;
        }
      }
      documents(bytes.toString('utf8')).forEach((doc, index) => {
        if (doc.error) return void errors.push(decodingError(secret, key, index, doc.error));
        if (doc.value === null || doc.value === undefined) return;
        const invalid = validate(doc.value);
        if (invalid) return void errors.push(decodingError(secret, key, index, invalid));
        objects.push({ obj: doc.value as Obj, secret: secretName, key, index });
      });
    }
  }
  return { objects, errors, checksum: hash.digest('hex') };
}
