// The kubeconfig Secrets of a Shoot's kube-apiserver admission plugins, as Gardener's ShootValidator checks them
// (validateAdmissionPlugins): each `spec.kubernetes.kubeAPIServer.admissionPlugins[].kubeconfigSecretName` must be
// referenced as a `v1` Secret in `spec.resources`, and the Secret (in the Shoot's namespace) must exist and have a
// `kubeconfig` key. Checked on every CREATE and UPDATE, as in Gardener.
import { FieldPath, fieldInternalError, invalid, type FieldError } from '@gardener-ts/api';
import type { KubeObject, Listers } from '../attributes.js';

interface AdmissionPluginConfig {
  name?: string;
  kubeconfigSecretName?: string;
}
interface NamedResourceReference {
  name?: string;
  resourceRef?: { apiVersion?: string; kind?: string; name?: string };
}

/** The names of the Secrets the Shoot references in `spec.resources`. */
export function referencedSecretNames(shoot: KubeObject): Set<string> {
  return new Set(
    ((shoot.spec?.resources ?? []) as NamedResourceReference[])
      .filter((r) => r.resourceRef?.apiVersion === 'v1' && r.resourceRef.kind === 'Secret' && r.resourceRef.name)
      .map((r) => r.resourceRef!.name!),
  );
}

/** The admission plugins' kubeconfig Secrets against `spec.resources` and the Secrets in the Shoot's namespace. */
export async function validateAdmissionPluginKubeconfigs(
  shoot: KubeObject,
  namespace: string | undefined,
  listers: Listers,
): Promise<FieldError[]> {
  const kubeAPIServer = shoot.spec?.kubernetes?.kubeAPIServer;
  if (!kubeAPIServer) return [];
  const path = FieldPath.root('spec', 'kubernetes', 'kubeAPIServer', 'admissionPlugins');
  const referenced = referencedSecretNames(shoot);
  const ns = namespace ?? shoot.metadata?.namespace ?? '';
  const errors: FieldError[] = [];
  const plugins = (kubeAPIServer.admissionPlugins ?? []) as AdmissionPluginConfig[];
  for (const [i, plugin] of plugins.entries()) {
    const name = plugin.kubeconfigSecretName;
    if (name === undefined || name === null) continue;
    const secretPath = path.index(i).child('kubeconfigSecretName');
    if (!referenced.has(name)) {
      errors.push(invalid(secretPath, name, 'secret should be referenced in shoot .spec.resources'));
      continue;
    }
    const secret = await listers.get('v1', 'Secret', name, ns);
    if (!secret) {
      errors.push(
        fieldInternalError(
          secretPath,
          `unable to get the referenced secret: namespace: ${ns}, name: ${name}, error: secret "${name}" not found`,
        ),
      );
      continue;
    }
    if (!secret.data || !('kubeconfig' in secret.data))
      errors.push(
        invalid(
          secretPath,
          name,
          `referenced kubeconfig secret doesn't contain kubeconfig: namespace: ${ns}, name: ${name}`,
        ),
      );
  }
  return errors;
}
