// The Shoot part of Gardener's ResourceReferenceManager (plugin/pkg/global/resourcereferencemanager
// ensureShootReferences): on CREATE, and on an UPDATE that changes the spec, what the Shoot newly refers to must exist
// — its CloudProfile or NamespacedCloudProfile, Seed, SecretBinding, CredentialsBinding and ExposureClass (Gardener's
// lister errors: `seed.core.gardener.cloud "x" not found`), each `spec.resources` entry (a namespaced kind the user may
// `get`, existing in the Shoot's namespace), the Secrets of DNS providers and admission plugin kubeconfigs, and the
// structured authentication/authorization ConfigMaps and kubeconfig Secrets. The first missing reference is the answer.
import { findKind, type Shoot } from '@gardener-ts/api';
import type { AdmissionAttributes, KubeObject, Listers } from '../attributes.js';

/** A kind's REST resource as discovery knows it. */
export interface APIResourceInfo {
  /** Plural resource name (`secrets`). */
  resource: string;
  namespaced: boolean;
}

/**
 * How the plugin finds a kind's resource (Gardener asks the API server's discovery). Listers that offer
 * `discoverResource` are asked first; else built-in kinds and Gardener's kinds are known here, and any other kind the
 * listers can read is taken as namespaced.
 */
export interface ResourceDiscovery {
  discoverResource?(apiVersion: string, kind: string): Promise<APIResourceInfo | undefined>;
}

/** Kubernetes' built-in kinds a Shoot may plausibly reference, and a few cluster-scoped ones to refuse. */
const BUILTIN_RESOURCES: Record<string, APIResourceInfo> = {
  'v1/Secret': { resource: 'secrets', namespaced: true },
  'v1/ConfigMap': { resource: 'configmaps', namespaced: true },
  'v1/Service': { resource: 'services', namespaced: true },
  'v1/ServiceAccount': { resource: 'serviceaccounts', namespaced: true },
  'v1/PersistentVolumeClaim': { resource: 'persistentvolumeclaims', namespaced: true },
  'v1/Namespace': { resource: 'namespaces', namespaced: false },
  'v1/Node': { resource: 'nodes', namespaced: false },
  'v1/PersistentVolume': { resource: 'persistentvolumes', namespaced: false },
  'rbac.authorization.k8s.io/v1/ClusterRole': { resource: 'clusterroles', namespaced: false },
};

/** The resource of `apiVersion`/`kind`, or undefined when nothing knows the kind. */
export async function discoverResource(
  listers: Listers & ResourceDiscovery,
  apiVersion: string,
  kind: string,
  namespace: string,
): Promise<APIResourceInfo | undefined> {
  if (listers.discoverResource) return listers.discoverResource(apiVersion, kind);
  const builtin = BUILTIN_RESOURCES[`${apiVersion}/${kind}`];
  if (builtin) return builtin;
  const gardener = findKind(apiVersion, kind);
  if (gardener) return { resource: gardener.info.plural, namespaced: gardener.info.namespaced };
  // Any other kind: known when the API server can list it (a CRD); taken as namespaced.
  try {
    await listers.list(apiVersion, kind, namespace);
  } catch {
    return undefined;
  }
  return { resource: `${kind.toLowerCase()}s`, namespaced: true };
}

/** kube's NotFound text: `<resource>[.<group>] "<name>" not found`. */
export const notFoundText = (resource: string, group: string, name: string) =>
  `${group ? `${resource}.${group}` : resource} "${name}" not found`;

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0]! : '');

/** The reference of `spec.cloudProfile` (else `spec.cloudProfileName`) as a comparable text. */
function cloudProfileRef(shoot: Shoot | undefined): { kind: string; name: string } | undefined {
  const ref = shoot?.spec?.cloudProfile;
  if (ref?.name) return { kind: ref.kind ?? 'CloudProfile', name: ref.name };
  return shoot?.spec?.cloudProfileName ? { kind: 'CloudProfile', name: shoot.spec.cloudProfileName } : undefined;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

type KubeAPIServer = NonNullable<Shoot['spec']['kubernetes']['kubeAPIServer']>;

/** Whether a kube-apiserver setting changed the way Gardener's *Changed helpers see it. */
function kubeAPIServerFieldChanged<K extends keyof KubeAPIServer>(
  old: KubeAPIServer | undefined,
  current: KubeAPIServer | undefined,
  key: K,
  present: (value: KubeAPIServer[K] | undefined) => boolean,
): boolean {
  if (!old && current) return present(current[key]);
  if (old && !current) return present(old[key]);
  if (old && current) return !same(old[key], current[key]);
  return false;
}

/**
 * The first reference of `shoot` that does not resolve (Gardener's ensureShootReferences), as the text of Gardener's
 * error; `old` is undefined on CREATE. Undefined when all resolve.
 */
export async function shootReferenceError(
  a: AdmissionAttributes,
  shoot: Shoot,
  old: Shoot | undefined,
  listers: Listers & ResourceDiscovery,
): Promise<string | undefined> {
  const namespace = a.namespace ?? shoot.metadata?.namespace ?? '';
  const spec = shoot.spec;
  const oldSpec = old?.spec;
  const core = 'core.gardener.cloud/v1beta1';

  const profile = cloudProfileRef(shoot);
  if (profile && !same(profile, cloudProfileRef(old))) {
    const namespaced = profile.kind === 'NamespacedCloudProfile';
    const found = await listers.get(core, profile.kind, profile.name, namespaced ? namespace : undefined);
    if (!found)
      return `could not find cloudProfileSpec from the shoot cloudProfile reference: ${notFoundText(
        namespaced ? 'namespacedcloudprofile' : 'cloudprofile',
        'core.gardener.cloud',
        profile.name,
      )}`;
  }
  if (spec.seedName && spec.seedName !== oldSpec?.seedName) {
    if (!(await listers.get(core, 'Seed', spec.seedName)))
      return notFoundText('seed', 'core.gardener.cloud', spec.seedName);
  }
  if (spec.secretBindingName && spec.secretBindingName !== oldSpec?.secretBindingName) {
    if (!(await listers.get(core, 'SecretBinding', spec.secretBindingName, namespace)))
      return notFoundText('secretbinding', 'core.gardener.cloud', spec.secretBindingName);
  }
  if (spec.credentialsBindingName && spec.credentialsBindingName !== oldSpec?.credentialsBindingName) {
    const found = await listers.get(
      'security.gardener.cloud/v1alpha1',
      'CredentialsBinding',
      spec.credentialsBindingName,
      namespace,
    );
    if (!found) return notFoundText('credentialsbinding', 'security.gardener.cloud', spec.credentialsBindingName);
  }
  if (spec.exposureClassName && spec.exposureClassName !== oldSpec?.exposureClassName) {
    if (!(await listers.get(core, 'ExposureClass', spec.exposureClassName)))
      return notFoundText('exposureclass', 'core.gardener.cloud', spec.exposureClassName);
  }

  if (!same(spec.resources, oldSpec?.resources)) {
    for (const reference of spec.resources ?? []) {
      // The static validation requires all three; an incomplete reference resolves to nothing here.
      const { apiVersion = '', kind = '', name = '' } = reference.resourceRef;
      const info = await discoverResource(listers, apiVersion, kind, namespace);
      if (!info)
        return `shoot resource reference "${reference.name}" could not be resolved for API resource with version "${apiVersion}" and kind "${kind}"`;
      if (!info.namespaced)
        return `failed to resolve shoot resource reference "${reference.name}". Cannot reference a resource that is not namespaced`;
      const allowed =
        listers.authorize !== undefined &&
        (await listers.authorize(a.userInfo, {
          verb: 'get',
          group: groupOf(apiVersion),
          resource: info.resource,
          namespace,
          name,
        }));
      if (!allowed) return 'shoot cannot reference a resource you are not allowed to read';
      if (!(await listers.get(apiVersion, kind, name, namespace)))
        return `failed to resolve shoot resource reference "${reference.name}": ${notFoundText(info.resource, groupOf(apiVersion), name)}`;
    }
  }

  const secretExists = async (name: string) => Boolean(await listers.get('v1', 'Secret', name, namespace));
  if (shoot.metadata?.deletionTimestamp) return undefined;
  if (spec.dns && !same(spec.dns, oldSpec?.dns)) {
    for (const provider of spec.dns.providers ?? []) {
      if (provider.secretName && !(await secretExists(provider.secretName)))
        return `failed to resolve DNS provider secret reference: ${notFoundText('secrets', '', provider.secretName)}`;
    }
  }
  const apiServer = spec.kubernetes?.kubeAPIServer;
  const oldAPIServer = oldSpec?.kubernetes?.kubeAPIServer;
  if (
    apiServer &&
    kubeAPIServerFieldChanged(oldAPIServer, apiServer, 'admissionPlugins', (p) => (p ?? []).length > 0)
  ) {
    for (const plugin of apiServer.admissionPlugins ?? []) {
      if (plugin.kubeconfigSecretName && !(await secretExists(plugin.kubeconfigSecretName)))
        return `failed to resolve admission plugin kubeconfig secret reference for "${plugin.name}": ${notFoundText('secrets', '', plugin.kubeconfigSecretName)}`;
    }
  }
  const authentication = apiServer?.structuredAuthentication;
  if (
    authentication &&
    kubeAPIServerFieldChanged(oldAPIServer, apiServer, 'structuredAuthentication', (s) => s !== undefined)
  ) {
    if (!(await listers.get('v1', 'ConfigMap', authentication.configMapName, namespace)))
      return `failed to resolve structured authentication config map reference: ${notFoundText('configmaps', '', authentication.configMapName)}`;
  }
  const authorization = apiServer?.structuredAuthorization;
  if (
    authorization &&
    kubeAPIServerFieldChanged(oldAPIServer, apiServer, 'structuredAuthorization', (s) => s !== undefined)
  ) {
    if (!(await listers.get('v1', 'ConfigMap', authorization.configMapName, namespace)))
      return `failed to resolve structured authorization config map reference: ${notFoundText('configmaps', '', authorization.configMapName)}`;
    for (const kubeconfig of authorization.kubeconfigs ?? []) {
      if (!(await secretExists(kubeconfig.secretName)))
        return `failed to resolve structured authorization kubeconfig secret reference: ${notFoundText('secrets', '', kubeconfig.secretName)}`;
    }
  }
  return undefined;
}

/** Whether a Shoot's references must be checked: always on CREATE, on UPDATE when the spec changed (Gardener). */
export function shootReferencesToCheck(a: AdmissionAttributes): boolean {
  if (a.operation === 'CREATE') return true;
  return a.operation === 'UPDATE' && !same((a.oldObject as KubeObject | undefined)?.spec, a.object?.spec);
}
