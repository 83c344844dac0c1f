// One request's audit, following kube's filters: the event is made after authentication (policy on the authenticated
// user), impersonation and the authorization decision are added as they happen, the handler's request body and
// response are noted (http/io.ts), and the final stage is emitted when the response closes. Long-running requests
// (watch, log, exec, attach, portforward, proxy) also emit ResponseStarted when their headers go out.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { parse as parseYaml } from 'yaml';
import { ApiError } from '../api/errors.js';
import type { Decision } from '../auth/attributes.js';
import { decodeProtobufObject } from '../http/protobuf.js';
import type { UserInfo } from '../server/context.js';
import type { Auditor } from './auditor.js';
import { completeObjectRef, eventUser, newEvent, responseStatus, withoutManagedFields } from './event.js';
import type { AuditDecision } from './policy.js';
import { levelAtLeast, type AuditAttributes, type AuditEvent } from './types.js';
import { registerAudit, unregisterAudit } from './registry.js';

const LONG_RUNNING_VERBS = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);
const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);
const PROTOBUF_MAGIC = Buffer.from('k8s\0');

/** kube-apiserver's long-running check (BasicLongRunningRequestCheck). */
export function isLongRunning(a: AuditAttributes): boolean {
  return (
    a.kind === 'resource' &&
    (LONG_RUNNING_VERBS.has(a.resource.verb) || LONG_RUNNING_SUBRESOURCES.has(a.resource.subresource))
  );
}

/** A request body as an object: kube protobuf, JSON or YAML; undefined when it is none of them. */
export function decodeRequestBody(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    if (body.subarray(0, 4).equals(PROTOBUF_MAGIC)) return decodeProtobufObject(body);
    const text = body.toString('utf8');
    try {
      return JSON.parse(text);
    } catch {
      return parseYaml(text);
    }
  } catch {
    return undefined;
  }
}

export class RequestAudit {
  private event?: AuditEvent;
  private decision?: AuditDecision;
  private longRunning = false;
  private started = false;
  private done = false;
  /** Failed authentication: kube emits the ResponseStarted stage only. */
  private startedOnly = false;
  private requestBody?: Buffer;
  private responseBody?: { value: unknown };
  private panicMessage?: string;
  private upgradeCode?: number;

  constructor(
    private readonly auditor: Auditor,
    readonly id: string,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse | undefined,
    private readonly receivedMicros: number,
  ) {}

  /** The request passed authentication: decide the level by the policy and emit RequestReceived. */
  received(attributes: AuditAttributes): void {
    if (!this.open(attributes)) return;
    this.longRunning = isLongRunning(attributes);
    this.emit('RequestReceived');
    if (this.longRunning && this.res) this.watchHeaders(this.res);
  }

  /** Authentication failed: an event without user, with kube's message naming the credentials tried. */
  unauthenticated(attributes: AuditAttributes): void {
    if (!this.open({ ...attributes, user: undefined })) return;
    this.startedOnly = true;
    this.event!.responseStatus = { metadata: {}, message: authenticationFailure(this.req) };
  }

  impersonated(user: UserInfo): void {
    if (this.event) this.event.impersonatedUser = eventUser(user);
  }

  authorized(decision: Decision): void {
    if (!this.event) return;
    this.event.annotations = {
      ...this.event.annotations,
      'authorization.k8s.io/decision': decision.allowed ? 'allow' : 'forbid',
      'authorization.k8s.io/reason': decision.reason,
    };
  }

  /** The request body the handler read (http/io.ts). */
  noteRequestBody(body: Buffer): void {
    this.requestBody = body;
  }

  /** The object the handler answered with (http/io.ts). */
  noteResponseBody(body: unknown): void {
    this.responseBody = { value: body };
  }

  /** The handler failed: anything but an API error is what kube would see as a panic. */
  failed(err: unknown): void {
    if (this.event && !(err instanceof ApiError)) this.panicMessage = err instanceof Error ? err.message : String(err);
  }

  /** An upgraded connection (exec, attach, portforward): started now, complete when the socket closes. */
  upgraded(socket: Duplex): void {
    if (!this.event) return;
    this.upgradeCode = 101;
    this.responseStarted(101);
    socket.once('close', () => this.complete());
  }

  /** An upgrade request that failed before the upgrade, answered with this error. */
  upgradeFailed(error: ApiError): void {
    if (!this.event) return;
    this.upgradeCode = error.code;
    this.noteResponseBody(error.toStatus());
    this.complete();
  }

  /** The final stage: Panic, ResponseStarted (failed authentication) or ResponseComplete. Runs once. */
  complete(): void {
    const ev = this.event;
    if (!ev || this.done) return;
    this.done = true;
    this.auditor.untrack(this);
    unregisterAudit(this.req, this.res);
    if (this.panicMessage !== undefined) {
      ev.responseStatus = {
        metadata: {},
        status: 'Failure',
        message: `APIServer panic'd: ${this.panicMessage}`,
        reason: 'InternalError',
        code: 500,
      };
      return this.emit('Panic');
    }
    const code = this.upgradeCode ?? (this.res?.headersSent ? this.res.statusCode : undefined);
    if (this.startedOnly) {
      ev.responseStatus = { ...ev.responseStatus, metadata: {}, code: code ?? 401 };
      return this.emit('ResponseStarted');
    }
    if (code === undefined) {
      // Nothing was sent (the connection closed first): kube's faked status.
      ev.responseStatus = { metadata: {}, status: 'Success', message: 'Connection closed early', code: 200 };
      if (this.longRunning && !this.started) this.emit('ResponseStarted');
    } else {
      ev.responseStatus = responseStatus(code, this.responseBody?.value);
    }
    this.logObjects(ev);
    this.emit('ResponseComplete');
  }

  private open(attributes: AuditAttributes): boolean {
    if (this.event || this.done) return false;
    const decision = this.auditor.decide(attributes);
    if (!decision || decision.level === 'None') return false;
    this.decision = decision;
    this.event = newEvent({
      auditID: this.id,
      level: decision.level,
      attributes,
      req: this.req,
      receivedMicros: this.receivedMicros,
    });
    this.auditor.track(this);
    registerAudit(this, this.req, this.res);
    this.res?.once('close', () => this.complete());
    return true;
  }

  /** kube's LogRequestObject and LogResponseObject: objects by level, without managedFields if the policy says so. */
  private logObjects(ev: AuditEvent): void {
    const omit = this.decision!.omitManagedFields;
    const deletion = ev.verb === 'delete' || ev.verb === 'deletecollection';
    if ((this.requestBody || deletion) && ev.objectRef && WRITE_VERBS.has(ev.verb)) {
      let object = this.requestBody ? decodeRequestBody(this.requestBody) : undefined;
      // kube logs the decoded DeleteOptions in meta.k8s.io/v1, with or without a body.
      if (deletion) {
        const { kind: _kind, apiVersion: _apiVersion, ...options } = (object ?? {}) as Record<string, unknown>;
        object = { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', ...options };
      }
      completeObjectRef(ev.objectRef, object);
      if (object !== undefined && levelAtLeast(ev.level, 'Request'))
        ev.requestObject = omit ? withoutManagedFields(object) : object;
    }
    if (this.responseBody && levelAtLeast(ev.level, 'RequestResponse') && !this.longRunning) {
      ev.responseObject = omit ? withoutManagedFields(this.responseBody.value) : this.responseBody.value;
    }
  }

  private watchHeaders(res: ServerResponse): void {
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    res.writeHead = ((...args: Parameters<ServerResponse['writeHead']>) => {
      this.responseStarted(args[0]);
      return writeHead(...args);
    }) as ServerResponse['writeHead'];
  }

  private responseStarted(code: number): void {
    if (this.started || !this.event || this.done) return;
    this.started = true;
    if (!this.longRunning && this.upgradeCode === undefined) return;
    this.event.responseStatus = { metadata: {}, code };
    this.emit('ResponseStarted');
  }

  private emit(stage: AuditEvent['stage']): void {
    this.event!.stage = stage;
    this.auditor.emit(this.event!, this.decision!);
  }
}

/** kube's message for a failed authentication: the kinds of credentials the request carried. */
function authenticationFailure(req: IncomingMessage): string {
  const methods: string[] = [];
  const auth = (req.headers.authorization ?? '').trim();
  if (/^basic\s/i.test(auth)) methods.push('basic');
  const parts = auth.split(' ');
  if (parts.length > 1 && parts[0].toLowerCase() === 'bearer') methods.push('bearer');
  if (/[?&]access_token=[^&]/.test(req.url ?? '')) methods.push('access_token');
  const socket = req.socket as { getPeerCertificate?: () => { raw?: Buffer } };
  if (typeof socket.getPeerCertificate === 'function' && socket.getPeerCertificate()?.raw) methods.push('x509');
  return methods.length > 0
    ? `Authentication failed, attempted: ${methods.join(', ')}`
    : 'Authentication failed, no credentials provided';
}
