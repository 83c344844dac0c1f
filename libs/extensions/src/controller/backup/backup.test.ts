// The generic BackupEntry actuator against an in-memory seed: which `etcd-backup` Secret it deploys (and for a
// `source-` entry), and that deletion removes it only when the deleted entry created it.
import { describe, expect, it } from 'vitest';
import { createLogger } from '@gardener-ts/logging';
import { ApiError, type Client, type KubernetesObject, type Patch } from '@gardener-ts/controller-runtime';
import type { ActuatorContext } from '../generic/actuator.js';
import type { ExtensionObject } from '../generic/kinds.js';
import { CreatedByBackupEntryAnnotation, GenericBackupEntryActuator, etcdBackupSecretRef } from './backup.js';

const NS = 'shoot--dev--demo';
const UID = '0c8a2f4e-1d2b-4c3d-9e8f-0a1b2c3d4e5f';
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** get, server-side apply (as a replace) and delete over a map keyed `Kind/namespace/name`. */
class FakeSeed {
  readonly objects = new Map<string, KubernetesObject>();

  constructor(...objects: KubernetesObject[]) {
    for (const o of objects) this.objects.set(this.key(o.kind!, o.metadata?.namespace, o.metadata!.name!), o);
  }

  key(kind: string, namespace: string | undefined, name: string): string {
    return `${kind}/${namespace ?? ''}/${name}`;
  }

  async get(kind: { kind: string }, key: { namespace?: string; name: string }): Promise<any> {
    const obj = this.objects.get(this.key(kind.kind, key.namespace, key.name));
    if (!obj) throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
    return structuredClone(obj);
  }

  async patch(kind: { kind: string }, key: { namespace?: string; name: string }, patch: Patch): Promise<any> {
    if (patch.type !== 'apply') throw new Error('expected a server-side apply');
    const obj = structuredClone(patch.patch) as KubernetesObject;
    this.objects.set(this.key(kind.kind, key.namespace, key.name), obj);
    return obj;
  }

  async delete(kind: { kind: string }, key: { namespace?: string; name: string }): Promise<void> {
    if (!this.objects.delete(this.key(kind.kind, key.namespace, key.name)))
      throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
  }

  secret(name: string): KubernetesObject & { data?: Record<string, string> } {
    return this.objects.get(this.key('Secret', NS, name)) as KubernetesObject & { data?: Record<string, string> };
  }
}

function setup() {
  const seed = new FakeSeed({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'entry-secret', namespace: 'garden' },
    data: { credentials: b64('token') },
  } as KubernetesObject);
  const deleted: string[] = [];
  const actuator = new GenericBackupEntryActuator({
    etcdSecretData: async (_ctx, _entry, data) => ({ ...data, hostPath: b64('/backups') }),
    delete: async (_ctx, entry) => void deleted.push(entry.metadata?.name ?? ''),
  });
  const ctx: ActuatorContext = {
    client: seed as unknown as Client,
    log: createLogger({ name: 'test', level: 'silent' }),
    signal: new AbortController().signal,
  };
  return { seed, actuator, ctx, deleted };
}

const entry = (name: string): ExtensionObject => ({
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'BackupEntry',
  metadata: { name },
  spec: { type: 'local', bucketName: 'bucket-1', secretRef: { name: 'entry-secret', namespace: 'garden' } },
});

describe('etcdBackupSecretRef', () => {
  it('names etcd-backup in the shoot namespace, source-etcd-backup for a source entry, nothing for other names', () => {
    expect(etcdBackupSecretRef(`${NS}--${UID}`)).toEqual({ name: 'etcd-backup', namespace: NS });
    expect(etcdBackupSecretRef(`source-${NS}--${UID}`)).toEqual({ name: 'source-etcd-backup', namespace: NS });
    expect(etcdBackupSecretRef('no-technical-id')).toBeUndefined();
  });
});

describe('GenericBackupEntryActuator', () => {
  it("deploys the entry Secret's data, the bucket name and the provider's data, annotated with the entry", async () => {
    const { seed, actuator, ctx } = setup();
    await actuator.reconcile(ctx, entry(`${NS}--${UID}`));
    expect(seed.secret('etcd-backup')).toMatchObject({
      metadata: { annotations: { [CreatedByBackupEntryAnnotation]: `${NS}--${UID}` } },
      data: { credentials: b64('token'), bucketName: b64('bucket-1'), hostPath: b64('/backups') },
    });
  });

  it('deploys source-etcd-backup for the source entry of a migration, next to etcd-backup', async () => {
    const { seed, actuator, ctx } = setup();
    await actuator.reconcile(ctx, entry(`${NS}--${UID}`));
    await actuator.reconcile(ctx, entry(`source-${NS}--${UID}`));
    expect(seed.secret('etcd-backup')?.metadata?.annotations).toEqual({
      [CreatedByBackupEntryAnnotation]: `${NS}--${UID}`,
    });
    expect(seed.secret('source-etcd-backup')?.metadata?.annotations).toEqual({
      [CreatedByBackupEntryAnnotation]: `source-${NS}--${UID}`,
    });
  });

  it('deletes its etcd-backup Secret and then calls the delegate', async () => {
    const { seed, actuator, ctx, deleted } = setup();
    await actuator.reconcile(ctx, entry(`${NS}--${UID}`));
    await actuator.delete(ctx, entry(`${NS}--${UID}`));
    expect(seed.secret('etcd-backup')).toBeUndefined();
    expect(deleted).toEqual([`${NS}--${UID}`]);
    await actuator.delete(ctx, entry(`${NS}--${UID}`));
    expect(deleted).toHaveLength(2);
  });

  it('keeps an etcd-backup Secret another BackupEntry created (the shoot got a new entry meanwhile)', async () => {
    const { seed, actuator, ctx, deleted } = setup();
    await actuator.reconcile(ctx, entry(`${NS}--new-uid`));
    await actuator.delete(ctx, entry(`${NS}--${UID}`));
    expect(seed.secret('etcd-backup')).toBeDefined();
    expect(deleted).toEqual([`${NS}--${UID}`]);
  });
});
