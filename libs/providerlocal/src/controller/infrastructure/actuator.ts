// provider-local's Infrastructure actuator (type `local`): there is no cloud infrastructure; the "network" between the
// shoot's control plane and its machines is the seed's pod network, opened by a NetworkPolicy in the shoot namespace
// that lets machine Pods (`app: machine`) talk to the control plane Pods of the namespace and back, and to DNS.
import { ignoreNotFound, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import type { Actuator, ActuatorContext, ActuatorResult, ExtensionObject } from '@gardener-ts/extensions';
import { MachinePodLabels } from '../../machine/controller/machine/reconciler.js';

/** The NetworkPolicy the actuator keeps in the shoot namespace. */
export const MachinePodsNetworkPolicy = 'allow-machine-pods';
const NetworkPolicyKind = kind<KubernetesObject>('networking.k8s.io/v1', 'NetworkPolicy');
const FieldManager = 'gardener-extension-provider-local';

/** The NetworkPolicy between machine Pods and the control plane of `namespace`. */
export function machinePodsNetworkPolicy(namespace: string): KubernetesObject & { spec: Record<string, unknown> } {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: MachinePodsNetworkPolicy, namespace },
    spec: {
      podSelector: { matchLabels: { app: MachinePodLabels.app } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ from: [{ podSelector: {} }] }],
      egress: [
        { to: [{ podSelector: {} }] },
        {
          to: [
            {
              namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
              podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
            },
          ],
          ports: [
            { protocol: 'UDP', port: 53 },
            { protocol: 'TCP', port: 53 },
          ],
        },
      ],
    },
  };
}

/** provider-local's Infrastructure actuator. */
export class InfrastructureActuator implements Actuator {
  async reconcile(ctx: ActuatorContext, infra: ExtensionObject): Promise<ActuatorResult> {
    const namespace = infra.metadata!.namespace!;
    await ctx.client.patch(
      NetworkPolicyKind,
      { namespace, name: MachinePodsNetworkPolicy },
      {
        type: 'apply',
        patch: machinePodsNetworkPolicy(namespace) as unknown as Record<string, unknown>,
        fieldManager: FieldManager,
        force: true,
      },
    );
    return {
      providerStatus: { apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1', kind: 'InfrastructureStatus' },
    };
  }

  async delete(ctx: ActuatorContext, infra: ExtensionObject): Promise<void> {
    await ctx.client
      .delete(NetworkPolicyKind, { namespace: infra.metadata!.namespace!, name: MachinePodsNetworkPolicy })
      .catch(ignoreNotFound);
  }

  async forceDelete(ctx: ActuatorContext, infra: ExtensionObject): Promise<void> {
    await this.delete(ctx, infra);
  }

  async migrate(ctx: ActuatorContext, infra: ExtensionObject): Promise<void> {
    await this.delete(ctx, infra);
  }

  async restore(ctx: ActuatorContext, infra: ExtensionObject): Promise<ActuatorResult> {
    return this.reconcile(ctx, infra);
  }
}
