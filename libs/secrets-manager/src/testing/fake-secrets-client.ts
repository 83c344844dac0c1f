// An in-memory stand-in for the API server's Secrets, for unit tests of code using the secrets manager: get, list
// with equality label selectors, create (AlreadyExists on a taken name), merge-patch (immutable data enforced as the
// API server does) and delete, with creation timestamps from a settable clock. Integration tests use the real
// local API server instead.
import {
  applyMergePatch,
  ApiError,
  type Client,
  type KubernetesObject,
  type ObjectKey,
  type Secret,
} from '@gardener-ts/controller-runtime';

type Kind = Parameters<Client['get']>[0];
type ListOpts = NonNullable<Parameters<Client['list']>[1]>;
type PatchArg = Parameters<Client['patch']>[2];

/** The Secrets of a fake cluster. */
export class FakeSecretsClient implements Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'> {
  /** Stored secrets by `namespace/name`. */
  readonly secrets = new Map<string, Secret>();
  /** The clock for creation timestamps. */
  now: () => Date = () => new Date();
  private revision = 0;
  private uid = 0;

  async get<T extends KubernetesObject>(kind: Kind, key: ObjectKey): Promise<T> {
    assertSecret(kind);
    const s = this.secrets.get(`${key.namespace}/${key.name}`);
    if (!s) throw new ApiError(404, 'NotFound', `secrets "${key.name}" not found`);
    return structuredClone(s) as T;
  }

  async list<T extends KubernetesObject>(kind: Kind, opts: ListOpts = {}) {
    assertSecret(kind);
    const selector = parseSelector(opts.labelSelector);
    const items = [...this.secrets.values()].filter(
      (s) =>
        (!opts.namespace || s.metadata?.namespace === opts.namespace) &&
        Object.entries(selector).every(([k, v]) => (s.metadata?.labels ?? {})[k] === v),
    );
    return { metadata: { resourceVersion: String(this.revision) }, items: structuredClone(items) as T[] };
  }

  async create<T extends KubernetesObject>(obj: T): Promise<T> {
    const s = structuredClone(obj) as Secret;
    const key = `${s.metadata?.namespace}/${s.metadata?.name}`;
    if (this.secrets.has(key)) throw new ApiError(409, 'AlreadyExists', `secrets "${s.metadata?.name}" already exists`);
    s.metadata = {
      ...s.metadata,
      uid: `uid-${++this.uid}`,
      resourceVersion: String(++this.revision),
      creationTimestamp: this.now()
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z'),
    };
    this.secrets.set(key, s);
    return structuredClone(s) as T;
  }

  async patch<T extends KubernetesObject>(kind: Kind, key: ObjectKey, patch: PatchArg): Promise<T> {
    assertSecret(kind);
    const k = `${key.namespace}/${key.name}`;
    const current = this.secrets.get(k);
    if (!current) throw new ApiError(404, 'NotFound', `secrets "${key.name}" not found`);
    if (patch.type !== 'merge') throw new Error(`fake secrets client: ${patch.type} patches are not supported`);
    const next = applyMergePatch(current, patch.patch) as Secret;
    if (
      current.immutable &&
      (JSON.stringify(next.data ?? {}) !== JSON.stringify(current.data ?? {}) || next.immutable !== true)
    ) {
      throw new ApiError(
        422,
        'Invalid',
        `Secret "${key.name}" is invalid: data: Forbidden: field is immutable when \`immutable\` is set`,
      );
    }
    next.metadata = { ...next.metadata, resourceVersion: String(++this.revision) };
    this.secrets.set(k, next);
    return structuredClone(next) as T;
  }

  async delete(kind: Kind, key: ObjectKey): Promise<void> {
    assertSecret(kind);
    if (!this.secrets.delete(`${key.namespace}/${key.name}`)) {
      throw new ApiError(404, 'NotFound', `secrets "${key.name}" not found`);
    }
  }
}

function assertSecret(kind: Kind): void {
  if (kind.kind !== 'Secret') throw new Error(`fake secrets client: ${kind.kind} is not supported`);
}

function parseSelector(selector: ListOpts['labelSelector']): Record<string, string> {
  if (!selector) return {};
  if (typeof selector !== 'string') return selector;
  return Object.fromEntries(
    selector
      .split(',')
      .filter(Boolean)
      .map((term) => {
        const [k, v] = term.split('=');
        if (v === undefined) throw new Error(`fake secrets client: only equality selectors are supported: ${term}`);
        return [k, v];
      }),
  );
}
