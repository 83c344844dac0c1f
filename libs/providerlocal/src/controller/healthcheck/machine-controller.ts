// The Worker's ControlPlaneHealthy and SystemComponentsHealthy checks. Gardener's provider-local checks the seed
// Deployment `machine-controller-manager` (ControlPlaneHealthy) and the ManagedResource `extension-worker-mcm-shoot`
// with machine-controller-manager's access to the shoot (SystemComponentsHealthy). Here machine-controller-manager's
// role is the machine controller inside provider-local, which reaches the shoot through the shoot access Secret
// `gardener`: ControlPlaneHealthy says that controller runs and has taken up every MachineDeployment of the shoot,
// SystemComponentsHealthy that its access to the shoot is there.
import { isNotFound } from '@gardener-ts/controller-runtime';
import { ShootAccessSecretName, shootClientFor, type HealthCheck } from '@gardener-ts/extensions';
import { MachineDeploymentKind } from '../../machine/objects.js';

/**
 * ControlPlaneHealthy of a Worker: the machine controller runs in this process (`inProcess`: the `machine` controller
 * is enabled) and has observed the current generation of every MachineDeployment of the shoot namespace.
 */
export function machineControllerCheck(inProcess: boolean): HealthCheck {
  return async (ctx) => {
    if (!inProcess)
      return {
        status: 'False',
        detail: 'the machine controller (machine-controller-manager) does not run in provider-local: it is not enabled',
      };
    const deployments = await ctx.seedClient.list(MachineDeploymentKind, { namespace: ctx.namespace });
    for (const md of deployments.items) {
      const generation = md.metadata?.generation ?? 0;
      const observed = md.status?.observedGeneration ?? 0;
      if (!md.metadata?.deletionTimestamp && observed < generation)
        return {
          status: 'False',
          detail: `machine deployment "${md.metadata?.name ?? ''}" has not been observed by the machine controller yet (${observed}/${generation})`,
        };
    }
    return { status: 'True' };
  };
}

/**
 * SystemComponentsHealthy of a Worker: the shoot access Secret `gardener` the machine controller reaches the shoot
 * with is there and carries a token (what Gardener's `extension-worker-mcm-shoot` ManagedResource gives
 * machine-controller-manager).
 */
export function machineControllerShootAccessCheck(): HealthCheck {
  return async (ctx) => {
    try {
      const shoot = await shootClientFor(ctx.seedClient, ctx.namespace);
      shoot.close();
    } catch (err) {
      if (isNotFound(err))
        return {
          status: 'False',
          detail: `the shoot access Secret "${ShootAccessSecretName}" of the machine controller in namespace "${ctx.namespace}" not found`,
        };
      return {
        status: 'False',
        detail: `the machine controller has no access to the shoot: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
    return { status: 'True' };
  };
}
