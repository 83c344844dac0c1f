// What a request asks to do, in the terms authorizers decide on (kube's authorizer.Attributes), and the
// 403 Status kube answers when it is not allowed.
import { ApiError } from '../api/errors.js';
import type { UserInfo } from '../server/context.js';

export interface ResourceAttributes {
  verb: string;
  namespace: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  name: string;
  /** The raw field selector of a list or watch (kube's AuthorizeWithSelectors; the Node authorizer reads it). */
  fieldSelector?: string;
}

export type Attributes = { user: UserInfo } & (
  { kind: 'resource'; resource: ResourceAttributes } | { kind: 'path'; verb: string; path: string }
);

/**
 * An authorizer's decision. `allowed: false` without `denied` is no opinion with a reason (kube's DecisionNoOpinion
 * and its reason): the chain goes on and, if nobody decides, reports the reasons joined.
 */
export type Decision = { allowed: true; reason: string } | { allowed: false; reason: string; denied?: boolean };

/** A resource rule of a SelfSubjectRulesReview (authorization.k8s.io/v1 ResourceRule). */
export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

/** A non-resource rule of a SelfSubjectRulesReview (authorization.k8s.io/v1 NonResourceRule). */
export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs?: string[];
}

/** What one authorizer can enumerate of a user's permissions in a namespace (kube's RuleResolver.RulesFor). */
export interface RuleSet {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  /** The authorizer may allow more than it listed. */
  incomplete: boolean;
  error?: string;
}

export interface Authorizer {
  authorize(attributes: Attributes): Promise<Decision | undefined> | Decision | undefined;
  /** Enumerates the user's rules; an authorizer without it contributes nothing (and is not incomplete). */
  rulesFor?(user: UserInfo, namespace: string): RuleSet;
}

/** kube's verb of a resource request: get/list/watch/create/update/patch/delete/deletecollection. */
export function requestVerb(method: string, named: boolean, watch: boolean): string {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return watch ? 'watch' : named ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return named ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}

/** The lower-case verb of a non-resource request (`get` for GET, `post` for POST, ...). */
export function pathVerb(method: string): string {
  return method === 'HEAD' ? 'get' : method.toLowerCase();
}

/** kube's Forbidden Status: `pods "x" is forbidden: User "bob" cannot get resource "pods" in API group "" in the namespace "default"`. */
export function forbidden(a: Attributes, reason: string): ApiError {
  const who = `User "${a.user.username}"`;
  const why = reason ? `: ${reason}` : '';
  if (a.kind === 'path')
    return new ApiError(403, 'Forbidden', `forbidden: ${who} cannot ${a.verb} path "${a.path}"${why}`);
  const r = a.resource;
  const resource = r.subresource ? `${r.resource}/${r.subresource}` : r.resource;
  const subject = r.group ? `${resource}.${r.group}` : resource;
  const scope = r.namespace ? `in the namespace "${r.namespace}"` : 'at the cluster scope';
  return new ApiError(
    403,
    'Forbidden',
    `${subject}${r.name ? ` "${r.name}"` : ''} is forbidden: ${who} cannot ${r.verb} resource "${resource}" in API group "${r.group}" ${scope}${why}`,
    { name: r.name || undefined, group: r.group, kind: r.resource },
  );
}
