// The binding part of ResourceReferenceManager (gardener-apiserver plugin/pkg/global/resourcereferencemanager,
// ensureBindingReferences): on every CREATE and UPDATE of a SecretBinding or CredentialsBinding the requesting user
// must be allowed to read (`get`, a SubjectAccessReview) the credentials — a Secret, or for a CredentialsBinding a
// Secret or WorkloadIdentity — and each Quota it names; those must exist; and at most one Quota per scope (project,
// credentials) may be named.
import {
  allow,
  forbidden,
  type AccessAttributes,
  type AdmissionAttributes,
  type AdmissionDecision,
  type KubeObject,
  type Listers,
} from '../attributes.js';
import { notFoundText } from './resource-reference-shoot.js';

const SECURITY_V1ALPHA1 = 'security.gardener.cloud/v1alpha1';

/** The credentials a binding names, with the resource a read of them is asked for. */
interface Credentials {
  apiVersion: string;
  kind: 'Secret' | 'WorkloadIdentity';
  group: string;
  resource: string;
  name: string;
  namespace?: string;
}

/** The credentials of a SecretBinding or CredentialsBinding, or the error text for an unknown reference. */
export function bindingCredentials(kind: string, binding: KubeObject): Credentials | string {
  const namespace = binding.metadata?.namespace;
  if (kind === 'SecretBinding') {
    const ref = binding.secretRef ?? {};
    return {
      apiVersion: 'v1',
      kind: 'Secret',
      group: '',
      resource: 'secrets',
      name: ref.name ?? '',
      namespace: ref.namespace ?? namespace,
    };
  }
  const ref = binding.credentialsRef ?? {};
  const target = { name: ref.name ?? '', namespace: ref.namespace ?? namespace };
  if (ref.apiVersion === 'v1') return { apiVersion: 'v1', kind: 'Secret', group: '', resource: 'secrets', ...target };
  if (ref.apiVersion === SECURITY_V1ALPHA1)
    return {
      apiVersion: SECURITY_V1ALPHA1,
      kind: 'WorkloadIdentity',
      group: 'security.gardener.cloud',
      resource: 'workloadidentities',
      ...target,
    };
  return 'unknown credentials ref: CredentialsBinding is referencing neither a Secret nor a WorkloadIdentity';
}

/** Gardener's helper.QuotaScope: `project`, `credentials`, or undefined for an unknown scope. */
export function quotaScope(quota: KubeObject): 'project' | 'credentials' | undefined {
  const scope = `${quota.spec?.scope?.apiVersion ?? ''}/${quota.spec?.scope?.kind ?? ''}`;
  if (scope === 'core.gardener.cloud/v1beta1/Project') return 'project';
  if (scope === 'v1/Secret' || scope === `${SECURITY_V1ALPHA1}/WorkloadIdentity`) return 'credentials';
  return undefined;
}

async function mayRead(a: AdmissionAttributes, listers: Listers, resource: AccessAttributes): Promise<boolean> {
  return listers.authorize !== undefined && (await listers.authorize(a.userInfo, resource));
}

/** Why the binding of the request may not be stored, or undefined. */
export async function bindingReferenceError(a: AdmissionAttributes, listers: Listers): Promise<string | undefined> {
  const kind = a.kind.kind;
  const binding = a.object!;
  const credentials = bindingCredentials(kind, binding);
  if (typeof credentials === 'string') return credentials;
  const { group, resource, name, namespace } = credentials;
  if (!(await mayRead(a, listers, { verb: 'get', group, resource, name, ...(namespace ? { namespace } : {}) })))
    return `${kind} cannot reference a ${credentials.kind} you are not allowed to read`;
  if (!(await listers.get(credentials.apiVersion, credentials.kind, name, namespace)))
    return notFoundText(resource, group, name);

  const counts = { project: 0, credentials: 0 };
  for (const ref of (binding.quotas ?? []) as { name?: string; namespace?: string }[]) {
    const quotaName = ref.name ?? '';
    const quotaNamespace = ref.namespace ?? binding.metadata?.namespace;
    const access: AccessAttributes = {
      verb: 'get',
      group: 'core.gardener.cloud',
      resource: 'quotas',
      name: quotaName,
      ...(quotaNamespace ? { namespace: quotaNamespace } : {}),
    };
    if (!(await mayRead(a, listers, access))) return `${kind} cannot reference a quota you are not allowed to read`;
    const quota = await listers.get('core.gardener.cloud/v1beta1', 'Quota', quotaName, quotaNamespace);
    if (!quota) return notFoundText('quota', 'core.gardener.cloud', quotaName);
    const scope = quotaScope(quota);
    if (!scope) return 'unknown quota scope';
    counts[scope]++;
    if (counts.project > 1 || counts.credentials > 1)
      return 'only one quota per scope (project or credentials) can be assigned';
  }
  return undefined;
}

/** A SecretBinding or CredentialsBinding on CREATE or UPDATE: Forbidden with the first failing check. */
export async function checkBindingReferences(a: AdmissionAttributes, listers: Listers): Promise<AdmissionDecision> {
  const error = await bindingReferenceError(a, listers);
  return error ? forbidden(a, error) : allow();
}
