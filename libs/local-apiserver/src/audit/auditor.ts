// The server's auditor: the policy, the backends and the audit metrics. It hands every request its RequestAudit (audit
// ID and `Audit-Id` header always; an event only when the policy asks for one) and emits finished stages to the
// backends. Stopping it completes the requests still open and flushes the backends.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, type Registry as MetricsRegistry } from 'prom-client';
import type { Logger } from '@gardener-ts/logging';
import { NO_POLICY, type AuditDecision, type PolicyEvaluator } from './policy.js';
import { microTime, nowMicros, serializeEvent } from './event.js';
import { RequestAudit } from './request-audit.js';
import type { AuditEvent, AuditSink } from './types.js';

export const AUDIT_ID_HEADER = 'Audit-Id';
/** Longest client-chosen audit ID taken over; longer ones are replaced by a fresh UUID. */
const MAX_AUDIT_ID = 128;

export interface AuditorOptions {
  policy?: PolicyEvaluator;
  sinks?: AuditSink[];
  metrics?: MetricsRegistry;
  log?: Logger;
}

export class Auditor {
  private readonly policy: PolicyEvaluator;
  private readonly sinks: AuditSink[];
  private readonly open = new Set<RequestAudit>();
  private readonly log?: Logger;
  private readonly eventCounter?: Counter<string>;
  private readonly errorCounter?: Counter<'plugin'>;
  private readonly levelCounter?: Counter<'level'>;
  /** An event is made only when there is a policy and somewhere to send events, as in kube-apiserver. */
  readonly enabled: boolean;

  constructor(options: AuditorOptions = {}) {
    this.policy = options.policy ?? NO_POLICY;
    this.sinks = options.sinks ?? [];
    this.log = options.log;
    this.enabled = options.policy !== undefined && this.sinks.length > 0;
    const registers = options.metrics ? [options.metrics] : [];
    if (this.enabled && options.metrics) {
      this.eventCounter = new Counter({
        name: 'apiserver_audit_event_total',
        help: 'Counter of audit events generated and sent to the audit backend.',
        registers,
      });
      this.errorCounter = new Counter({
        name: 'apiserver_audit_error_total',
        help: 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
        labelNames: ['plugin'],
        registers,
      });
      this.levelCounter = new Counter({
        name: 'apiserver_audit_level_total',
        help: 'Counter of policy levels for audit events (1 per request).',
        labelNames: ['level'],
        registers,
      });
    }
  }

  /** Starts a request's audit: its ID (the client's `Audit-ID` header, else a new UUID), sent back as `Audit-Id`. */
  begin(req: IncomingMessage, res?: ServerResponse): RequestAudit {
    const received = nowMicros();
    const asked = req.headers['audit-id'];
    const id = typeof asked === 'string' && asked && asked.length <= MAX_AUDIT_ID ? asked : randomUUID();
    if (res) res.setHeader(AUDIT_ID_HEADER, id);
    return new RequestAudit(this, id, req, res, received);
  }

  /** The policy's decision for a request, counted by level; undefined when auditing is off. */
  decide(attributes: Parameters<PolicyEvaluator['evaluate']>[0]): AuditDecision | undefined {
    if (!this.enabled) return undefined;
    const decision = this.policy.evaluate(attributes);
    this.levelCounter?.inc({ level: decision.level });
    return decision;
  }

  track(audit: RequestAudit): void {
    this.open.add(audit);
  }

  untrack(audit: RequestAudit): void {
    this.open.delete(audit);
  }

  /** Sends one stage of an event to every backend unless the policy omits the stage. Never throws. */
  emit(ev: AuditEvent, decision: AuditDecision): void {
    if (decision.omitStages.has(ev.stage)) return;
    ev.stageTimestamp = ev.stage === 'RequestReceived' ? ev.requestReceivedTimestamp : microTime(nowMicros());
    let json: string;
    try {
      json = serializeEvent(ev);
    } catch (err) {
      this.failed('serialize', 1, err);
      return;
    }
    this.eventCounter?.inc();
    for (const sink of this.sinks) {
      try {
        sink.process(json);
      } catch (err) {
        this.failed(sink.name, 1, err);
      }
    }
  }

  /** Counts events a backend could not write or send (`apiserver_audit_error_total`). */
  failed(plugin: string, count: number, err?: unknown): void {
    this.errorCounter?.inc({ plugin }, count);
    this.log?.error({ plugin, count, err: err instanceof Error ? err.message : err }, 'Audit events dropped');
  }

  /** Completes the requests still open (their connections are gone) and flushes every backend. */
  async stop(): Promise<void> {
    for (const audit of [...this.open]) audit.complete();
    await Promise.all(this.sinks.map((s) => s.stop().catch((err) => this.failed(s.name, 0, err))));
  }
}
