// The shoot's kube-controller-manager in the seed (Gardener's `pkg/component/kubernetes/controllermanager`): a
// Deployment talking to the shoot's API server through the generic token kubeconfig, signing certificates with the
// client and kubelet CAs, service account tokens with the service account key; scaled to zero while hibernated.
import { Labels } from '@gardener-ts/api';
import type { V1Deployment } from '@kubernetes/client-node';
import { controlPlaneImage } from './images.js';
import { SecretNames, secretNameOf, type ShootSecretNames } from './secrets.js';
import { GenericKubeconfigPath, shootAccessVolume } from './shoot-access.js';
import { isWorkerless, kubernetesVersion, shootNetworks, type ShootValues } from './values.js';

/** Name of the Deployment and of its shoot access. */
export const KubeControllerManagerName = 'kube-controller-manager';
/** kube-controller-manager's secure port. */
export const KubeControllerManagerPort = 10257;

/** kube-controller-manager's flags as Gardener sets them for a shoot. */
export function kubeControllerManagerArgs(values: ShootValues): string[] {
  const networks = shootNetworks(values);
  const config = values.shoot.spec.kubernetes.kubeControllerManager;
  const workerless = isWorkerless(values.shoot);
  const args = [
    ...(workerless ? [] : ['--allocate-node-cidrs=true', `--cluster-cidr=${networks.pods}`]),
    `--authentication-kubeconfig=${GenericKubeconfigPath}`,
    `--authorization-kubeconfig=${GenericKubeconfigPath}`,
    `--kubeconfig=${GenericKubeconfigPath}`,
    `--cluster-name=${values.namespace}`,
    '--cluster-signing-duration=720h',
    '--cluster-signing-kube-apiserver-client-cert-file=/srv/kubernetes/ca-client/ca.crt',
    '--cluster-signing-kube-apiserver-client-key-file=/srv/kubernetes/ca-client/ca.key',
    '--cluster-signing-kubelet-client-cert-file=/srv/kubernetes/ca-client/ca.crt',
    '--cluster-signing-kubelet-client-key-file=/srv/kubernetes/ca-client/ca.key',
    '--cluster-signing-kubelet-serving-cert-file=/srv/kubernetes/ca-kubelet/ca.crt',
    '--cluster-signing-kubelet-serving-key-file=/srv/kubernetes/ca-kubelet/ca.key',
    `--controllers=*,bootstrapsigner,tokencleaner${workerless ? ',-nodeipam,-nodelifecycle,-attachdetach' : ''}`,
    '--leader-elect=true',
    `--node-monitor-grace-period=${config?.nodeMonitorGracePeriod ?? '40s'}`,
    ...(config?.nodeCIDRMaskSize ? [`--node-cidr-mask-size=${config.nodeCIDRMaskSize}`] : []),
    '--root-ca-file=/srv/kubernetes/ca/bundle.crt',
    `--secure-port=${KubeControllerManagerPort}`,
    '--service-account-private-key-file=/srv/kubernetes/service-account-key/id_rsa',
    `--service-cluster-ip-range=${networks.services}`,
    '--tls-cert-file=/var/lib/kube-controller-manager-server/tls.crt',
    '--tls-private-key-file=/var/lib/kube-controller-manager-server/tls.key',
    '--use-service-account-credentials=true',
    '--v=2',
  ];
  const featureGates = Object.entries(config?.featureGates ?? {});
  if (featureGates.length) args.push(`--feature-gates=${featureGates.map(([k, v]) => `${k}=${v}`).join(',')}`);
  return args;
}

/** The kube-controller-manager Deployment. */
export function renderKubeControllerManagerDeployment(
  values: ShootValues,
  secrets: ShootSecretNames,
  genericKubeconfigSecret: string,
): V1Deployment {
  const access = shootAccessVolume(genericKubeconfigSecret, KubeControllerManagerName);
  const labels = { app: 'kubernetes', role: 'controller-manager' };
  const secret = (name: string, config: string, path: string, kind: 'secret' | 'bundle' = 'secret') => ({
    volume: { name, secret: { secretName: secretNameOf(secrets, config, kind), defaultMode: 0o640 } },
    mount: { name, mountPath: path, readOnly: true },
  });
  const mounts = [
    secret('ca', SecretNames.CACluster, '/srv/kubernetes/ca', 'bundle'),
    secret('ca-client', SecretNames.CAClient, '/srv/kubernetes/ca-client'),
    secret('ca-kubelet', SecretNames.CAKubelet, '/srv/kubernetes/ca-kubelet'),
    secret('service-account-key', SecretNames.ServiceAccountKey, '/srv/kubernetes/service-account-key'),
    secret('server', SecretNames.KubeControllerManagerServer, '/var/lib/kube-controller-manager-server'),
    access,
  ];
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: KubeControllerManagerName,
      namespace: values.namespace,
      labels: {
        ...labels,
        [Labels.GardenRole]: Labels.GardenRoleValue.ControlPlane,
        [Labels.ExtensionProviderMutatedByControlplaneWebhook]: 'true',
      },
    },
    spec: {
      replicas: values.shoot.spec.hibernation?.enabled === true ? 0 : 1,
      revisionHistoryLimit: 1,
      selector: { matchLabels: labels },
      template: {
        metadata: {
          labels: {
            ...labels,
            [Labels.GardenRole]: Labels.GardenRoleValue.ControlPlane,
            [Labels.NetworkPolicyToDNS]: Labels.NetworkPolicyAllowed,
            [Labels.NetworkPolicyToPublicNetworks]: Labels.NetworkPolicyAllowed,
          },
        },
        spec: {
          priorityClassName: 'gardener-system-300',
          automountServiceAccountToken: false,
          containers: [
            {
              name: KubeControllerManagerName,
              image: controlPlaneImage('kubeControllerManager', kubernetesVersion(values)),
              imagePullPolicy: 'IfNotPresent',
              command: ['/usr/local/bin/kube-controller-manager'],
              args: kubeControllerManagerArgs(values),
              ports: [{ name: 'metrics', containerPort: KubeControllerManagerPort, protocol: 'TCP' }],
              livenessProbe: {
                httpGet: { scheme: 'HTTPS', path: '/healthz', port: KubeControllerManagerPort },
                initialDelaySeconds: 15,
                periodSeconds: 10,
                failureThreshold: 2,
              },
              resources: { requests: { cpu: '100m', memory: '128Mi' } },
              volumeMounts: mounts.map((m) => m.mount),
            },
          ],
          volumes: mounts.map((m) => m.volume),
        },
      },
    },
  };
}
