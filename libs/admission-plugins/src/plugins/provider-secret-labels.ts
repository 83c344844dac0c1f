// gardener-admission-controller's provider secret labels handler
// (pkg/admissioncontroller/webhook/admission/providersecretlabels, served alone at `/webhooks/sync-provider-secret-labels`,
// registered as the mutating `sync-provider-secret-labels.gardener.cloud` for Secrets and InternalSecrets in project
// namespaces): a written Secret gets `provider.shoot.gardener.cloud/<type>=true` for each provider type of the
// SecretBindings and CredentialsBindings referencing it (an InternalSecret: of the CredentialsBindings), and loses every
// other label with that prefix. An object no binding references keeps its labels: the binding controllers release them.
import {
  allow,
  mutated,
  type AdmissionAttributes,
  type AdmissionDecision,
  type KubeObject,
  type Listers,
} from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import { denied } from './update-restriction.js';

/** The prefix of the provider type labels (Gardener's `LabelShootProviderPrefix`). */
export const ShootProviderLabelPrefix = 'provider.shoot.gardener.cloud/';

const CORE_V1BETA1 = 'core.gardener.cloud/v1beta1';
const SECURITY_V1ALPHA1 = 'security.gardener.cloud/v1alpha1';

/** What a binding may reference: the credentials' API version, kind, namespace and name. */
export interface CredentialsTarget {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

/** Gardener's `GetSecretBindingTypes`: a SecretBinding's comma-separated provider types; none without a provider. */
export function secretBindingTypes(binding: KubeObject): string[] {
  return binding.provider ? String(binding.provider.type ?? '').split(',') : [];
}

/** Whether a SecretBinding references the Secret `target` (references default to the binding's namespace). */
function secretBindingReferences(binding: KubeObject, target: CredentialsTarget): boolean {
  const ref = binding.secretRef ?? {};
  return ref.name === target.name && (ref.namespace ?? binding.metadata?.namespace) === target.namespace;
}

/** Whether a CredentialsBinding references `target`. */
function credentialsBindingReferences(binding: KubeObject, target: CredentialsTarget): boolean {
  const ref = binding.credentialsRef ?? {};
  return (
    ref.apiVersion === target.apiVersion &&
    ref.kind === target.kind &&
    ref.name === target.name &&
    (ref.namespace ?? binding.metadata?.namespace) === target.namespace
  );
}

/** The provider types of the bindings that reference `target`, sorted and without duplicates. */
export function providerTypesOf(
  target: CredentialsTarget,
  secretBindings: readonly KubeObject[],
  credentialsBindings: readonly KubeObject[],
): string[] {
  const types = new Set<string>();
  if (target.apiVersion === 'v1' && target.kind === 'Secret') {
    for (const b of secretBindings)
      if (secretBindingReferences(b, target)) secretBindingTypes(b).forEach((t) => types.add(t));
  }
  for (const b of credentialsBindings)
    if (credentialsBindingReferences(b, target)) types.add(String(b.provider?.type ?? ''));
  return [...types].sort();
}

/**
 * `object` with exactly one provider label per type and no other label of the prefix; undefined when it has them
 * already or when there are no types (then its labels stay as they are).
 */
export function withProviderLabels(object: KubeObject, types: readonly string[]): KubeObject | undefined {
  if (types.length === 0) return undefined;
  const current = object.metadata?.labels ?? {};
  const labels = Object.fromEntries(Object.entries(current).filter(([k]) => !k.startsWith(ShootProviderLabelPrefix)));
  for (const type of types) labels[ShootProviderLabelPrefix + type] = 'true';
  const same =
    Object.keys(labels).length === Object.keys(current).length &&
    Object.entries(labels).every(([k, v]) => current[k] === v);
  return same ? undefined : { ...object, metadata: { ...object.metadata, labels } };
}

const isSecret = (a: AdmissionAttributes) => a.kind.group === '' && a.kind.kind === 'Secret';
const isInternalSecret = (a: AdmissionAttributes) =>
  a.kind.group === 'core.gardener.cloud' && a.kind.kind === 'InternalSecret';

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function syncLabels(a: AdmissionAttributes, listers: Listers): Promise<AdmissionDecision> {
  const object = a.object!;
  const target: CredentialsTarget = {
    ...(isSecret(a) ? { apiVersion: 'v1', kind: 'Secret' } : { apiVersion: CORE_V1BETA1, kind: 'InternalSecret' }),
    namespace: object.metadata?.namespace ?? a.namespace ?? '',
    name: object.metadata?.name ?? a.name ?? '',
  };

  let secretBindings: KubeObject[] = [];
  if (isSecret(a)) {
    try {
      secretBindings = await listers.list(CORE_V1BETA1, 'SecretBinding');
    } catch (err) {
      return denied(
        `failed fetching provider types from SecretBindings: failed to list SecretBindings: ${messageOf(err)}`,
      );
    }
  }
  let credentialsBindings: KubeObject[];
  try {
    credentialsBindings = await listers.list(SECURITY_V1ALPHA1, 'CredentialsBinding');
  } catch (err) {
    return denied(
      `failed fetching provider types from CredentialsBindings: failed to list CredentialsBindings: ${messageOf(err)}`,
    );
  }
  const labelled = withProviderLabels(object, providerTypesOf(target, secretBindings, credentialsBindings));
  return labelled ? mutated(labelled) : allow();
}

/** The provider secret labels handler (a defaulter: mutating phase only). */
export const ProviderSecretLabels: AdmissionPlugin = {
  name: 'ProviderSecretLabels',
  handles: (a) =>
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object) &&
    (isSecret(a) || isInternalSecret(a)),
  admit: syncLabels,
};
