// Registers the kubelet CSR approver: kubelet-serving CertificateSigningRequests created or updated in the target.
import {
  controllerFor,
  type Cluster,
  type Controller,
  type Manager,
  type Predicate,
} from '@gardener-ts/controller-runtime';
import { CSRApprover, CSRKind, type CertificateSigningRequest } from './reconcile.js';
import { KubeletServingSigner } from './rules.js';

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
    e.type !== 'delete' && e.object.spec?.signerName === KubeletServingSigner;
  return controllerFor(mgr, CSRApproverControllerName)
    .inCluster(o.targetCluster)
    .for(CSRKind, { predicates: [predicate] })
    .withOptions({ maxConcurrentReconciles: o.concurrentSyncs })
    .complete(new CSRApprover({ target: o.target.api, source: o.source.api, machineNamespace: o.machineNamespace }));
}
