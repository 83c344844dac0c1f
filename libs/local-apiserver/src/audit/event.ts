// Building audit.k8s.io/v1 Events the way kube-apiserver fills them (audit.LogRequestMetadata, LogRequestObject,
// LogResponseObject) and printing them with kube's field order.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { UserInfo } from '../server/context.js';
import type { AuditAttributes, AuditEvent, EventUser, Level, ObjectReference, ResponseStatus } from './types.js';

const MAX_USER_AGENT = 1024;

/** Microseconds since the epoch, as precise as the clock allows. */
export function nowMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

/** RFC 3339 with microseconds in UTC (metav1.MicroTime): `2026-01-02T15:04:05.000000Z`. */
export function microTime(micros: number): string {
  const iso = new Date(Math.floor(micros / 1000)).toISOString();
  return `${iso.slice(0, 19)}.${String(((micros % 1_000_000) + 1_000_000) % 1_000_000).padStart(6, '0')}Z`;
}

/** kube's utilnet.SourceIPs: X-Forwarded-For, then X-Real-Ip, then the connection's address, without repeats. */
export function sourceIPs(req: IncomingMessage): string[] {
  const ips: string[] = [];
  const add = (ip: string | undefined) => {
    const clean = ip?.trim();
    if (clean && isIP(clean) && ips[ips.length - 1] !== clean) ips.push(clean);
  };
  const forwarded = req.headers['x-forwarded-for'];
  for (const part of (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',')) add(part);
  const real = req.headers['x-real-ip'];
  add(Array.isArray(real) ? real[0] : real);
  add(req.socket?.remoteAddress?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, ''));
  return ips;
}

export function userAgent(req: IncomingMessage): string | undefined {
  const ua = req.headers['user-agent'];
  if (!ua) return undefined;
  return ua.length > MAX_USER_AGENT ? `${ua.slice(0, MAX_USER_AGENT)}...TRUNCATED` : ua;
}

export function eventUser(user: UserInfo | undefined): EventUser {
  if (!user) return {};
  const out: EventUser = { username: user.username };
  if (user.uid) out.uid = user.uid;
  if (user.groups.length > 0) out.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) out.extra = user.extra;
  return out;
}

export function objectReference(a: AuditAttributes): ObjectReference | undefined {
  if (a.kind !== 'resource') return undefined;
  const r = a.resource;
  return {
    resource: r.resource,
    namespace: r.namespace,
    name: r.name,
    apiGroup: r.group,
    apiVersion: r.version,
    subresource: r.subresource,
  };
}

/** The event's responseStatus: the bounded fields of a Status response, else only the code. */
export function responseStatus(code: number, body?: unknown): ResponseStatus {
  const status: ResponseStatus = { metadata: {} };
  if (body !== null && typeof body === 'object' && (body as { kind?: unknown }).kind === 'Status') {
    const s = body as Record<string, unknown>;
    if (typeof s.status === 'string' && s.status) status.status = s.status;
    if (typeof s.message === 'string' && s.message) status.message = s.message;
    if (typeof s.reason === 'string' && s.reason) status.reason = s.reason;
    if (s.details) status.details = s.details;
  }
  status.code = code;
  return status;
}

export interface NewEventArgs {
  auditID: string;
  level: Level;
  attributes: AuditAttributes;
  req: IncomingMessage;
  receivedMicros: number;
}

/** The RequestReceived event of a request (kube's NewEventFromRequest + LogRequestMetadata). */
export function newEvent({ auditID, level, attributes, req, receivedMicros }: NewEventArgs): AuditEvent {
  const received = microTime(receivedMicros);
  return {
    level,
    auditID,
    stage: 'RequestReceived',
    requestURI: req.url ?? '/',
    verb: attributes.kind === 'resource' ? attributes.resource.verb : attributes.verb,
    user: eventUser(attributes.user),
    sourceIPs: sourceIPs(req),
    userAgent: userAgent(req),
    objectRef: objectReference(attributes),
    requestReceivedTimestamp: received,
    stageTimestamp: received,
  };
}

/** Fills the object reference's blanks from the request object's metadata, as kube's LogRequestObject does. */
export function completeObjectRef(ref: ObjectReference | undefined, object: unknown): void {
  if (!ref || object === null || typeof object !== 'object') return;
  const meta = (object as { metadata?: Record<string, unknown> }).metadata;
  if (!meta || typeof meta !== 'object') return;
  const fill = (key: 'namespace' | 'name' | 'uid' | 'resourceVersion') => {
    if (!ref[key] && typeof meta[key] === 'string' && meta[key]) ref[key] = meta[key] as string;
  };
  fill('namespace');
  fill('name');
  fill('uid');
  fill('resourceVersion');
}

function stripManagedFields(object: unknown): unknown {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) return object;
  const meta = (object as { metadata?: Record<string, unknown> }).metadata;
  if (!meta || typeof meta !== 'object' || !('managedFields' in meta)) return object;
  const { managedFields: _dropped, ...rest } = meta;
  return { ...object, metadata: rest };
}

/** A copy without metadata.managedFields on the object, a list's items and a Table's row objects (kube's omitManagedFields). */
export function withoutManagedFields(object: unknown): unknown {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) return object;
  let out = stripManagedFields(object) as Record<string, unknown>;
  if (Array.isArray(out.items)) out = { ...out, items: out.items.map(stripManagedFields) };
  if ((out as { kind?: unknown }).kind === 'Table' && Array.isArray(out.rows)) {
    out = {
      ...out,
      rows: (out.rows as Record<string, unknown>[]).map((row) =>
        row && typeof row === 'object' && row.object ? { ...row, object: stripManagedFields(row.object) } : row,
      ),
    };
  }
  return out;
}

const REF_FIELDS = [
  'resource',
  'namespace',
  'name',
  'uid',
  'apiGroup',
  'apiVersion',
  'resourceVersion',
  'subresource',
] as const;

/** The reference in kube's field order without its empty fields. */
function compactRef(ref: ObjectReference | undefined): ObjectReference | undefined {
  if (!ref) return undefined;
  const out: ObjectReference = {};
  for (const k of REF_FIELDS) if (ref[k]) out[k] = ref[k];
  return out;
}

/** The event's JSON line, fields in kube's order, empty optional fields left out (Go's omitempty). */
export function serializeEvent(ev: AuditEvent): string {
  return JSON.stringify({
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: ev.level,
    auditID: ev.auditID,
    stage: ev.stage,
    requestURI: ev.requestURI,
    verb: ev.verb,
    user: ev.user,
    impersonatedUser: ev.impersonatedUser,
    sourceIPs: ev.sourceIPs?.length ? ev.sourceIPs : undefined,
    userAgent: ev.userAgent || undefined,
    objectRef: compactRef(ev.objectRef),
    responseStatus: ev.responseStatus,
    requestObject: ev.requestObject,
    responseObject: ev.responseObject,
    requestReceivedTimestamp: ev.requestReceivedTimestamp,
    stageTimestamp: ev.stageTimestamp,
    annotations: ev.annotations && Object.keys(ev.annotations).length > 0 ? ev.annotations : undefined,
  });
}
