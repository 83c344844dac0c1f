import { describe, expect, it } from 'vitest';
import type { BackupBucket, BackupEntry, ExtensionBackupEntry } from './kinds.js';
import {
  bucketNotReady,
  errorStatus,
  extensionVerdict,
  migrationVerdict,
  operationStartStatus,
  operationType,
  pendingDeletionStatus,
  succeededStatus,
} from './status.js';

const now = new Date('2026-11-29T12:00:00.500Z');
const entry = (patch: { metadata?: BackupEntry['metadata']; status?: BackupEntry['status'] } = {}): BackupEntry => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'BackupEntry',
  metadata: { name: 'shoot--p--s--uid', namespace: 'garden-p', generation: 3, ...patch.metadata },
  spec: { bucketName: 'bucket', seedName: 'local' },
  ...(patch.status ? { status: patch.status } : {}),
});
const op = (type: string, state: string) =>
  ({ type, state, progress: 0, description: '', lastUpdateTime: '2026-11-29T11:00:00Z' }) as never;

describe('operationType', () => {
  it("follows Gardener's ComputeOperationType", () => {
    expect(operationType(entry())).toBe('Create');
    expect(operationType(entry({ status: { lastOperation: op('Create', 'Error') } }))).toBe('Create');
    expect(operationType(entry({ status: { lastOperation: op('Create', 'Succeeded') } }))).toBe('Reconcile');
    expect(operationType(entry({ status: { lastOperation: op('Restore', 'Processing') } }))).toBe('Restore');
    expect(operationType(entry({ metadata: { deletionTimestamp: '2026-11-29T11:00:00Z' } }))).toBe('Delete');
    expect(operationType(entry({ metadata: { annotations: { 'gardener.cloud/operation': 'restore' } } }))).toBe(
      'Restore',
    );
  });
});

describe('status updates', () => {
  it('start Processing with the observed generation and the seed the entry runs on', () => {
    expect(operationStartStatus(entry(), 'Create', now)).toEqual({
      lastOperation: {
        type: 'Create',
        state: 'Processing',
        progress: 0,
        description: 'Reconciliation of BackupEntry state initialized.',
        lastUpdateTime: '2026-11-29T12:00:00Z',
      },
      observedGeneration: 3,
      seedName: 'local',
    });
    expect(operationStartStatus(entry({ status: { seedName: 'local' } }), 'Delete', now)).not.toHaveProperty(
      'seedName',
    );
  });

  it('report errors at 50 % with lastError and its codes, success with lastError cleared', () => {
    expect(errorStatus('Reconcile', { description: 'boom', codes: ['ERR_INFRA_UNAUTHORIZED'] }, now)).toEqual({
      lastOperation: {
        type: 'Reconcile',
        state: 'Error',
        progress: 50,
        description: 'boom',
        lastUpdateTime: '2026-11-29T12:00:00Z',
      },
      lastError: { description: 'boom', codes: ['ERR_INFRA_UNAUTHORIZED'], lastUpdateTime: '2026-11-29T12:00:00Z' },
    });
    expect(succeededStatus('Delete', now)).toEqual({
      lastOperation: {
        type: 'Delete',
        state: 'Succeeded',
        progress: 100,
        description: 'Deletion of BackupEntry succeeded.',
        lastUpdateTime: '2026-11-29T12:00:00Z',
      },
      lastError: null,
    });
  });

  it('say when a deletion is scheduled', () => {
    const deleted = entry({ metadata: { deletionTimestamp: '2026-11-29T11:00:00Z' } });
    expect(pendingDeletionStatus(deleted, new Date('2026-11-30T11:00:00Z'), now)).toMatchObject({
      observedGeneration: 3,
      lastOperation: {
        type: 'Delete',
        state: 'Pending',
        description: 'Deletion of backup entry is scheduled for 2026-11-30T11:00:00.000Z',
      },
    });
  });
});

describe('bucketNotReady', () => {
  const bucket = (status: BackupBucket['status'], generation = 1): BackupBucket => ({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'BackupBucket',
    metadata: { name: 'bucket', generation },
    spec: { provider: { type: 'local', region: 'local' } },
    ...(status ? { status } : {}),
  });

  it('names the bucket in every reason and keeps the codes of its lastError', () => {
    expect(bucketNotReady('bucket', undefined)).toEqual({
      description: 'associated BackupBucket "bucket" does not exist',
    });
    expect(bucketNotReady('bucket', bucket(undefined))?.description).toBe(
      'associated BackupBucket "bucket": observed generation outdated (0/1)',
    );
    expect(bucketNotReady('bucket', bucket({ observedGeneration: 1 }))?.description).toBe(
      'associated BackupBucket "bucket" did not record a last operation yet',
    );
    expect(
      bucketNotReady('bucket', bucket({ observedGeneration: 1, lastOperation: op('Create', 'Processing') })),
    ).toEqual({
      description: 'associated BackupBucket "bucket": state is not Succeeded but Processing',
    });
    expect(
      bucketNotReady(
        'bucket',
        bucket({ observedGeneration: 1, lastError: { description: 'denied', codes: ['ERR_INFRA_UNAUTHORIZED'] } }),
      ),
    ).toEqual({
      description: 'associated BackupBucket "bucket": error during reconciliation: denied',
      codes: ['ERR_INFRA_UNAUTHORIZED'],
    });
    expect(
      bucketNotReady('bucket', bucket({ observedGeneration: 1, lastOperation: op('Create', 'Succeeded') })),
    ).toBeUndefined();
  });
});

describe('extensionVerdict', () => {
  const spec = {
    type: 'local',
    region: 'local',
    bucketName: 'bucket',
    secretRef: { name: 'entry-x', namespace: 'garden' },
  };
  const extension = (status?: ExtensionBackupEntry['status'], annotations?: Record<string, string>) =>
    ({
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'BackupEntry',
      metadata: { name: 'x', ...(annotations ? { annotations } : {}) },
      spec: { ...spec, secretRef: { namespace: 'garden', name: 'entry-x' } },
      ...(status ? { status } : {}),
    }) as ExtensionBackupEntry;
  const secretAt = new Date('2026-11-29T11:00:00.700Z');

  it('deploys a missing, changed or never requested extension entry', () => {
    expect(extensionVerdict(undefined, spec, secretAt)).toEqual({ deploy: true });
    expect(extensionVerdict(extension(), { ...spec, region: 'other' }, secretAt)).toEqual({ deploy: true });
    expect(extensionVerdict(extension(), spec, secretAt)).toEqual({
      deploy: true,
      error: { description: 'extension did not record a last operation yet' },
    });
    expect(extensionVerdict(extension(undefined, { 'gardener.cloud/operation': 'reconcile' }), spec, secretAt)).toEqual(
      {
        deploy: false,
        succeeded: false,
        error: { description: 'extension did not record a last operation yet' },
      },
    );
  });

  it('deploys again when the extension last reconciled before its secret changed (to the second)', () => {
    const at = (lastUpdateTime: string) =>
      extension({ lastOperation: { ...(op('Reconcile', 'Succeeded') as object), lastUpdateTime } as never });
    expect(extensionVerdict(at('2026-11-29T10:59:59Z'), spec, secretAt)).toEqual({ deploy: true });
    expect(extensionVerdict(at('2026-11-29T11:00:00Z'), spec, secretAt)).toEqual({ deploy: false, succeeded: true });
  });

  it("mirrors the extension's lastError with its codes and retries a Failed operation", () => {
    const failed = extension({
      lastOperation: op('Reconcile', 'Failed'),
      lastError: { description: 'no bucket', codes: ['ERR_CONFIGURATION_PROBLEM'] },
    });
    expect(extensionVerdict(failed, spec, undefined)).toEqual({
      deploy: true,
      error: { description: 'error during reconciliation: no bucket', codes: ['ERR_CONFIGURATION_PROBLEM'] },
    });
    expect(extensionVerdict(extension({ lastOperation: op('Reconcile', 'Error') }), spec, undefined)).toEqual({
      deploy: false,
      succeeded: false,
      error: { description: 'extension state is not Succeeded but Error' },
    });
    expect(extensionVerdict(extension({ lastOperation: op('Reconcile', 'Processing') }), spec, undefined)).toEqual({
      deploy: false,
      succeeded: false,
    });
  });
});

describe('migrationVerdict', () => {
  const ext = (status?: ExtensionBackupEntry['status']): ExtensionBackupEntry =>
    ({
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'BackupEntry',
      metadata: { name: 'e' },
      spec: {},
      status,
    }) as never;

  it("follows Gardener's migrateBackupEntry, waiting for a Migrate in progress", () => {
    expect(migrationVerdict(undefined)).toEqual({ action: 'done' });
    expect(migrationVerdict(ext())).toMatchObject({
      action: 'error',
      error: { description: 'extension object did not record a lastOperation yet' },
      retry: true,
    });
    expect(migrationVerdict(ext({ lastOperation: op('Reconcile', 'Succeeded') }))).toEqual({ action: 'request' });
    expect(migrationVerdict(ext({ lastOperation: op('Restore', 'Error') }))).toEqual({ action: 'request' });
    expect(migrationVerdict(ext({ lastOperation: op('Migrate', 'Processing') }))).toEqual({ action: 'wait' });
    expect(migrationVerdict(ext({ lastOperation: op('Migrate', 'Succeeded') }))).toEqual({ action: 'delete' });
    expect(migrationVerdict(ext({ lastOperation: op('Migrate', 'Error') }))).toEqual({
      action: 'error',
      type: 'Migrate',
      error: { description: 'extension state is not Succeeded but Error' },
      retry: false,
    });
    expect(migrationVerdict(ext({ lastOperation: op('Migrate', 'Failed') }))).toMatchObject({ retry: true });
    expect(migrationVerdict(ext({ lastOperation: op('Delete', 'Processing') }))).toEqual({ action: 'deleting' });
    expect(
      migrationVerdict(
        ext({
          lastOperation: op('Delete', 'Error'),
          lastError: { description: 'gone wrong', codes: ['ERR_X'] } as never,
        }),
      ),
    ).toEqual({
      action: 'error',
      type: 'Delete',
      error: { description: 'gone wrong', codes: ['ERR_X'] },
      retry: true,
    });
  });

  it('clears status.seedName when a migration succeeded', () => {
    expect(succeededStatus('Migrate', now)).toMatchObject({ seedName: null });
    expect(succeededStatus('Restore', now)).not.toHaveProperty('seedName');
  });
});
