// The review APIs of authorization.k8s.io: SubjectAccessReview (may X do Y?), SelfSubjectAccessReview (may I do
// Y? — `kubectl auth can-i`) and SelfSubjectRulesReview (what may I do here? — `kubectl auth can-i --list`).
// They are answered, never stored.
import { errors } from '../api/errors.js';
import type { UserInfo } from '../server/context.js';
import type { KubeObject } from '../storage/types.js';
import type { Attributes, Decision } from './attributes.js';
import type { AuthorizerChain } from './authorizer.js';
import type { RbacAuthorizer } from './rbac.js';

export type ReviewHandler = (body: KubeObject, requester: UserInfo) => Promise<KubeObject>;

function attributesOf(spec: KubeObject, user: UserInfo): Attributes {
  if (spec.resourceAttributes) {
    const r = spec.resourceAttributes;
    return {
      user,
      kind: 'resource',
      resource: { verb: r.verb ?? '', namespace: r.namespace ?? '', group: r.group ?? '', version: r.version ?? '', resource: r.resource ?? '', subresource: r.subresource ?? '', name: r.name ?? '' },
    };
  }
  if (spec.nonResourceAttributes) return { user, kind: 'path', verb: spec.nonResourceAttributes.verb ?? '', path: spec.nonResourceAttributes.path ?? '' };
  throw errors.invalid('SubjectAccessReview', 'authorization.k8s.io', '', [
    { field: 'spec.resourceAttributes', reason: 'FieldValueRequired', message: 'Required value: exactly one of nonResourceAttributes or resourceAttributes must be specified' },
  ]);
}

function status(decision: Decision): KubeObject {
  return { allowed: decision.allowed, ...(decision.reason ? { reason: decision.reason } : {}), ...(!decision.allowed && decision.denied ? { denied: true } : {}) };
}

function answer(body: KubeObject, result: KubeObject): KubeObject {
  return { ...body, metadata: { ...(body.metadata ?? {}), creationTimestamp: null }, status: result };
}

export function reviewHandlers(authorizer: AuthorizerChain, rbac: RbacAuthorizer): Map<string, ReviewHandler> {
  return new Map<string, ReviewHandler>([
    [
      'authorization.k8s.io/subjectaccessreviews',
      async (body) => {
        const spec = body.spec ?? {};
        const user: UserInfo = { username: spec.user ?? '', uid: spec.uid, groups: spec.groups ?? [], extra: spec.extra };
        return answer(body, status(await authorizer.authorize(attributesOf(spec, user))));
      },
    ],
    ['authorization.k8s.io/selfsubjectaccessreviews', async (body, requester) => answer(body, status(await authorizer.authorize(attributesOf(body.spec ?? {}, requester))))],
    [
      'authorization.k8s.io/selfsubjectrulesreviews',
      async (body, requester) => {
        const rules = rbac.rulesFor(requester, body.spec?.namespace ?? '');
        const superuser = requester.groups.includes('system:masters');
        const resourceRules = superuser ? [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] : rules.filter((r) => r.resources).map(({ nonResourceURLs: _n, ...r }) => r);
        const nonResourceRules = superuser ? [{ verbs: ['*'], nonResourceURLs: ['*'] }] : rules.filter((r) => r.nonResourceURLs).map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs }));
        return answer(body, { resourceRules, nonResourceRules, incomplete: false });
      },
    ],
  ]);
}
