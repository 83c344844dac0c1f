// User impersonation (kube's WithImpersonation filter): the Impersonate-User, Impersonate-Group, Impersonate-Uid and
// Impersonate-Extra-<key> headers (kubectl --as, --as-group, --as-uid, --as-user-extra). Each thing asked for must be
// allowed to the authenticated requester for the verb `impersonate` — users, groups, serviceaccounts (in their
// namespace, for `system:serviceaccount:<ns>:<name>`), uids and userextras/<key> — else kube's 403. The request then
// goes on as the impersonated user, who gets `system:authenticated` (or `system:unauthenticated` for
// system:anonymous) unless a group already says so, exactly as kube adds them.
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../server/context.js';
import { forbidden, type Attributes, type ResourceAttributes } from './attributes.js';
import type { AuthorizerChain } from './authorizer.js';

const USER_HEADER = 'impersonate-user';
const GROUP_HEADER = 'impersonate-group';
const UID_HEADER = 'impersonate-uid';
const EXTRA_PREFIX = 'impersonate-extra-';
const SA_PREFIX = 'system:serviceaccount:';
const ANONYMOUS = 'system:anonymous';
const AUTHENTICATED = 'system:authenticated';
const UNAUTHENTICATED = 'system:unauthenticated';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** One thing the requester asks to impersonate (kube's ObjectReference of the impersonation request). */
interface ImpersonationRequest {
  kind: 'ServiceAccount' | 'User' | 'Group' | 'UserExtra' | 'UID';
  namespace: string;
  name: string;
  /** The extra's key, for UserExtra. */
  key: string;
}

export type ImpersonationResult = { user: UserInfo } | { internalError: string };

/** kube's serviceaccount.SplitUsername: `system:serviceaccount:<namespace>:<name>` with valid names, else not a ServiceAccount. */
function splitServiceAccount(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SA_PREFIX)) return undefined;
  const parts = username.slice(SA_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts;
  if (!namespace || namespace.length > 63 || !DNS1123_LABEL.test(namespace)) return undefined;
  if (!name || name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) return undefined;
  return { namespace, name };
}

/** `%`-decoding of an extra's key (kube decodes with url.PathUnescape and keeps the raw key when that fails). */
function unescapeKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** Go's `%v` of the ObjectReference list, for kube's "requested [...] without impersonating a user" error. */
function describe(requests: ImpersonationRequest[]): string {
  const v1 = (r: ImpersonationRequest) =>
    r.kind === 'UserExtra' || r.kind === 'UID' ? 'authentication.k8s.io/v1' : '';
  return `[${requests.map((r) => `{${r.kind} ${r.namespace} ${r.name}  ${v1(r)}  ${r.kind === 'UserExtra' ? r.key : ''}}`).join(' ')}]`;
}

function headerValues(req: IncomingMessage, name: string): string[] {
  const distinct = (req as IncomingMessage & { headersDistinct?: Record<string, string[]> }).headersDistinct;
  const values =
    distinct?.[name] ??
    (req.headers[name] === undefined ? [] : ([] as string[]).concat(req.headers[name] as string | string[]));
  return values;
}

function requestsOf(req: IncomingMessage): { requests: ImpersonationRequest[]; hasUser: boolean; error?: string } {
  const requests: ImpersonationRequest[] = [];
  const user = headerValues(req, USER_HEADER)[0] ?? '';
  const hasUser = user.length > 0;
  if (hasUser) {
    const sa = splitServiceAccount(user);
    requests.push(
      sa
        ? { kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name, key: '' }
        : { kind: 'User', namespace: '', name: user, key: '' },
    );
  }
  const groups = headerValues(req, GROUP_HEADER);
  for (const group of groups) requests.push({ kind: 'Group', namespace: '', name: group, key: '' });
  let hasExtra = false;
  for (const header of Object.keys(req.headers)) {
    if (!header.startsWith(EXTRA_PREFIX)) continue;
    hasExtra = true;
    const key = unescapeKey(header.slice(EXTRA_PREFIX.length).toLowerCase());
    for (const value of headerValues(req, header))
      requests.push({ kind: 'UserExtra', namespace: '', name: value, key });
  }
  const uid = headerValues(req, UID_HEADER)[0] ?? '';
  if (uid) requests.push({ kind: 'UID', namespace: '', name: uid, key: '' });
  if ((groups.length > 0 || hasExtra || uid) && !hasUser)
    return { requests, hasUser, error: `requested ${describe(requests)} without impersonating a user` };
  return { requests, hasUser };
}

function attributesOf(requestor: UserInfo, r: ImpersonationRequest): Attributes {
  const resource: ResourceAttributes = {
    verb: 'impersonate',
    namespace: r.namespace,
    group: '',
    version: '',
    resource: '',
    subresource: '',
    name: r.name,
  };
  switch (r.kind) {
    case 'ServiceAccount':
      resource.resource = 'serviceaccounts';
      break;
    case 'User':
      resource.resource = 'users';
      break;
    case 'Group':
      resource.resource = 'groups';
      break;
    case 'UserExtra':
      Object.assign(resource, {
        group: 'authentication.k8s.io',
        version: 'v1',
        resource: 'userextras',
        subresource: r.key,
      });
      break;
    case 'UID':
      Object.assign(resource, { group: 'authentication.k8s.io', version: 'v1', resource: 'uids' });
      break;
  }
  return { user: requestor, kind: 'resource', resource };
}

/** Whether the request carries any impersonation header. */
export function wantsImpersonation(req: IncomingMessage): boolean {
  return Object.keys(req.headers).some(
    (h) => h === USER_HEADER || h === GROUP_HEADER || h === UID_HEADER || h.startsWith(EXTRA_PREFIX),
  );
}

/**
 * The user a request acts as: the requester itself without impersonation headers, else the impersonated user once the
 * requester is allowed every part of it. Throws kube's 403 for a part that is not allowed; a group, extra or uid without
 * a user is kube's plain-text 500 (`internalError`). Removes the impersonation headers, as kube does.
 */
export async function impersonate(
  req: IncomingMessage,
  requestor: UserInfo,
  authorizer: AuthorizerChain,
): Promise<ImpersonationResult> {
  if (!wantsImpersonation(req)) return { user: requestor };
  const { requests, error } = requestsOf(req);
  if (error) return { internalError: `Internal Server Error: ${JSON.stringify(req.url ?? '')}: ${error}` };
  const groupsSpecified = headerValues(req, GROUP_HEADER).length > 0;
  let username = '';
  let uid = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const r of requests) {
    switch (r.kind) {
      case 'ServiceAccount':
        username = `${SA_PREFIX}${r.namespace}:${r.name}`;
        if (!groupsSpecified) groups = ['system:serviceaccounts', `system:serviceaccounts:${r.namespace}`];
        break;
      case 'User':
        username = r.name;
        break;
      case 'Group':
        groups.push(r.name);
        break;
      case 'UserExtra':
        (extra[r.key] ??= []).push(r.name);
        break;
      case 'UID':
        uid = r.name;
        break;
    }
    const attributes = attributesOf(requestor, r);
    const decision = await authorizer.authorize(attributes);
    if (!decision.allowed) throw forbidden(attributes, decision.reason);
  }
  if (username !== ANONYMOUS) {
    if (!groups.includes(AUTHENTICATED) && !groups.includes(UNAUTHENTICATED)) groups.push(AUTHENTICATED);
  } else if (!groups.includes(UNAUTHENTICATED)) {
    groups.push(UNAUTHENTICATED);
  }
  for (const header of Object.keys(req.headers))
    if (header === USER_HEADER || header === GROUP_HEADER || header === UID_HEADER || header.startsWith(EXTRA_PREFIX))
      delete req.headers[header];
  return { user: { username, groups, ...(uid ? { uid } : {}), ...(Object.keys(extra).length > 0 ? { extra } : {}) } };
}
