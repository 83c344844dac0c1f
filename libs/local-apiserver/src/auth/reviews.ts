// The review APIs, answered and never stored. authentication.k8s.io: TokenReview (whose token is this?) and
// SelfSubjectReview (who am I? — `kubectl auth whoami`). authorization.k8s.io: SubjectAccessReview (may X do Y?),
// SelfSubjectAccessReview (may I do Y? — `kubectl auth can-i`) and SelfSubjectRulesReview (what may I do here? —
// `kubectl auth can-i --list`).
import { errors } from '../api/errors.js';
import type { UserInfo } from '../server/context.js';
import type { KubeObject } from '../storage/types.js';
import type { Attributes, Decision } from './attributes.js';
import type { AuthorizerChain } from './authorizer.js';
import type { RbacAuthorizer } from './rbac.js';
import { authenticate, type Authenticator } from '../http/authn.js';
import type { IncomingMessage } from 'node:http';
import type { ServiceAccountTokens } from './service-account-tokens.js';

export type ReviewHandler = (body: KubeObject, requester: UserInfo) => Promise<KubeObject>;

/** A SubjectAccessReview's `fieldSelector.rawSelector` (kube's AuthorizeWithSelectors; the Node authorizer reads it). */
function fieldSelector(r: KubeObject): { fieldSelector?: string } {
  return r.fieldSelector?.rawSelector ? { fieldSelector: String(r.fieldSelector.rawSelector) } : {};
}

function attributesOf(spec: KubeObject, user: UserInfo): Attributes {
  if (spec.resourceAttributes) {
    const r = spec.resourceAttributes;
    return {
      user,
      kind: 'resource',
      resource: {
        verb: r.verb ?? '',
        namespace: r.namespace ?? '',
        group: r.group ?? '',
        version: r.version ?? '',
        resource: r.resource ?? '',
        subresource: r.subresource ?? '',
        name: r.name ?? '',
        ...fieldSelector(r),
      },
    };
  }
  if (spec.nonResourceAttributes)
    return {
      user,
      kind: 'path',
      verb: spec.nonResourceAttributes.verb ?? '',
      path: spec.nonResourceAttributes.path ?? '',
    };
  throw errors.invalid('SubjectAccessReview', 'authorization.k8s.io', '', [
    {
      field: 'spec.resourceAttributes',
      reason: 'FieldValueRequired',
      message: 'Required value: exactly one of nonResourceAttributes or resourceAttributes must be specified',
    },
  ]);
}

function status(decision: Decision): KubeObject {
  return {
    allowed: decision.allowed,
    ...(decision.reason ? { reason: decision.reason } : {}),
    ...(!decision.allowed && decision.denied ? { denied: true } : {}),
  };
}

function answer(body: KubeObject, result: KubeObject): KubeObject {
  return { ...body, metadata: { ...(body.metadata ?? {}), creationTimestamp: null }, status: result };
}

/** TokenReview: who a bearer token belongs to, for the requested audiences (default: the API server's). */
async function reviewToken(
  spec: KubeObject,
  authenticators: Authenticator[],
  tokens: ServiceAccountTokens,
): Promise<KubeObject> {
  const token = String(spec.token ?? '');
  const audiences: string[] | undefined = spec.audiences?.length ? spec.audiences : undefined;
  const sa = await tokens.verify(token, audiences);
  if (sa) return { authenticated: true, user: sa.user, audiences: sa.audiences };
  if (!audiences) {
    // Static tokens: run the bearer authenticators on the token as if it came in a request's header.
    const user = await authenticate(authenticators, {
      headers: { authorization: `Bearer ${token}` },
      socket: {},
    } as IncomingMessage);
    if (user) return { authenticated: true, user };
  }
  return { authenticated: false, error: 'token not valid' };
}

/**
 * SelfSubjectReview (`kubectl auth whoami`): the requester's own user info — the impersonated user's under
 * impersonation. As in kube, the answer is a fresh object (nothing of the request is echoed back) created now.
 */
function reviewSelf(body: KubeObject, requester: UserInfo): KubeObject {
  const extra = requester.extra && Object.keys(requester.extra).length > 0 ? { extra: requester.extra } : {};
  return {
    apiVersion: body.apiVersion,
    kind: body.kind,
    metadata: { creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
    status: {
      userInfo: {
        username: requester.username,
        ...(requester.uid ? { uid: requester.uid } : {}),
        groups: requester.groups,
        ...extra,
      },
    },
  };
}

/** `_rbac` is unused: rules reviews ask the whole chain (kept for the caller's signature). */
export function reviewHandlers(
  authorizer: AuthorizerChain,
  _rbac: RbacAuthorizer,
  authenticators: Authenticator[],
  tokens: ServiceAccountTokens,
): Map<string, ReviewHandler> {
  return new Map<string, ReviewHandler>([
    [
      'authentication.k8s.io/tokenreviews',
      async (body) => answer(body, await reviewToken(body.spec ?? {}, authenticators, tokens)),
    ],
    ['authentication.k8s.io/selfsubjectreviews', async (body, requester) => reviewSelf(body, requester)],
    [
      'authorization.k8s.io/subjectaccessreviews',
      async (body) => {
        const spec = body.spec ?? {};
        const user: UserInfo = {
          username: spec.user ?? '',
          uid: spec.uid,
          groups: spec.groups ?? [],
          extra: spec.extra,
        };
        return answer(body, status(await authorizer.authorize(attributesOf(spec, user))));
      },
    ],
    [
      'authorization.k8s.io/selfsubjectaccessreviews',
      async (body, requester) =>
        answer(body, status(await authorizer.authorize(attributesOf(body.spec ?? {}, requester)))),
    ],
    [
      'authorization.k8s.io/selfsubjectrulesreviews',
      async (body, requester) => {
        const rules = authorizer.rulesFor(requester, body.spec?.namespace ?? '');
        return answer(body, {
          resourceRules: rules.resourceRules,
          nonResourceRules: rules.nonResourceRules,
          incomplete: rules.incomplete,
          ...(rules.error ? { evaluationError: rules.error } : {}),
        });
      },
    ],
  ]);
}
