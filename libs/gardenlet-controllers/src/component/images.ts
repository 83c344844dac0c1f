// Image references of the shoot control plane, as Gardener's image vector names them for a Kubernetes version. The
// local substrate's image map turns these into local programs (kube-apiserver → the local API server, ...).

/** The control plane images Gardener uses, by component. */
export const ImageRepositories = {
  kubeAPIServer: 'registry.k8s.io/kube-apiserver',
  kubeControllerManager: 'registry.k8s.io/kube-controller-manager',
  kubeScheduler: 'registry.k8s.io/kube-scheduler',
  kubeProxy: 'registry.k8s.io/kube-proxy',
} as const;

/** The image of a control plane component for a Kubernetes version (`registry.k8s.io/kube-apiserver:v1.33.0`). */
export function controlPlaneImage(component: keyof typeof ImageRepositories, kubernetesVersion: string): string {
  return `${ImageRepositories[component]}:v${kubernetesVersion.replace(/^v/, '')}`;
}
