// An authorization webhook as a link of the authorizer chain (where Gardener's SeedAuthorizer plugs in): each
// undecided request is POSTed as a SubjectAccessReview v1; `allowed` allows, `denied` denies, anything else
// (including an unreachable webhook) is no opinion, so the chain goes on and ends in a denial.
import { request as httpsRequest } from 'node:https';
import { setDeadline } from '../http/client-deadline.js';
import type { Logger } from '@gardener-ts/logging';
import type { KubeObject } from '../storage/types.js';
import type { Attributes, Authorizer, Decision } from './attributes.js';

export interface AuthorizationWebhookOptions {
  url: string;
  /** PEM CA bundle that signed the webhook's serving certificate. */
  caPem?: string;
  /** The total deadline of one SubjectAccessReview call (default 30 s, kube's webhook request timeout). */
  timeoutMs?: number;
}

/** kube's DefaultRequestTimeout of webhook clients (authorization webhooks included). */
const DEFAULT_TIMEOUT_MS = 30_000;

function subjectAccessReview(a: Attributes): KubeObject {
  const spec: KubeObject = {
    user: a.user.username,
    groups: a.user.groups,
    ...(a.user.uid ? { uid: a.user.uid } : {}),
    ...(a.user.extra ? { extra: a.user.extra } : {}),
  };
  if (a.kind === 'path') spec.nonResourceAttributes = { path: a.path, verb: a.verb };
  else {
    const r = a.resource;
    spec.resourceAttributes = {
      namespace: r.namespace,
      verb: r.verb,
      group: r.group,
      version: r.version,
      resource: r.resource,
      subresource: r.subresource,
      name: r.name,
    };
  }
  return { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec };
}

export function webhookAuthorizer(options: AuthorizationWebhookOptions, log?: Logger): Authorizer {
  return {
    // kube's webhook authorizer cannot enumerate a user's rules: a rules review through it is incomplete.
    rulesFor: () => ({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      error: 'webhook authorizer does not support user rule resolution',
    }),
    authorize: (a) =>
      new Promise<Decision | undefined>((resolve) => {
        const payload = JSON.stringify(subjectAccessReview(a));
        let settled = false;
        const noOpinion = (why: string) => {
          if (settled) return;
          settled = true;
          log?.info({ reason: why }, 'Authorization webhook gave no decision');
          resolve(undefined);
        };
        const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
        const req = httpsRequest(
          options.url,
          {
            method: 'POST',
            ca: options.caPem,
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
          },
          (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => {
              if (settled) return;
              try {
                const status = JSON.parse(body)?.status ?? {};
                settled = status.allowed === true || status.denied === true;
                if (status.allowed === true) return resolve({ allowed: true, reason: String(status.reason ?? '') });
                if (status.denied === true)
                  return resolve({ allowed: false, denied: true, reason: String(status.reason ?? '') });
                noOpinion('neither allowed nor denied');
              } catch {
                noOpinion('malformed response');
              }
            });
          },
        );
        setDeadline(
          req,
          timeoutMs,
          () => new Error(`Post "${options.url}": context deadline exceeded`),
          (err) => noOpinion(err.message),
        );
        req.on('error', (err) => noOpinion(err.message));
        req.end(payload);
      }),
  };
}
