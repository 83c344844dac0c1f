// What the shoot maintenance removes from a Shoot's spec that its (possibly force-updated) Kubernetes version no longer
// accepts, each removal with the sentence `status.lastMaintenance.description` lists for it (Gardener's wording):
// fields Gardener forbids from a minor version on when a forced update crosses it (1.33: the kube-controller-manager's
// `podEvictionTimeout`, the cluster-autoscaler's `maxEmptyBulkDelete`; 1.35: the kube-apiserver's
// `enableAnonymousAuthentication` and default watch cache size, the kube-scheduler's `kubeMaxPDVols`, `spec.addons`,
// DNS providers' `secretName`; 1.34: `secretBindingName`, replaced by the CredentialsBinding credentialsbinding.ts found
// or created), and — on every maintenance — feature gates of the control plane components, the kubelet
// and each pool's kubelet (against the pool's own version) and kube-apiserver admission plugins that the version does
// not support (libs/api's version tables). Pure: mutates the Shoot it is given and returns the sentences.
import { isAdmissionPluginSupported, isFeatureGateSupported, type Shoot } from '@gardener-ts/api';
import type { CredentialsBindingMigration } from './credentialsbinding.js';
import { compareVersions } from './versions.js';

/** Whether a move from `from` to `to` crosses into minor `1.<minor>` (from below it to it or above). */
const crosses = (from: string, to: string, minor: number) =>
  compareVersions(from, `1.${minor}.0`) < 0 && compareVersions(to, `1.${minor}.0`) >= 0;

/**
 * Removes what a Kubernetes update from `oldVersion` to the Shoot's version makes invalid (see the file header) and
 * returns one sentence per removal, in Gardener's order. `credentialsBinding` is the outcome of the SecretBinding
 * migration when one was needed (credentialsbinding.ts).
 */
export function removeFieldsForbiddenAfterUpdate(
  shoot: Shoot,
  oldVersion: string,
  credentialsBinding?: CredentialsBindingMigration,
): string[] {
  const reasons: string[] = [];
  const k = shoot.spec.kubernetes;
  const newVersion = k.version;
  if (!newVersion) return reasons;

  if (crosses(oldVersion, newVersion, 33)) {
    if (k.kubeControllerManager?.podEvictionTimeout !== undefined) {
      delete k.kubeControllerManager.podEvictionTimeout;
      reasons.push(
        '.spec.kubernetes.kubeControllerManager.podEvictionTimeout is set to nil. Reason: The field was deprecated in favour of `spec.kubernetes.kubeAPIServer.defaultNotReadyTolerationSeconds` and `spec.kubernetes.kubeAPIServer.defaultUnreachableTolerationSeconds` and can no longer be enabled for Shoot clusters using Kubernetes version 1.33+',
      );
    }
    if (k.clusterAutoscaler?.maxEmptyBulkDelete !== undefined) {
      delete k.clusterAutoscaler.maxEmptyBulkDelete;
      reasons.push(
        '.spec.kubernetes.clusterAutoscaler.maxEmptyBulkDelete is set to nil. Reason: The field was deprecated in favour of `.spec.kubernetes.clusterAutoscaler.maxScaleDownParallelism` and can no longer be enabled for Shoot clusters using Kubernetes version 1.33+',
      );
    }
  }

  if (crosses(oldVersion, newVersion, 35) && k.kubeAPIServer?.enableAnonymousAuthentication !== undefined) {
    delete k.kubeAPIServer.enableAnonymousAuthentication;
    reasons.push(
      '.spec.kubernetes.kubeAPIServer.enableAnonymousAuthentication was removed. Reason: The field is no longer supported for Shoot clusters using Kubernetes version 1.35+',
    );
  }

  if (crosses(oldVersion, newVersion, 34) && credentialsBinding) {
    if ('error' in credentialsBinding) {
      reasons.push(`Failed to migrate from secretBindingName to credentialsBindingName: ${credentialsBinding.error}`);
    } else {
      shoot.spec.credentialsBindingName = credentialsBinding.name;
      delete shoot.spec.secretBindingName;
      reasons.push(
        '.spec.secretBindingName was migrated to .spec.credentialsBindingName. Reason: SecretBinding is deprecated and can no longer be used for Shoot clusters using Kubernetes version 1.34+',
      );
    }
  }

  if (crosses(oldVersion, newVersion, 35)) {
    if (k.kubeScheduler?.kubeMaxPDVols !== undefined) {
      delete k.kubeScheduler.kubeMaxPDVols;
      reasons.push(
        '.spec.kubernetes.kubeScheduler.kubeMaxPDVols was removed. Reason: kubeMaxPDVols is deprecated and not respected by the kube-scheduler',
      );
    }
    if (k.kubeAPIServer?.watchCacheSizes?.default !== undefined) {
      delete k.kubeAPIServer.watchCacheSizes.default;
      reasons.push(
        '.spec.kubernetes.kubeAPIServer.watchCacheSizes.default was removed. Reason: the default size configuration is deprecated and not respected by the kube-apiserver',
      );
    }
    if (shoot.spec.addons !== undefined) {
      delete shoot.spec.addons;
      reasons.push('.spec.addons was removed. Reason: addons are not supported anymore for Kubernetes versions 1.35+');
    }
    (shoot.spec.dns?.providers ?? []).forEach((provider, i) => {
      if (provider.secretName === undefined) return;
      delete provider.secretName;
      reasons.push(
        `.spec.dns.providers[${i}].secretName was removed. Reason: The field is no longer supported for Shoot clusters using Kubernetes version 1.35+`,
      );
    });
  }
  return reasons;
}

/** Removes the gates `version` does not support from one `featureGates` map; the sentence when any went. */
function removeUnsupportedFeatureGates(
  config: { featureGates?: Record<string, boolean> } | undefined,
  version: string,
  fieldPath: string,
): string[] {
  if (!config?.featureGates) return [];
  const removed = Object.keys(config.featureGates).filter((gate) => !isFeatureGateSupported(gate, version));
  if (removed.length === 0) return [];
  for (const gate of removed) delete config.featureGates[gate];
  if (Object.keys(config.featureGates).length === 0) delete config.featureGates;
  return [
    `Removed feature gates from "${fieldPath}" because they are not supported in Kubernetes version "${version}": ${removed.sort().join(', ')}`,
  ];
}

/**
 * Gardener's maintainFeatureGatesForShoot: the feature gates of kube-apiserver, kube-controller-manager,
 * kube-scheduler, kube-proxy and kubelet against the Shoot's version, each pool's kubelet against the pool's version.
 */
export function removeUnsupportedFeatureGatesOf(shoot: Shoot): string[] {
  const k = shoot.spec.kubernetes;
  const version = k.version;
  if (!version) return [];
  const reasons = [
    ...removeUnsupportedFeatureGates(k.kubeAPIServer, version, 'spec.kubernetes.kubeAPIServer.featureGates'),
    ...removeUnsupportedFeatureGates(
      k.kubeControllerManager,
      version,
      'spec.kubernetes.kubeControllerManager.featureGates',
    ),
    ...removeUnsupportedFeatureGates(k.kubeScheduler, version, 'spec.kubernetes.kubeScheduler.featureGates'),
    ...removeUnsupportedFeatureGates(k.kubeProxy, version, 'spec.kubernetes.kubeProxy.featureGates'),
    ...removeUnsupportedFeatureGates(k.kubelet, version, 'spec.kubernetes.kubelet.featureGates'),
  ];
  (shoot.spec.provider.workers ?? []).forEach((pool, i) => {
    reasons.push(
      ...removeUnsupportedFeatureGates(
        pool.kubernetes?.kubelet,
        pool.kubernetes?.version ?? version,
        `spec.provider.workers[${i}].kubernetes.kubelet.featureGates`,
      ),
    );
  });
  return reasons;
}

/** Gardener's maintainAdmissionPluginsForShoot: the kube-apiserver's admission plugins against the Shoot's version. */
export function removeUnsupportedAdmissionPlugins(shoot: Shoot): string[] {
  const apiServer = shoot.spec.kubernetes.kubeAPIServer;
  const version = shoot.spec.kubernetes.version;
  if (!apiServer?.admissionPlugins || !version) return [];
  const removed = apiServer.admissionPlugins.filter((p) => !isAdmissionPluginSupported(p.name, version));
  if (removed.length === 0) return [];
  apiServer.admissionPlugins = apiServer.admissionPlugins.filter((p) => isAdmissionPluginSupported(p.name, version));
  if (apiServer.admissionPlugins.length === 0) delete apiServer.admissionPlugins;
  return [
    `Removed admission plugins from "spec.kubernetes.kubeAPIServer.admissionPlugins" because they are not supported in Kubernetes version "${version}": ${removed
      .map((p) => p.name)
      .sort()
      .join(', ')}`,
  ];
}
