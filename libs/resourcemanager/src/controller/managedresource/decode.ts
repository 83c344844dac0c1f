// Reads the objects of a ManagedResource from its Secrets: every data key (sorted), YAML or JSON, several documents
// per key; keys ending in `.br` are brotli-compressed. Undecodable documents become errors, not exceptions.
import { createHash } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import { parseAllDocuments } from 'yaml';

type Obj = Record<string, any>;

export interface SecretLike {
  metadata?: { namespace?: string; name?: string; uid?: string; resourceVersion?: string };
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
  return parseAllDocuments(text).map((doc) =>
    doc.errors.length > 0 ? { error: doc.errors[0].message } : { value: doc.toJS() },
  );
}

function validate(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `expected an object, got ${Array.isArray(value) ? 'a list' : typeof value}`;
  const o = value as Obj;
  if (typeof o.apiVersion !== 'string' || !o.apiVersion) return "Object 'apiVersion' is missing";
  if (typeof o.kind !== 'string' || !o.kind) return "Object 'Kind' is missing";
  if (o.metadata !== undefined && (typeof o.metadata !== 'object' || o.metadata === null || Array.isArray(o.metadata)))
    return "'metadata' must be an object";
  if (typeof o.metadata?.name !== 'string' || !o.metadata.name) return "Object 'metadata.name' is missing";
  return undefined;
}

type Documents = { value?: unknown; error?: string }[];

/**
 * Parsed documents per Secret key, keyed by the Secret's uid and resourceVersion: a Secret that did not change is not
 * parsed again on the next reconcile (YAML parsing is most of a resync's CPU time for large ManagedResources).
 * Holds at most `maxEntries` keys; the oldest entry is dropped first.
 */
export class DecodeCache {
  private readonly entries = new Map<string, Documents>();
  constructor(private readonly maxEntries = 512) {}

  /** The cache key of one data key of a Secret; undefined when the Secret has no uid/resourceVersion. */
  static keyOf(secret: SecretLike, key: string): string | undefined {
    const { uid, resourceVersion, namespace, name } = secret.metadata ?? {};
    return uid && resourceVersion ? `${namespace}/${name}/${uid}/${resourceVersion}/${key}` : undefined;
  }

  get(key: string): Documents | undefined {
    return this.entries.get(key);
  }

  set(key: string, docs: Documents): void {
    this.entries.delete(key);
    this.entries.set(key, docs);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The documents of one data key: from the cache (as copies, callers mutate them) or parsed. */
function cachedDocuments(
  secret: SecretLike,
  key: string,
  parse: () => Documents | undefined,
  cache?: DecodeCache,
): Documents | undefined {
  const cacheKey = cache && DecodeCache.keyOf(secret, key);
  const hit = cacheKey ? cache!.get(cacheKey) : undefined;
  const docs = hit ?? parse();
  if (!docs) return undefined;
  if (cacheKey && !hit) cache!.set(cacheKey, docs);
  return cacheKey ? docs.map((d) => (d.value === undefined ? d : { value: structuredClone(d.value) })) : docs;
}

export function decodeSecrets(secrets: readonly SecretLike[], cache?: DecodeCache): DecodeResult {
  const hash = createHash('sha256');
  const objects: DecodedObject[] = [];
  const errors: string[] = [];
  for (const secret of secrets) {
    const secretName = `${secret.metadata?.namespace}/${secret.metadata?.name}`;
    for (const key of Object.keys(secret.data ?? {}).sort()) {
      const raw = Buffer.from(secret.data![key], 'base64');
      hash.update(raw);
      const docs = cachedDocuments(
        secret,
        key,
        () => {
          let bytes = raw;
          if (key.endsWith(BROTLI_SUFFIX)) {
            try {
              bytes = brotliDecompressSync(bytes);
            } catch (err) {
              errors.push(decodingError(secret, key, 0, `brotli: ${(err as Error).message}`));
              return undefined;
            }
          }
          return documents(bytes.toString('utf8'));
        },
        cache,
      );
      if (!docs) continue;
      docs.forEach((doc, index) => {
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
