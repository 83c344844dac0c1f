// Types shared by several core.gardener.cloud kinds.
import { Type, type Static } from '@sinclair/typebox';
import { CrossVersionObjectReference, ObjectReference } from '../../schema/meta.js';
import { Bool, Int32, Opt, RawExtension, Str, StringEnum, StringMap, Time } from '../../schema/primitives.js';

export const GroupVersion = { group: 'core.gardener.cloud', version: 'v1beta1' } as const;

export const Condition = Type.Object({
  type: Str(),
  status: StringEnum(['True', 'False', 'Unknown', 'Progressing']),
  lastTransitionTime: Time(),
  lastUpdateTime: Time(),
  reason: Str(),
  message: Str(),
  codes: Opt(Type.Array(Str())),
});
export type Condition = Static<typeof Condition>;

export const LastOperation = Type.Object({
  description: Str(),
  lastUpdateTime: Time(),
  progress: Int32(),
  state: StringEnum(['Processing', 'Succeeded', 'Error', 'Failed', 'Pending', 'Aborted']),
  type: StringEnum(['Create', 'Reconcile', 'Delete', 'Migrate', 'Restore', 'LiveMigrate']),
});
export type LastOperation = Static<typeof LastOperation>;

export const LastError = Type.Object({
  description: Str(),
  taskID: Opt(Str()),
  codes: Opt(Type.Array(Str())),
  lastUpdateTime: Opt(Time()),
});
export type LastError = Static<typeof LastError>;

/** The gardenlet/controller that last acted on an object. */
export const Gardener = Type.Object({ id: Str(), name: Str(), version: Str() });

export const FailureToleranceType = StringEnum(['node', 'zone']);
export const HighAvailability = Type.Object({ failureTolerance: Type.Object({ type: FailureToleranceType }) });

export const Extension = Type.Object({
  type: Str(),
  providerConfig: Opt(RawExtension()),
  disabled: Opt(Bool()),
});

export const NamedResourceReference = Type.Object({ name: Str(), resourceRef: CrossVersionObjectReference });

export const AccessRestriction = Type.Object({ name: Str() });
export const AccessRestrictionWithOptions = Type.Object({ name: Str(), options: Opt(StringMap()) });

export const IPFamily = StringEnum(['IPv4', 'IPv6']);

/** `kind` is defaulted to CloudProfile, so it may be omitted on create. */
export const CloudProfileReference = Type.Object({
  kind: Opt(StringEnum(['CloudProfile', 'NamespacedCloudProfile'])),
  name: Str(),
});

/** Object store configuration for etcd backups (Seed and self-hosted Shoot control planes). */
export const Backup = Type.Object({
  provider: Str(),
  providerConfig: Opt(RawExtension()),
  region: Opt(Str()),
  credentialsRef: Opt(ObjectReference),
});
