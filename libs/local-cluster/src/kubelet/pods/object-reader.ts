// Reads the ConfigMaps, Secrets, PersistentVolumeClaims and PersistentVolumes a Pod refers to, once per sync; missing
// objects read as undefined.
import type * as k8s from '@kubernetes/client-node';
import { isNotFound } from '../api/kube-client.js';

export class ObjectReader {
  private readonly cache = new Map<string, Promise<unknown>>();

  constructor(
    private readonly core: Pick<
      k8s.CoreV1Api,
      | 'readNamespacedConfigMap'
      | 'readNamespacedSecret'
      | 'readNamespacedPersistentVolumeClaim'
      | 'readPersistentVolume'
    >,
    readonly namespaceName: string,
  ) {}

  configMap(name: string): Promise<k8s.V1ConfigMap | undefined> {
    return this.cached(`configmap/${name}`, () =>
      this.core.readNamespacedConfigMap({ name, namespace: this.namespaceName }),
    );
  }

  secret(name: string): Promise<k8s.V1Secret | undefined> {
    return this.cached(`secret/${name}`, () => this.core.readNamespacedSecret({ name, namespace: this.namespaceName }));
  }

  persistentVolumeClaim(name: string): Promise<k8s.V1PersistentVolumeClaim | undefined> {
    return this.cached(`persistentvolumeclaim/${name}`, () =>
      this.core.readNamespacedPersistentVolumeClaim({ name, namespace: this.namespaceName }),
    );
  }

  persistentVolume(name: string): Promise<k8s.V1PersistentVolume | undefined> {
    return this.cached(`persistentvolume/${name}`, () => this.core.readPersistentVolume({ name }));
  }

  private cached<T>(key: string, read: () => Promise<T>): Promise<T | undefined> {
    if (!this.cache.has(key))
      this.cache.set(
        key,
        read().catch((err) => (isNotFound(err) ? undefined : Promise.reject(err))),
      );
    return this.cache.get(key) as Promise<T | undefined>;
  }
}

/** The keys of a ConfigMap (`data` and `binaryData`) or a Secret (`data` base64, `stringData`) as bytes. */
export function configMapBytes(cm: k8s.V1ConfigMap): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const [k, v] of Object.entries(cm.data ?? {})) out.set(k, Buffer.from(v, 'utf8'));
  for (const [k, v] of Object.entries(cm.binaryData ?? {})) out.set(k, Buffer.from(v, 'base64'));
  return out;
}

export function secretBytes(secret: k8s.V1Secret): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const [k, v] of Object.entries(secret.data ?? {})) out.set(k, Buffer.from(v, 'base64'));
  for (const [k, v] of Object.entries(secret.stringData ?? {})) out.set(k, Buffer.from(v, 'utf8'));
  return out;
}

/** The bytes of one key; undefined when the object or key is missing and the reference is optional. */
export async function keyRef(
  kind: 'ConfigMap' | 'Secret',
  reader: ObjectReader,
  ref: { name?: string; key: string; optional?: boolean },
): Promise<Buffer | undefined> {
  const object = kind === 'ConfigMap' ? await reader.configMap(ref.name ?? '') : await reader.secret(ref.name ?? '');
  const value =
    object && (kind === 'ConfigMap' ? configMapBytes(object) : secretBytes(object as k8s.V1Secret)).get(ref.key);
  if (value !== undefined || ref.optional) return value;
  if (!object) throw new Error(`${kind.toLowerCase()} "${ref.name}" not found`);
  throw new Error(`couldn't find key ${ref.key} in ${kind} ${reader.namespaceName}/${ref.name}`);
}
