// Audit logging as kube-apiserver does it: a policy file, a log file backend and a webhook backend.
import type { Registry as MetricsRegistry } from 'prom-client';
import type { Logger } from '@gardener-ts/logging';
import { Auditor } from './auditor.js';
import { openLogBackend } from './backends/log.js';
import { webhookBackend, type WebhookBatchOptions } from './backends/webhook.js';
import { loadWebhookConfig } from './backends/webhook-config.js';
import { loadPolicyFile, parsePolicy, PolicyEvaluator } from './policy.js';
import type { AuditSink } from './types.js';

export { Auditor, AUDIT_ID_HEADER } from './auditor.js';
export type { RequestAudit } from './request-audit.js';
export type { Policy, AuditEvent } from './types.js';

export interface AuditOptions {
  /** An audit.k8s.io/v1 Policy file, YAML or JSON (kube's --audit-policy-file). */
  policyFile?: string;
  /** The policy itself, instead of a file. */
  policy?: unknown;
  /** Where to append one JSON Event per line; "-" for stdout (kube's --audit-log-path). */
  logPath?: string;
  /** A kubeconfig naming the webhook to POST EventList batches to (kube's --audit-webhook-config-file). */
  webhookConfigFile?: string;
  /** Batching and retry of the webhook backend. */
  webhookBatch?: WebhookBatchOptions;
}

/** The server's auditor; throws at startup for an invalid policy or a backend that cannot be opened. */
export async function createAuditor(
  options: AuditOptions | undefined,
  context: { metrics?: MetricsRegistry; log?: Logger },
): Promise<Auditor> {
  if (!options) return new Auditor();
  const policy = options.policyFile
    ? await loadPolicyFile(options.policyFile)
    : options.policy !== undefined
      ? parsePolicy(options.policy)
      : undefined;
  const sinks: AuditSink[] = [];
  // The backends report drops to the auditor, which needs the backends first.
  const owner: { auditor?: Auditor } = {};
  const dropped = (plugin: string, count: number, err?: unknown) => owner.auditor?.failed(plugin, count, err);
  const webhook = options.webhookConfigFile ? await loadWebhookConfig(options.webhookConfigFile) : undefined;
  if (options.logPath) sinks.push(await openLogBackend(options.logPath, dropped));
  if (webhook) sinks.push(webhookBackend(webhook, dropped, options.webhookBatch));
  owner.auditor = new Auditor({
    policy: policy && new PolicyEvaluator(policy),
    sinks,
    metrics: context.metrics,
    log: context.log,
  });
  return owner.auditor;
}
