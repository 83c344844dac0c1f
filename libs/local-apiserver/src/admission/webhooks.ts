// Dynamic admission: MutatingWebhookConfigurations and ValidatingWebhookConfigurations called with AdmissionReview
// v1 over HTTPS (caBundle-verified), in kube's order and with kube's semantics — JSON patches from mutating
// webhooks, the webhook's message on denial, warnings passed back, failurePolicy Fail/Ignore, timeoutSeconds.
import { randomUUID } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { setDeadline } from '../http/client-deadline.js';
import type { Logger } from '@gardener-ts/logging';
import { ApiError } from '../api/errors.js';
import { applyPatch } from '../server/patching.js';
import type { Pipeline, WriteRequest, WriteStep } from '../server/pipeline.js';
import { StorageSnapshot } from '../storage/snapshot.js';
import type { KubeObject, Storage } from '../storage/types.js';
import {
  evaluateMatchConditions,
  validateWebhookConfigurationMatchConditions,
  type ConditionAuthorizer,
} from './match-conditions.js';
import { namespaceMatches, objectMatches, rulesMatch } from './matching.js';

const PREFIX = '/registry/admissionregistration.k8s.io/';
const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

type Kind = 'mutating' | 'validating';

export class WebhookAdmission {
  private readonly snapshot: StorageSnapshot;
  /** The authorizer behind matchConditions' `authorizer` variable (set once the server's chain exists). */
  private authorizer?: ConditionAuthorizer;

  constructor(
    private readonly storage: Storage,
    private readonly log?: Logger,
  ) {
    this.snapshot = new StorageSnapshot(storage, PREFIX, log);
  }

  start(): Promise<void> {
    return this.snapshot.start();
  }

  stop(): void {
    this.snapshot.stop();
  }

  useAuthorizer(authorizer: ConditionAuthorizer): void {
    this.authorizer = authorizer;
  }

  /**
   * Adds the mutating step after the built-in mutations and the validating step after built-in validation, and the
   * validation of webhook configurations' matchConditions.
   */
  install(pipeline: Pipeline): void {
    pipeline.mutating.push(this.step('mutating'));
    pipeline.validating.push(validateWebhookConfigurationMatchConditions, this.step('validating'));
  }

  /** kube's matchConditions, after rules and selectors: false skips; an error fails by the failurePolicy. */
  private async conditionsMatch(webhook: KubeObject, r: WriteRequest): Promise<boolean> {
    const result = await evaluateMatchConditions(webhook, r, this.authorizer);
    if ('error' in result) {
      this.log?.info(
        { webhook: webhook.name, err: result.error.message },
        'Failed evaluating match conditions, failing closed',
      );
      throw result.error;
    }
    return result.matches;
  }

  private webhooks(kind: Kind): { config: string; webhook: KubeObject }[] {
    const resource = kind === 'mutating' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
    return this.snapshot
      .under(`${PREFIX}${resource}/`)
      .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
      .flatMap((config) =>
        (config.webhooks ?? []).map((webhook: KubeObject) => ({ config: config.metadata.name, webhook })),
      );
  }

  private step(kind: Kind): WriteStep {
    return async (r) => {
      // Webhook configurations themselves are never sent to webhooks (kube's rule: no lock-out).
      if (r.definition.group === 'admissionregistration.k8s.io') return;
      const candidates = this.webhooks(kind).filter(({ webhook }) => rulesMatch(webhook, r));
      if (candidates.length === 0) return;
      const namespaceLabels =
        r.definition.namespaced && r.namespace
          ? (await this.storage.get(`/registry/core/namespaces/${r.namespace}`))?.object.metadata.labels
          : undefined;
      const called: { webhook: KubeObject; after: string }[] = [];
      for (const { webhook } of candidates) {
        if (!namespaceMatches(webhook, r, namespaceLabels) || !objectMatches(webhook, r)) continue;
        if (!(await this.conditionsMatch(webhook, r))) continue;
        if (r.ctx.dryRun && webhook.sideEffects !== 'None' && webhook.sideEffects !== 'NoneOnDryRun') {
          throw new ApiError(400, 'BadRequest', `admission webhook "${webhook.name}" does not support dry run`);
        }
        await this.call(kind, webhook, r);
        called.push({ webhook, after: JSON.stringify(r.object) });
      }
      // reinvocationPolicy IfNeeded: a webhook whose output a later webhook changed runs once more.
      if (kind !== 'mutating') return;
      const final = JSON.stringify(r.object);
      for (const { webhook, after } of called) {
        if (webhook.reinvocationPolicy === 'IfNeeded' && after !== final && (await this.conditionsMatch(webhook, r)))
          await this.call(kind, webhook, r);
      }
    };
  }

  private async target(webhook: KubeObject): Promise<Target> {
    const client = webhook.clientConfig ?? {};
    if (client.url) return { url: new URL(client.url) };
    if (client.service) return resolveService(this.storage, client.service);
    throw new Error('the webhook has neither clientConfig.url nor clientConfig.service');
  }

  private async call(kind: Kind, webhook: KubeObject, r: WriteRequest): Promise<void> {
    const uid = randomUUID();
    let response: KubeObject;
    try {
      response = await post(await this.target(webhook), webhook, review(uid, r));
      if (response.response?.uid !== uid)
        throw new Error(`expected response.uid="${uid}", got "${response.response?.uid ?? ''}"`);
    } catch (err) {
      if (webhook.failurePolicy === 'Ignore') {
        this.log?.info(
          { webhook: webhook.name, err: (err as Error).message },
          'Webhook failed, ignored by its failurePolicy',
        );
        return;
      }
      throw new ApiError(
        500,
        'InternalError',
        `Internal error occurred: failed calling webhook "${webhook.name}": ${(err as Error).message}`,
      );
    }
    const result = response.response;
    for (const w of result.warnings ?? []) r.ctx.warnings.push(String(w));
    if (!result.allowed) {
      const status = result.status ?? {};
      const code = Number(status.code) || 400;
      throw new ApiError(
        code,
        status.reason ?? 'BadRequest',
        `admission webhook "${webhook.name}" denied the request${status.message ? `: ${status.message}` : ' without explanation'}`,
      );
    }
    if (kind !== 'mutating' || !result.patch || r.operation === 'DELETE') return;
    if (result.patchType !== 'JSONPatch')
      throw new ApiError(
        500,
        'InternalError',
        `Internal error occurred: webhook "${webhook.name}" returned patchType ${result.patchType}, only JSONPatch is supported`,
      );
    const patched = applyPatch('json', r.object, Buffer.from(result.patch, 'base64').toString('utf8'), undefined);
    for (const key of Object.keys(r.object)) delete r.object[key];
    Object.assign(r.object, patched);
  }
}

/**
 * A Service client config resolves, as a cluster network would, through the Service's port to an Endpoints address.
 * Shared with the CRD conversion webhooks (`server/conversion/`).
 */
export async function resolveService(storage: Storage, service: KubeObject): Promise<Target> {
  const { namespace, name } = service;
  const port = Number(service.port ?? 443);
  const svc = (await storage.get(`/registry/core/services/${namespace}/${name}`))?.object;
  if (!svc) throw new Error(`service "${name}" not found`);
  const servicePort = (svc.spec?.ports ?? []).find((p: KubeObject) => p.port === port);
  if (!servicePort) throw new Error(`service "${name}" has no port ${port}`);
  const endpoints = (await storage.get(`/registry/core/endpoints/${namespace}/${name}`))?.object;
  for (const subset of endpoints?.subsets ?? []) {
    const address = subset.addresses?.[0]?.ip;
    const target = (subset.ports ?? []).find((p: KubeObject) =>
      servicePort.name ? p.name === servicePort.name : true,
    );
    if (address && target) {
      const host = address.includes(':') ? `[${address}]` : address;
      return {
        url: new URL(`https://${host}:${target.port}${service.path ?? ''}`),
        servername: `${name}.${namespace}.svc`,
      };
    }
  }
  throw new Error(`no endpoints available for service "${name}"`);
}

/** AdmissionReview v1 request: the object, the old object for UPDATE and DELETE, who asks and how. */
function review(uid: string, r: WriteRequest): KubeObject {
  const d = r.definition;
  const kind = { group: d.group, version: d.version, kind: d.kind };
  const resource = { group: d.group, version: d.version, resource: d.resource };
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind,
      resource,
      ...(r.subresource ? { subResource: r.subresource } : {}),
      requestKind: kind,
      requestResource: resource,
      name: r.name,
      ...(d.namespaced ? { namespace: r.namespace } : {}),
      operation: r.operation,
      userInfo: r.ctx.user,
      object: r.operation === 'DELETE' ? null : r.object,
      oldObject: r.operation === 'CREATE' ? null : (r.oldObject ?? null),
      dryRun: r.ctx.dryRun,
      options: {
        apiVersion: 'meta.k8s.io/v1',
        kind: r.operation === 'CREATE' ? 'CreateOptions' : r.operation === 'UPDATE' ? 'UpdateOptions' : 'DeleteOptions',
      },
    },
  };
}

export interface Target {
  url: URL;
  /** The TLS server name to verify (`<service>.<namespace>.svc` for Service client configs). */
  servername?: string;
}

/** POSTs the review to the target, verifying the webhook's certificate with its caBundle. */
async function post(target: Target, webhook: KubeObject, body: KubeObject): Promise<KubeObject> {
  // kube's timeoutSeconds: default 10, allowed 1 to 30.
  const seconds = Math.min(30, Math.max(1, Number(webhook.timeoutSeconds ?? 10) || 10));
  const parsed = await postJson(target, webhook.clientConfig ?? {}, seconds * 1000, body, 'AdmissionReview');
  if (typeof parsed?.response?.allowed !== 'boolean') throw new Error('the response has no response.allowed');
  return parsed;
}

/**
 * POSTs a JSON review over HTTPS to a resolved target, verifying the server's certificate with the client config's
 * caBundle; non-2xx answers, bodies over 3 MiB, non-JSON bodies and passing `timeoutMs` (a total deadline, not an idle
 * timeout) are errors. Shared with the CRD
 * conversion webhooks (`server/conversion/`); `what` names the expected answer in errors.
 */
export function postJson(
  target: Target,
  clientConfig: KubeObject,
  timeoutMs: number,
  body: KubeObject,
  what: string,
): Promise<KubeObject> {
  const { url, servername } = target;
  const ca = clientConfig.caBundle ? Buffer.from(clientConfig.caBundle, 'base64').toString('utf8') : undefined;
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      {
        method: 'POST',
        ca,
        servername,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_RESPONSE_BYTES) req.destroy(new Error('response too large'));
          else chunks.push(c);
        });
        res.on('end', () => {
          if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300)
            return reject(new Error(`the server responded with status ${res.statusCode}`));
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch {
            reject(new Error(`the response is not an ${what}`));
          }
        });
      },
    );
    // kube's message, with the timeout its REST client puts in the URL (admission wraps it in "failed to call webhook").
    const prefix = what === 'AdmissionReview' ? 'failed to call webhook: ' : '';
    const timedOut = () =>
      new Error(
        `${prefix}Post "${url.href}${url.search ? '&' : '?'}timeout=${timeoutMs / 1000}s": context deadline exceeded`,
      );
    setDeadline(req, timeoutMs, timedOut, reject);
    req.on('error', reject);
    req.end(payload);
  });
}
