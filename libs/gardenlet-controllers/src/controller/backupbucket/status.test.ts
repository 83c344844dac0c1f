import { describe, expect, it } from 'vitest';
import type { CoreBackupBucket, ExtensionBackupBucket } from './kinds.js';
import {
  bucketOperationType,
  errorStatus,
  observeExtension,
  operationStartStatus,
  succeededStatus,
  type ExtensionObservationInput,
} from './status.js';

const now = new Date('2026-11-29T12:00:05.400Z');
const core = (metadata: Record<string, unknown> = {}, status?: CoreBackupBucket['status']): CoreBackupBucket =>
  ({
    metadata: { name: 'b', generation: 3, ...metadata },
    spec: { provider: { type: 'local', region: 'local' } },
    ...(status ? { status } : {}),
  }) as CoreBackupBucket;
type LastOperation = NonNullable<NonNullable<CoreBackupBucket['status']>['lastOperation']>;
const last = (type: LastOperation['type'], state: LastOperation['state']): LastOperation => ({
  type,
  state,
  progress: 0,
  description: '',
  lastUpdateTime: '2026-11-29T11:00:00Z',
});

describe('the operation of a core BackupBucket', () => {
  it("follows Gardener's ComputeOperationType", () => {
    expect(bucketOperationType(core())).toBe('Create');
    expect(bucketOperationType(core({}, { lastOperation: last('Create', 'Error') }))).toBe('Create');
    expect(bucketOperationType(core({}, { lastOperation: last('Create', 'Succeeded') }))).toBe('Reconcile');
    expect(bucketOperationType(core({}, { lastOperation: last('Reconcile', 'Error') }))).toBe('Reconcile');
    expect(bucketOperationType(core({ deletionTimestamp: '2026-11-29T11:00:00Z' }))).toBe('Delete');
    expect(bucketOperationType(core({ annotations: { 'gardener.cloud/operation': 'migrate' } }))).toBe('Migrate');
    expect(bucketOperationType(core({ annotations: { 'gardener.cloud/operation': 'restore' } }))).toBe('Restore');
    expect(bucketOperationType(core({}, { lastOperation: last('Restore', 'Processing') }))).toBe('Restore');
  });

  it('writes start, success and error as Gardener does', () => {
    expect(operationStartStatus(core(), 'Create', now)).toEqual({
      lastOperation: {
        type: 'Create',
        state: 'Processing',
        progress: 0,
        description: 'Reconciliation of BackupBucket state initialized.',
        lastUpdateTime: '2026-11-29T12:00:05Z',
      },
      observedGeneration: 3,
    });
    expect(operationStartStatus(core(), 'Delete', now).lastOperation).toMatchObject({
      description: 'Deletion of BackupBucket state initialized.',
    });
    expect(succeededStatus(core(), 'Reconcile', 'Backup Bucket has been successfully reconciled.', now)).toEqual({
      lastError: null,
      lastOperation: {
        type: 'Reconcile',
        state: 'Succeeded',
        progress: 100,
        description: 'Backup Bucket has been successfully reconciled.',
        lastUpdateTime: '2026-11-29T12:00:05Z',
      },
      observedGeneration: 3,
    });
    expect(
      errorStatus('Create', 'it broke', { description: 'it broke', codes: ['ERR_INFRA_UNAUTHORIZED'] }, now),
    ).toEqual({
      lastOperation: {
        type: 'Create',
        state: 'Error',
        progress: 50,
        description: 'it broke',
        lastUpdateTime: '2026-11-29T12:00:05Z',
      },
      lastError: {
        description: 'it broke',
        codes: ['ERR_INFRA_UNAUTHORIZED'],
        taskID: null,
        lastUpdateTime: '2026-11-29T12:00:05Z',
      },
    });
    // A merge patch clears the codes of an earlier error.
    expect(errorStatus('Create', 'x', { description: 'x' }, now).lastError).toMatchObject({ codes: null });
  });
});

describe('what the extension BackupBucket says', () => {
  const desiredSpec = { type: 'local', region: 'local', secretRef: { name: 'bucket-b', namespace: 'garden' } };
  const secretTimestamp = new Date('2026-11-29T12:00:00Z');
  const extension = (
    status?: ExtensionBackupBucket['status'],
    annotations?: Record<string, string>,
    spec: ExtensionBackupBucket['spec'] = desiredSpec,
  ): ExtensionBackupBucket => ({ metadata: { name: 'b', ...(annotations ? { annotations } : {}) }, spec, status });
  const input = (ext: ExtensionBackupBucket | undefined, more: Partial<ExtensionObservationInput> = {}) => ({
    name: 'b',
    extension: ext,
    desiredSpec,
    secretTimestamp,
    secretDataChanged: false,
    ...more,
  });
  const op = (state: string, lastUpdateTime = '2026-11-29T12:00:01Z') => ({
    type: 'Create',
    state,
    progress: 100,
    description: 'x',
    lastUpdateTime,
  });

  it('asks for a reconcile when it is missing, its spec or the credentials changed, or it acted before them', () => {
    expect(observeExtension(input(undefined))).toEqual({ reconcile: true, succeeded: false });
    const done = extension({ lastOperation: op('Succeeded') });
    expect(observeExtension(input(done))).toEqual({ reconcile: false, succeeded: true });
    expect(observeExtension(input(done, { secretDataChanged: true }))).toMatchObject({ reconcile: true });
    const otherRegion = extension({ lastOperation: op('Succeeded') }, undefined, { ...desiredSpec, region: 'eu' });
    expect(observeExtension(input(otherRegion))).toMatchObject({ reconcile: true, succeeded: false });
    const stale = extension({ lastOperation: op('Succeeded', '2026-11-29T11:59:59Z') });
    expect(observeExtension(input(stale))).toMatchObject({ reconcile: true, succeeded: false });
    // Defaults of the extension (class) are not a change.
    const withClass = extension({ lastOperation: op('Succeeded') }, undefined, { ...desiredSpec, class: 'seed' });
    expect(observeExtension(input(withClass))).toEqual({ reconcile: false, succeeded: true });
  });

  it('reports an extension that has not acted yet, and asks again only without a pending request', () => {
    expect(observeExtension(input(extension(undefined, { 'gardener.cloud/operation': 'reconcile' })))).toEqual({
      reconcile: false,
      succeeded: false,
      error: { description: 'extension BackupBucket b: extension did not record a last operation yet' },
    });
    expect(observeExtension(input(extension(undefined)))).toMatchObject({ reconcile: true });
  });

  it('turns its errors into the core lastError with their codes; Failed is retried', () => {
    const failed = extension({
      lastOperation: op('Error'),
      lastError: { description: 'bucket quota exceeded', codes: ['ERR_INFRA_QUOTA_EXCEEDED'] },
    });
    expect(observeExtension(input(failed))).toEqual({
      reconcile: false,
      succeeded: false,
      error: {
        description: 'extension BackupBucket b: error during reconciliation: bucket quota exceeded',
        codes: ['ERR_INFRA_QUOTA_EXCEEDED'],
      },
    });
    expect(observeExtension(input(extension({ lastOperation: op('Failed') })))).toEqual({
      reconcile: true,
      succeeded: false,
      error: { description: 'extension BackupBucket b: extension state is not Succeeded but Failed' },
    });
    expect(observeExtension(input(extension({ lastOperation: op('Processing') })))).toEqual({
      reconcile: false,
      succeeded: false,
    });
  });
});
