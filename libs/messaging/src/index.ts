// NATS messaging of gardener-ts: events, heartbeats and wake-ups as versioned protobuf messages on versioned subjects.
export type * from './generated/types.js';
export { codecFor, CodecError, type Codec, type MessageInput, type MessageTypeName } from './schema/codec.js';
export {
  encodeEnvelope,
  decodeEnvelope,
  isPayload,
  toTimestamp,
  fromTimestamp,
  type PayloadKind,
  type Payloads,
  type EnvelopeOf,
  EVENT_KINDS,
  type EventKind,
} from './schema/envelope.js';
export { subjectToken, SubjectTokenError } from './subjects/tokens.js';
export {
  SUBJECT_ROOT,
  GARDEN_SCOPE,
  CLUSTER_SCOPED,
  eventSubject,
  wakeUpSubject,
  heartbeatSubject,
  eventFilter,
  wakeUpFilter,
  heartbeatFilter,
  familySubjects,
  type SubjectFamily,
  type ObjectSubject,
  type HeartbeatSubject,
  type ObjectFilter,
  type HeartbeatFilter,
} from './subjects/subjects.js';
export { seedPermissions, gardenPermissions, type SubjectPermissions } from './subjects/permissions.js';
export {
  MessagingClient,
  type MessagingClientOptions,
  type PublishResult,
  type ClientEvent,
  type MessageSubscription,
} from './connection/client.js';
export { JitteredBackoff, type BackoffOptions } from './connection/backoff.js';
export { credentialsOf, type Credentials, type CredentialSettings } from './connection/credentials.js';
export { DEFAULT_OUTBOX_LIMITS, type OutboxLimits } from './outbox/outbox.js';
export { messagingMetrics, type MessagingMetrics, type DropReason } from './metrics.js';
export { Publisher, type PublisherIdentity, type EventObject } from './publish/publisher.js';
export {
  subscribeEnvelopes,
  subscribeEvents,
  subscribeHeartbeats,
  subscribeWakeUps,
  type EnvelopeHandler,
  type SubscribeOptions,
} from './subscribe/subscriber.js';
export {
  ensureEventsStream,
  eventsStreamConfig,
  EVENTS_STREAM,
  type EventsStreamOptions,
  type EnsuredStream,
} from './jetstream/events-stream.js';
export {
  replayEvents,
  type Replay,
  type ReplayInfo,
  type ReplayOptions,
  type ReplayedEvent,
} from './jetstream/replay.js';
