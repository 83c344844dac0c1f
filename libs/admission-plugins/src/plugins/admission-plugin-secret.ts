// gardener-admission-controller's admission plugin secret validator
// (pkg/admissioncontroller/webhook/admission/admissionpluginsecret): a Secret in a project namespace that a Shoot of
// that namespace names as the kubeconfig of one of its kube-apiserver admission plugins
// (`spec.kubernetes.kubeAPIServer.admissionPlugins[].kubeconfigSecretName`) must keep a non-empty `kubeconfig` key.
import { allow, forbiddenResource, type KubeObject, type Listers } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

/** Whether the Secret holds a non-empty `kubeconfig` (in `data`, or in `stringData` before the API server merges it). */
const hasKubeconfig = (secret: KubeObject): boolean =>
  Boolean(secret.data?.kubeconfig) || Boolean(secret.stringData?.kubeconfig);

/** The names of the Shoots of `namespace` that use Secret `name` as an admission plugin's kubeconfig. */
export async function shootsUsingAdmissionPluginSecret(
  listers: Listers,
  namespace: string,
  name: string,
): Promise<string[]> {
  const shoots = await listers.list('core.gardener.cloud/v1beta1', 'Shoot', namespace);
  return shoots.flatMap((shoot) =>
    ((shoot.spec?.kubernetes?.kubeAPIServer?.admissionPlugins ?? []) as { kubeconfigSecretName?: string }[])
      .filter((plugin) => plugin.kubeconfigSecretName === name)
      .map(() => shoot.metadata?.name ?? ''),
  );
}

/** The admission plugin secret validator (UPDATE of Secrets in project namespaces). */
export const AdmissionPluginSecretValidator: AdmissionPlugin = {
  name: 'AdmissionPluginSecretValidator',
  handles: (a) =>
    a.kind.group === '' &&
    a.kind.kind === 'Secret' &&
    a.operation === 'UPDATE' &&
    Boolean(a.object) &&
    Boolean(a.namespace),
  async validate(a, listers) {
    if (hasKubeconfig(a.object!)) return allow();
    const name = a.name ?? a.object!.metadata?.name ?? '';
    const shoots = await shootsUsingAdmissionPluginSecret(listers, a.namespace!, name);
    if (shoots.length === 0) return allow();
    return forbiddenResource(
      'Secret',
      name,
      `data kubeconfig can't be removed from secret or set to empty because secret is in use by shoots: [${shoots.join(', ')}]`,
    );
  },
};
