// Kubelets of a local cluster authenticate as their node, as kube's do: a client certificate from the cluster CA with
// CN=system:node:<node>, O=system:nodes. That identity is what their kubelet-serving CSRs are recorded with, so the
// approver can check that a node asks only for itself, and what the API server's Node authorizer and NodeRestriction
// admission (on by default, as kube-apiserver's `--authorization-mode=Node,RBAC`) grant the kubelet: its own Node and
// Lease, its pods and what they reference — no RBAC binding needed.
import * as k8s from '@kubernetes/client-node';
import { issueCertificate, kubeconfig, type LocalApiServer } from '@gardener-ts/local-apiserver';

/** A kubeconfig for the kubelet of `nodeName`: the API server's URL and CA, a node client certificate. */
export async function nodeKubeConfig(apiServer: LocalApiServer, nodeName: string): Promise<k8s.KubeConfig> {
  const user = `system:node:${nodeName}`;
  const cert = await issueCertificate(apiServer.credentials.ca, {
    commonName: user,
    organizations: ['system:nodes'],
    usage: 'client',
  });
  const config = new k8s.KubeConfig();
  config.loadFromString(
    kubeconfig('local', apiServer.url, apiServer.credentials.ca.certPem, {
      name: user,
      clientCertificatePem: cert.certPem,
      clientKeyPem: cert.keyPem,
    }),
  );
  return config;
}
