// The Kubernetes protobuf wire format of the kinds we decode, one table per API group in our own notation
// (notation.ts): for each message its fields as `name number type`, with the field numbers of the Kubernetes API.
// Kinds not listed here are answered with 415. Extend it kind by kind as typed clients need them.
import type protobuf from 'protobufjs';
import { APPS_MESSAGES } from './apps.js';
import { AUTH_MESSAGES } from './auth.js';
import { AUTOSCALING_MESSAGES } from './autoscaling.js';
import { BATCH_MESSAGES } from './batch.js';
import { CORE_NODE_MESSAGES } from './core-node.js';
import { CORE_POD_MESSAGES } from './core-pod.js';
import { CORE_VOLUME_MESSAGES } from './core-volumes.js';
import { CORE_MESSAGES } from './core.js';
import { DISCOVERY_MESSAGES } from './discovery.js';
import { EVENTS_MESSAGES } from './events.js';
import { META_MESSAGES } from './meta.js';
import { NETWORKING_MESSAGES } from './networking.js';
import { toNamespace } from './notation.js';
import { POLICY_MESSAGES } from './policy.js';
import { RBAC_MESSAGES } from './rbac.js';
import { SCHEDULING_MESSAGES } from './scheduling.js';
import { STORAGE_MESSAGES } from './storage.js';

export { KEEP_ZERO_OPTION } from './notation.js';

const TABLES = [
  META_MESSAGES,
  AUTH_MESSAGES,
  CORE_MESSAGES,
  CORE_POD_MESSAGES,
  CORE_NODE_MESSAGES,
  CORE_VOLUME_MESSAGES,
  APPS_MESSAGES,
  AUTOSCALING_MESSAGES,
  BATCH_MESSAGES,
  NETWORKING_MESSAGES,
  POLICY_MESSAGES,
  RBAC_MESSAGES,
  SCHEDULING_MESSAGES,
  DISCOVERY_MESSAGES,
  EVENTS_MESSAGES,
  STORAGE_MESSAGES,
];

/** The messages as a protobufjs JSON namespace (nested by package). */
export function protobufNamespace(): protobuf.INamespace {
  return toNamespace(TABLES);
}
