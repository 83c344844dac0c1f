// Mutating/ValidatingWebhookConfiguration objects for webhooks this server serves: one configuration per component,
// one webhook entry per path, all reaching the server the same way (a Service in the cluster, or a URL).
import type { KubernetesObject } from '../client/types.js';
import type { LabelSelector } from '../labels/selector.js';
import type { Operation } from './review.js';
import type { WebhookType } from './server.js';

export interface RuleWithOperations {
  operations: (Operation | '*')[];
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
  scope?: 'Cluster' | 'Namespaced' | '*';
}

export type ClientTarget =
  /** A Service in the cluster; `path` of each webhook is appended. */
  | { service: { namespace: string; name: string; port?: number } }
  /** A base URL (`https://host:port`) outside the cluster; `path` of each webhook is appended. */
  | { url: string };

export interface WebhookSpec {
  /** Fully qualified, at least three dot-separated segments (e.g. `validate.configmaps.example.com`). */
  name: string;
  /** Where this server serves the webhook (`register(path, ...)`). */
  path: string;
  rules: RuleWithOperations[];
  failurePolicy?: 'Fail' | 'Ignore';
  sideEffects?: 'None' | 'NoneOnDryRun';
  timeoutSeconds?: number;
  matchPolicy?: 'Exact' | 'Equivalent';
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  /** Mutating webhooks only. */
  reinvocationPolicy?: 'Never' | 'IfNeeded';
}

export interface WebhookConfigurationSpec {
  type: WebhookType;
  name: string;
  target: ClientTarget;
  /** PEM of the CA that signed the server's certificate; base64-encoded into every webhook's `caBundle`. */
  caBundle: string | Buffer;
  webhooks: WebhookSpec[];
  labels?: Record<string, string>;
}

/** A rule for `operations` on `resources` of one API group and version: `rule(['CREATE'], '', 'v1', 'configmaps')`. */
export function rule(
  operations: RuleWithOperations['operations'],
  apiGroup: string,
  apiVersion: string,
  ...resources: string[]
): RuleWithOperations {
  if (resources.length === 0) throw new Error('a webhook rule needs at least one resource');
  return { operations, apiGroups: [apiGroup], apiVersions: [apiVersion], resources };
}

/** The MutatingWebhookConfiguration or ValidatingWebhookConfiguration for `spec`, ready to apply. */
export function webhookConfiguration(
  spec: WebhookConfigurationSpec,
): KubernetesObject & { webhooks: Record<string, unknown>[] } {
  if (spec.webhooks.length === 0) throw new Error(`webhook configuration ${spec.name} has no webhooks`);
  const caBundle = Buffer.from(spec.caBundle).toString('base64');
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: spec.type === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration',
    metadata: { name: spec.name, ...(spec.labels ? { labels: spec.labels } : {}) },
    webhooks: spec.webhooks.map((w) => webhookEntry(spec, w, caBundle)),
  };
}

function webhookEntry(spec: WebhookConfigurationSpec, w: WebhookSpec, caBundle: string): Record<string, unknown> {
  if (w.name.split('.').length < 3)
    throw new Error(
      `webhook name ${JSON.stringify(w.name)} must be fully qualified (e.g. "validate.widgets.example.com")`,
    );
  if (!w.path.startsWith('/')) throw new Error(`webhook ${w.name}: path ${JSON.stringify(w.path)} must start with "/"`);
  if (w.rules.length === 0) throw new Error(`webhook ${w.name} has no rules`);
  if (w.timeoutSeconds !== undefined && !(w.timeoutSeconds >= 1 && w.timeoutSeconds <= 30))
    throw new Error(`webhook ${w.name}: timeoutSeconds must be between 1 and 30`);
  if (w.reinvocationPolicy && spec.type !== 'mutating')
    throw new Error(`webhook ${w.name}: reinvocationPolicy is for mutating webhooks only`);
  const clientConfig =
    'service' in spec.target
      ? {
          service: {
            namespace: spec.target.service.namespace,
            name: spec.target.service.name,
            path: w.path,
            port: spec.target.service.port ?? 443,
          },
          caBundle,
        }
      : { url: `${spec.target.url.replace(/\/+$/, '')}${w.path}`, caBundle };
  return {
    name: w.name,
    admissionReviewVersions: ['v1'],
    clientConfig,
    rules: w.rules,
    failurePolicy: w.failurePolicy ?? 'Fail',
    sideEffects: w.sideEffects ?? 'None',
    timeoutSeconds: w.timeoutSeconds ?? 10,
    matchPolicy: w.matchPolicy ?? 'Equivalent',
    ...(w.namespaceSelector ? { namespaceSelector: w.namespaceSelector } : {}),
    ...(w.objectSelector ? { objectSelector: w.objectSelector } : {}),
    ...(spec.type === 'mutating' ? { reinvocationPolicy: w.reinvocationPolicy ?? 'Never' } : {}),
  };
}
