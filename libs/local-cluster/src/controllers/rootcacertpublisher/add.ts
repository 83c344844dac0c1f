// Wiring of kube-controller-manager's root-ca-cert-publisher (reconciler.ts): a Namespace is its work; a change to, or
// the deletion of, a namespace's `kube-root-ca.crt` ConfigMap looks at that namespace again (other ConfigMaps do not
// matter). Runs only with a root CA (kube's --root-ca-file): without one, the substrate's API server publishes its own.
import {
  ConfigMapKind,
  controllerFor,
  NamespaceKind,
  type ConfigMap,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { ROOT_CA_CONFIGMAP } from './publish.js';
import { RootCACertPublisherReconciler } from './reconciler.js';

/** The controller's name (kube's short name; its long one is root-ca-certificate-publisher-controller). */
export const ROOT_CA_CERT_PUBLISHER = 'root-ca-cert-publisher';

/** The namespace to look at again when a ConfigMap changes: its own, if it is the root CA ConfigMap. */
export function rootCAConfigMapRequests(configMap: ConfigMap): Request[] {
  const namespace = configMap.metadata?.namespace;
  return configMap.metadata?.name === ROOT_CA_CONFIGMAP && namespace ? [{ namespace: '', name: namespace }] : [];
}

/** Registers the publisher when there is a root CA to publish (on by default, as in kube-controller-manager). */
export function addRootCACertPublisher(ctx: ControllerContext, rootCA: string | undefined): void {
  if (!rootCA) {
    ctx.log.info('No --root-ca-file, not publishing the root CA ConfigMap');
    return;
  }
  controllerFor(ctx.mgr, ROOT_CA_CERT_PUBLISHER)
    .for(NamespaceKind)
    .watches(ConfigMapKind, rootCAConfigMapRequests)
    .withOptions({ maxConcurrentReconciles: 2, needLeaderElection: false })
    .complete(new RootCACertPublisherReconciler(ctx.client, rootCA));
}
