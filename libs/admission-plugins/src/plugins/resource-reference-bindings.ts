// The binding part of ResourceReferenceManager (gardener-apiserver plugin/pkg/global/resourcereferencemanager,
// ensureBindingReferences): on every CREATE and UPDATE of a SecretBinding or CredentialsBinding the Shoots of its
// namespace that use it must have one of its provider types; the requesting user must be allowed to read (`get`, a
// SubjectAccessReview) the credentials — a Secret, or for a CredentialsBinding a Secret or WorkloadIdentity — and each
// Quota it names; those must exist; a Secret must pass the provider secret sanity check (a dry-run create of a copy
// labelled `provider.shoot.gardener.cloud/<type>` per provider type, so that the provider extensions' secret webhooks
// judge it), a WorkloadIdentity must target the binding's provider type; and at most one Quota per scope (project,
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
import { secretBindingTypes, ShootProviderLabelPrefix } from './provider-secret-labels.js';
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

/** The provider types of a SecretBinding (comma-separated, none without a provider) or CredentialsBinding. */
export function bindingProviderTypes(kind: string, binding: KubeObject): string[] {
  return kind === 'SecretBinding' ? secretBindingTypes(binding) : [String(binding.provider?.type ?? '')];
}

/** Go's `%+v` of a string slice: `[a b]`. */
const goList = (values: readonly string[]) => `[${values.join(' ')}]`;

/**
 * The first Shoot of the binding's namespace that uses the binding but none of its provider types, as Gardener words
 * it; undefined when there is none.
 */
export function shootProviderMismatch(
  kind: string,
  binding: KubeObject,
  types: readonly string[],
  shoots: readonly KubeObject[],
): string | undefined {
  const field = kind === 'SecretBinding' ? 'secretBindingName' : 'credentialsBindingName';
  const name = binding.metadata?.name;
  for (const shoot of shoots) {
    if (shoot.spec?.[field] !== name) continue;
    const type = String(shoot.spec?.provider?.type ?? '');
    if (!types.includes(type))
      return `${kind} is referenced by shoot "${shoot.metadata?.name ?? ''}", but provider types (${goList(types)}) do not match with the shoot provider type "${type}"`;
  }
  return undefined;
}

/**
 * The copy of `secret` Gardener's sanity check creates with dry run for `providerType`: a generated name after the
 * Secret's, its annotations, type and data, its labels plus `provider.shoot.gardener.cloud/<type>=true`.
 */
export function sanityCheckSecret(secret: KubeObject, providerType: string): KubeObject {
  const { name, namespace, annotations, labels } = secret.metadata ?? {};
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      generateName: name,
      namespace,
      ...(annotations ? { annotations } : {}),
      labels: { ...labels, [ShootProviderLabelPrefix + providerType]: 'true' },
    },
    ...(secret.type !== undefined ? { type: secret.type } : {}),
    ...(secret.data !== undefined ? { data: secret.data } : {}),
  };
}

/** Gardener's provider secret sanity check: the first provider type whose labelled copy the API server refuses. */
async function sanityCheckProviderSecret(
  listers: Listers,
  secret: KubeObject,
  types: readonly string[],
): Promise<string | undefined> {
  if (!listers.createDryRun) return undefined;
  for (const type of types) {
    try {
      await listers.createDryRun(sanityCheckSecret(secret, type));
    } catch (err) {
      return `${type} provider secret sanity check failed: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  return undefined;
}

/** Why the binding of the request may not be stored, or undefined. */
export async function bindingReferenceError(a: AdmissionAttributes, listers: Listers): Promise<string | undefined> {
  const kind = a.kind.kind;
  const binding = a.object!;
  const credentials = bindingCredentials(kind, binding);
  if (typeof credentials === 'string') return credentials;
  const types = bindingProviderTypes(kind, binding);
  const bindingNamespace = a.namespace ?? binding.metadata?.namespace;
  const mismatch = shootProviderMismatch(
    kind,
    binding,
    types,
    await listers.list('core.gardener.cloud/v1beta1', 'Shoot', bindingNamespace),
  );
  if (mismatch) return mismatch;

  const { group, resource, name, namespace } = credentials;
  if (!(await mayRead(a, listers, { verb: 'get', group, resource, name, ...(namespace ? { namespace } : {}) })))
    return `${kind} cannot reference a ${credentials.kind} you are not allowed to read`;
  const target = await listers.get(credentials.apiVersion, credentials.kind, name, namespace);
  if (!target) return notFoundText(resource, group, name);
  if (credentials.kind === 'Secret') {
    const failed = await sanityCheckProviderSecret(listers, target, types);
    if (failed) return failed;
  } else {
    const targetType = String(target.spec?.targetSystem?.type ?? '');
    if (!types.includes(targetType))
      return `CredentialsBinding provider type (${goList(types)}) does not match with WorkloadIdentity provider type ${targetType}`;
  }

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
