// Kubelets of a local cluster authenticate as their node, as kube's do: a client certificate from the cluster CA with
// CN=system:node:<node>, O=system:nodes. That identity is what their kubelet-serving CSRs are recorded with, so the
// approver can check that a node asks only for itself. The local API server has no Node authorizer; the group
// system:nodes is bound to cluster-admin instead (what kubelets could do before with the admin kubeconfig).
import * as k8s from '@kubernetes/client-node';
import { issueCertificate, kubeconfig, type LocalApiServer } from '@gardener-ts/local-apiserver';

export const NODES_BINDING = 'gardener-local:nodes';

/** A kubeconfig for the kubelet of `nodeName`: the API server's URL and CA, a node client certificate. */
export async function nodeKubeConfig(apiServer: LocalApiServer, nodeName: string): Promise<k8s.KubeConfig> {
  const user = `system:node:${nodeName}`;
  const cert = await issueCertificate(apiServer.credentials.ca, { commonName: user, organizations: ['system:nodes'], usage: 'client' });
  const config = new k8s.KubeConfig();
  config.loadFromString(kubeconfig('local', apiServer.url, apiServer.credentials.ca.certPem, { name: user, clientCertificatePem: cert.certPem, clientKeyPem: cert.keyPem }));
  return config;
}

/** Binds system:nodes to cluster-admin and waits until the authorizer knows it (RBAC is read from a watch). */
export async function authorizeNodes(admin: k8s.KubeConfig, timeoutMs = 30_000): Promise<void> {
  const rbac = admin.makeApiClient(k8s.RbacAuthorizationV1Api);
  try {
    await rbac.createClusterRoleBinding({
      body: {
        metadata: { name: NODES_BINDING, labels: { 'app.kubernetes.io/managed-by': 'gardener-local' } },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:nodes' }],
      },
    });
  } catch (err) {
    if (!(err instanceof k8s.ApiException && err.code === 409)) throw err;
  }
  const authorization = admin.makeApiClient(k8s.AuthorizationV1Api);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const review = await authorization.createSubjectAccessReview({
      body: { spec: { user: 'system:node:probe', groups: ['system:nodes', 'system:authenticated'], resourceAttributes: { group: 'certificates.k8s.io', resource: 'certificatesigningrequests', verb: 'create' } } },
    });
    if (review.status?.allowed) return;
    if (Date.now() > deadline) throw new Error(`ClusterRoleBinding ${NODES_BINDING} not in effect after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
