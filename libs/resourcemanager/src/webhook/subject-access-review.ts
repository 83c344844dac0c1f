// SubjectAccessReview (authorization.k8s.io/v1 and v1beta1) as an authorization webhook receives it from the API
// server, turned into the attributes an authorizer decides on, and the status it answers with. v1beta1 differs only
// in the JSON key of the groups (`group`); the answer carries the apiVersion of the request.
import { parseFieldSelector, type FieldRequirement } from '@gardener-ts/api';

/** kube's fields.ParseSelector and fields.Requirement: the one implementation, in @gardener-ts/api. */
export { parseFieldSelector, type FieldRequirement };

export interface UserInfo {
  name: string;
  groups: string[];
  uid?: string;
  extra?: Record<string, string[]>;
}

export interface AuthorizationAttributes {
  user: UserInfo;
  /** False for non-resource requests (a URL path). */
  resourceRequest: boolean;
  verb: string;
  namespace: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  name: string;
  path: string;
  fieldSelector: FieldRequirement[];
  /** Why the field selector could not be read (the authorizer treats it as an error when it needs the selector). */
  fieldSelectorError?: string;
}

export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

export interface SubjectAccessReviewStatus {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

export class MalformedSubjectAccessReview extends Error {}

const SAR_VERSIONS = ['authorization.k8s.io/v1', 'authorization.k8s.io/v1beta1'];

interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  fieldSelector?: { rawSelector?: string; requirements?: { key: string; operator: string; values?: string[] }[] };
}

/** Kubernetes' fieldSelectorAsSelector: In/NotIn with exactly one value; errors are collected, valid ones kept. */
function fieldRequirements(reqs: { key: string; operator: string; values?: string[] }[]): {
  requirements: FieldRequirement[];
  errors: string[];
} {
  const requirements: FieldRequirement[] = [];
  const errors: string[] = [];
  for (const r of reqs) {
    const values = r.values ?? [];
    if (values.length > 1) errors.push('fieldSelectors do not yet support multiple values');
    else if (r.operator === 'In' || r.operator === 'NotIn') {
      if (values.length !== 1)
        errors.push(`fieldSelectors ${r.operator === 'In' ? 'in' : 'not in'} must have one value`);
      else requirements.push({ field: r.key, operator: r.operator === 'In' ? '=' : '!=', value: values[0]! });
    } else if (r.operator === 'Exists' || r.operator === 'DoesNotExist')
      errors.push(`fieldSelectors do not yet support ${r.operator}`);
    else errors.push(`"${r.operator}" is not a valid field selector operator`);
  }
  return { requirements, errors };
}

function selectorOf(ra: ResourceAttributes): Pick<AuthorizationAttributes, 'fieldSelector' | 'fieldSelectorError'> {
  const fs = ra.fieldSelector;
  if (!fs) return { fieldSelector: [] };
  let fieldSelector: FieldRequirement[] = [];
  let fieldSelectorError: string | undefined;
  if (fs.rawSelector) {
    try {
      fieldSelector = parseFieldSelector(fs.rawSelector);
    } catch (err) {
      fieldSelectorError = (err as Error).message;
    }
  }
  if (fs.requirements?.length) {
    const { requirements, errors } = fieldRequirements(fs.requirements);
    fieldSelector = requirements;
    fieldSelectorError = errors.length === 0 ? undefined : errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
  }
  return { fieldSelector, ...(fieldSelectorError ? { fieldSelectorError } : {}) };
}

/** The request body's attributes and apiVersion; throws MalformedSubjectAccessReview for anything else. */
export function decodeSubjectAccessReview(body: string): { apiVersion: string; attributes: AuthorizationAttributes } {
  let review: any;
  try {
    review = JSON.parse(body);
  } catch (err) {
    throw new MalformedSubjectAccessReview(`the request body is not JSON: ${(err as Error).message}`);
  }
  if (typeof review !== 'object' || review === null || Array.isArray(review))
    throw new MalformedSubjectAccessReview('the request body is not a JSON object');
  const apiVersion: string = review.apiVersion || 'authorization.k8s.io/v1';
  if ((review.kind && review.kind !== 'SubjectAccessReview') || !SAR_VERSIONS.includes(apiVersion)) {
    throw new MalformedSubjectAccessReview(
      `expected a SubjectAccessReview of ${SAR_VERSIONS.join(' or ')}, got ${review.kind} of ${apiVersion}`,
    );
  }
  const spec = review.spec ?? {};
  const groups: unknown = apiVersion.endsWith('v1beta1') ? spec.group : spec.groups;
  const user: UserInfo = {
    name: String(spec.user ?? ''),
    groups: Array.isArray(groups) ? groups.map(String) : [],
    uid: spec.uid,
    extra: spec.extra,
  };
  const ra: ResourceAttributes | undefined = spec.resourceAttributes ?? undefined;
  const base = {
    user,
    verb: '',
    namespace: '',
    group: '',
    version: '',
    resource: '',
    subresource: '',
    name: '',
    path: '',
    fieldSelector: [],
  };
  if (ra) {
    const attributes: AuthorizationAttributes = {
      ...base,
      resourceRequest: true,
      verb: ra.verb ?? '',
      namespace: ra.namespace ?? '',
      group: ra.group ?? '',
      version: ra.version ?? '',
      resource: ra.resource ?? '',
      subresource: ra.subresource ?? '',
      name: ra.name ?? '',
      ...selectorOf(ra),
    };
    return { apiVersion, attributes };
  }
  const nra = spec.nonResourceAttributes;
  return { apiVersion, attributes: { ...base, resourceRequest: false, verb: nra?.verb ?? '', path: nra?.path ?? '' } };
}

/** The status for a decision, as Gardener's authorizer webhook writes it. */
export function statusFor(decision: Decision, reason: string): SubjectAccessReviewStatus {
  if (decision === 'Allow') return { allowed: true };
  if (decision === 'Deny') return { allowed: false, denied: true, ...(reason ? { reason } : {}) };
  return { allowed: false, ...(reason ? { reason } : {}) };
}

/** The status when no decision could be taken: neither allowed nor denied, with `<code> <message>`. */
export function erroredStatus(code: number, message: string): SubjectAccessReviewStatus {
  return { allowed: false, evaluationError: `${code} ${message}` };
}

export function encodeSubjectAccessReview(apiVersion: string, status: SubjectAccessReviewStatus): string {
  return JSON.stringify({
    apiVersion,
    kind: 'SubjectAccessReview',
    metadata: { creationTimestamp: null },
    spec: {},
    status,
  });
}
