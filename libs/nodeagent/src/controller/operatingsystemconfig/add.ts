// Wiring of the OperatingSystemConfig controller: node-agent's own Secret in the shoot's kube-system, and the creation of
// this machine's Node (the kubelet the OSC started registered it: its checksum annotation is written at once, not at
// the next requeue after "Waiting for Node to get registered", so the shoot's flow sees the OSC applied sooner).
import { Kinds, controllerFor, type Controller, type Manager, type Predicate } from '@gardener-ts/controller-runtime';
import { OperatingSystemConfigReconciler, type OperatingSystemConfigReconcilerDeps } from './reconciler.js';

/** The controller's name (Gardener's). */
export const ControllerName = 'operatingsystemconfig';
/** The namespace of node-agent's Secret in the shoot. */
export const SecretNamespace = 'kube-system';

/** Only node-agent's Secret `secretName` in kube-system. */
export function isOSCSecret(secretName: string): Predicate<any> {
  return (event) => event.object.metadata?.namespace === SecretNamespace && event.object.metadata?.name === secretName;
}

/** Adds the controller to `mgr` (its default cluster is the shoot). */
export function addOperatingSystemConfigController(
  mgr: Manager,
  deps: Omit<OperatingSystemConfigReconcilerDeps, 'client'> & { secretName: string },
): Controller {
  const reconciler = new OperatingSystemConfigReconciler({ ...deps, client: mgr.cluster().client });
  const request = { namespace: SecretNamespace, name: deps.secretName };
  return controllerFor(mgr, ControllerName)
    .for(Kinds.Secret, { predicates: [isOSCSecret(deps.secretName)] })
    .watches(Kinds.Node, (node) => (node.metadata?.name === deps.nodeName ? [request] : []), {
      predicates: [(event) => event.type === 'create'],
    })
    .withOptions({ maxConcurrentReconciles: 1, needLeaderElection: false })
    .complete(reconciler);
}
