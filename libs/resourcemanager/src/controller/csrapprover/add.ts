// Registers the CSR approver: kubelet-serving and kube-apiserver-client (gardener-node-agent) CertificateSigningRequests
// created or updated in the target.
import {
  controllerFor,
  type Cluster,
  type Controller,
  type Manager,
  type Predicate,
} from '@gardener-ts/controller-runtime';
import { CSRApprover, CSRKind, type CertificateSigningRequest } from './reconcile.js';
import { KubeAPIServerClientSigner, KubeletServingSigner } from './rules.js';

export const CSRApproverControllerName = 'kubelet-csr-approver';

export interface AddCSRApproverOptions {
  targetCluster: string;
  source: Cluster;
  target: Cluster;
  concurrentSyncs: number;
  machineNamespace: string;
}

export function addCSRApprover(mgr: Manager, o: AddCSRApproverOptions): Controller {
  const predicate: Predicate<CertificateSigningRequest> = (e) =>
    e.type !== 'delete' &&
    (e.object.spec?.signerName === KubeletServingSigner || e.object.spec?.signerName === KubeAPIServerClientSigner);
  return controllerFor(mgr, CSRApproverControllerName)
    .inCluster(o.targetCluster)
    .for(CSRKind, { predicates: [predicate] })
    .withOptions({ maxConcurrentReconciles: o.concurrentSyncs })
    .complete(new CSRApprover({ target: o.target.api, source: o.source.api, machineNamespace: o.machineNamespace }));
}
