// The audit.k8s.io/v1 types the audit code reads and writes: Policy (what to record) and Event (what is recorded).
import type { ResourceAttributes } from '../auth/attributes.js';
import type { UserInfo } from '../server/context.js';

export const LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type Level = (typeof LEVELS)[number];

export const STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Stage = (typeof STAGES)[number];

/** `level` at least `min` (None < Metadata < Request < RequestResponse). */
export function levelAtLeast(level: Level, min: Level): boolean {
  return LEVELS.indexOf(level) >= LEVELS.indexOf(min);
}

/** audit.k8s.io/v1 GroupResources. */
export interface GroupResources {
  group?: string;
  resources?: string[];
  resourceNames?: string[];
}

/** audit.k8s.io/v1 PolicyRule. */
export interface PolicyRule {
  level: Level;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

/** audit.k8s.io/v1 Policy. */
export interface Policy {
  apiVersion?: string;
  kind?: string;
  rules: PolicyRule[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

/**
 * What a request asks, as the policy sees it (kube's authorizer.Attributes at the audit filter): the authenticated user
 * (before impersonation; none when authentication failed), the verb and the resource or the path.
 */
export type AuditAttributes = { user?: UserInfo } & (
  { kind: 'resource'; resource: ResourceAttributes } | { kind: 'path'; verb: string; path: string }
);

/** audit.k8s.io/v1 ObjectReference. */
export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** authentication.k8s.io/v1 UserInfo as an event prints it. */
export interface EventUser {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** A metav1.Status as the event's responseStatus. */
export interface ResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code?: number;
}

/** audit.k8s.io/v1 Event. */
export interface AuditEvent {
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: EventUser;
  impersonatedUser?: EventUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: ObjectReference;
  responseStatus?: ResponseStatus;
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/** Where serialised events go (one JSON object per event). Never blocks or throws into the request path. */
export interface AuditSink {
  readonly name: string;
  process(eventJson: string): void;
  /** Writes or sends everything accepted so far. */
  stop(): Promise<void>;
}
