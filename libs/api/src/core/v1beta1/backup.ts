// BackupBucket and BackupEntry: object store buckets per seed and the etcd backups of one Shoot inside them.
import { Type, type Static } from '@sinclair/typebox';
import { type KindInfo, ageColumn, defineKind, kindSchema } from '../../schema/kind.js';
import { ObjectReference, SecretReference } from '../../schema/meta.js';
import { Int64, Opt, RawExtension, Str, Time } from '../../schema/primitives.js';
import { GroupVersion, LastError, LastOperation } from './common.js';

const bucketInfo: KindInfo = {
  ...GroupVersion,
  kind: 'BackupBucket',
  plural: 'backupbuckets',
  singular: 'backupbucket',
  namespaced: false,
  statusSubresource: true,
  printerColumns: [
    { name: 'Provider', type: 'string', jsonPath: '.spec.provider.type' },
    { name: 'Region', type: 'string', jsonPath: '.spec.provider.region' },
    { name: 'Seed', type: 'string', jsonPath: '.spec.seedName' },
    { name: 'Status', type: 'string', jsonPath: '.status.lastOperation.state' },
    ageColumn,
  ],
};
export const BackupBucketKind = defineKind(
  bucketInfo,
  kindSchema(bucketInfo, {
    spec: Type.Object({
      provider: Type.Object({ type: Str(), region: Str() }),
      providerConfig: Opt(RawExtension()),
      credentialsRef: Opt(ObjectReference),
      seedName: Opt(Str()),
    }),
    status: Opt(
      Type.Object({
        providerStatus: Opt(RawExtension()),
        lastOperation: Opt(LastOperation),
        lastError: Opt(LastError),
        observedGeneration: Opt(Int64()),
        generatedSecretRef: Opt(SecretReference),
      }),
    ),
  }),
);
export type BackupBucket = Static<typeof BackupBucketKind.schema>;

const entryInfo: KindInfo = {
  ...GroupVersion,
  kind: 'BackupEntry',
  plural: 'backupentries',
  singular: 'backupentry',
  namespaced: true,
  statusSubresource: true,
  printerColumns: [
    { name: 'Bucket', type: 'string', jsonPath: '.spec.bucketName' },
    { name: 'Seed', type: 'string', jsonPath: '.spec.seedName' },
    { name: 'Status', type: 'string', jsonPath: '.status.lastOperation.state' },
    ageColumn,
  ],
};
export const BackupEntryKind = defineKind(
  entryInfo,
  kindSchema(entryInfo, {
    spec: Type.Object({ bucketName: Str(), seedName: Opt(Str()), shootRef: Opt(ObjectReference) }),
    status: Opt(
      Type.Object({
        lastOperation: Opt(LastOperation),
        lastError: Opt(LastError),
        observedGeneration: Opt(Int64()),
        seedName: Opt(Str()),
        migrationStartTime: Opt(Time()),
      }),
    ),
  }),
);
export type BackupEntry = Static<typeof BackupEntryKind.schema>;
