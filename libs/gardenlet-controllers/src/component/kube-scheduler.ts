// The shoot's kube-scheduler in the seed (Gardener's `pkg/component/kubernetes/scheduler`): a Deployment with its
// KubeSchedulerConfiguration in a ConfigMap (profile from `spec.kubernetes.kubeScheduler.profile`), the generic token
// kubeconfig for shoot access and its serving certificate; scaled to zero while hibernated.
import { createHash } from 'node:crypto';
import { Labels } from '@gardener-ts/api';
import type { V1ConfigMap, V1Deployment } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { controlPlaneImage } from './images.js';
import { SecretNames, secretNameOf, type ShootSecretNames } from './secrets.js';
import { GenericKubeconfigPath, shootAccessVolume } from './shoot-access.js';
import { kubernetesVersion, type ShootValues } from './values.js';

/** Name of the Deployment and of its shoot access. */
export const KubeSchedulerName = 'kube-scheduler';
/** kube-scheduler's secure port. */
export const KubeSchedulerPort = 10259;

/** The KubeSchedulerConfiguration: leader election, the kubeconfig, and `bin-packing` as MostAllocated scoring. */
export function kubeSchedulerConfiguration(values: ShootValues): string {
  const binPacking = values.shoot.spec.kubernetes.kubeScheduler?.profile === 'bin-packing';
  return stringify({
    apiVersion: 'kubescheduler.config.k8s.io/v1',
    kind: 'KubeSchedulerConfiguration',
    clientConnection: { kubeconfig: GenericKubeconfigPath },
    leaderElection: { leaderElect: true },
    ...(binPacking
      ? {
          profiles: [
            {
              schedulerName: 'bin-packing-scheduler',
              pluginConfig: [{ name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated' } } }],
              plugins: { score: { disabled: [{ name: 'NodeResourcesBalancedAllocation' }] } },
            },
          ],
        }
      : {}),
  });
}

/** The ConfigMap of the scheduler configuration, named by its checksum. */
export function renderKubeSchedulerConfigMap(values: ShootValues): V1ConfigMap {
  const config = kubeSchedulerConfiguration(values);
  const suffix = createHash('sha256').update(config).digest('hex').slice(0, 8);
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `kube-scheduler-config-${suffix}`, namespace: values.namespace },
    immutable: true,
    data: { 'config.yaml': config },
  };
}

/** The kube-scheduler Deployment. */
export function renderKubeSchedulerDeployment(
  values: ShootValues,
  secrets: ShootSecretNames,
  genericKubeconfigSecret: string,
  configMapName: string,
): V1Deployment {
  const access = shootAccessVolume(genericKubeconfigSecret, KubeSchedulerName);
  const labels = { app: 'kubernetes', role: 'scheduler' };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: KubeSchedulerName,
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
        metadata: { labels: { ...labels, [Labels.GardenRole]: Labels.GardenRoleValue.ControlPlane } },
        spec: {
          priorityClassName: 'gardener-system-300',
          automountServiceAccountToken: false,
          containers: [
            {
              name: KubeSchedulerName,
              image: controlPlaneImage('kubeScheduler', kubernetesVersion(values)),
              imagePullPolicy: 'IfNotPresent',
              command: ['/usr/local/bin/kube-scheduler'],
              args: [
                '--config=/var/lib/kube-scheduler-config/config.yaml',
                `--authentication-kubeconfig=${GenericKubeconfigPath}`,
                `--authorization-kubeconfig=${GenericKubeconfigPath}`,
                '--client-ca-file=/var/lib/kube-scheduler-server/ca.crt',
                `--secure-port=${KubeSchedulerPort}`,
                '--tls-cert-file=/var/lib/kube-scheduler-server/tls.crt',
                '--tls-private-key-file=/var/lib/kube-scheduler-server/tls.key',
                '--v=2',
              ],
              ports: [{ name: 'metrics', containerPort: KubeSchedulerPort, protocol: 'TCP' }],
              livenessProbe: {
                httpGet: { scheme: 'HTTPS', path: '/healthz', port: KubeSchedulerPort },
                initialDelaySeconds: 15,
                periodSeconds: 10,
                failureThreshold: 2,
              },
              resources: { requests: { cpu: '10m', memory: '32Mi' } },
              volumeMounts: [
                access.mount,
                { name: 'config', mountPath: '/var/lib/kube-scheduler-config', readOnly: true },
                { name: 'server', mountPath: '/var/lib/kube-scheduler-server', readOnly: true },
              ],
            },
          ],
          volumes: [
            access.volume,
            { name: 'config', configMap: { name: configMapName } },
            {
              name: 'server',
              secret: { secretName: secretNameOf(secrets, SecretNames.KubeSchedulerServer), defaultMode: 0o640 },
            },
          ],
        },
      },
    },
  };
}
