// Carries out a ControllerInstallation plan, for a Seed and for a self-hosted Shoot alike (Gardener's deploy/delete
// steps): logs the registrations skipped while they are being deleted, deploys each wanted one (creating or updating
// its installation of the target), deletes the installations no longer needed, and fails while the deletion of an
// old installation keeps a new one from being created.
import { createHash } from 'node:crypto';
import type { ControllerDeployment, ControllerInstallation, ControllerRegistration } from '@gardener-ts/api';
import { ignoreNotFound, isNotFound, type Client, type ReconcileContext } from '@gardener-ts/controller-runtime';
import { ControllerDeploymentKind, ControllerInstallationKind } from '../../kinds.js';
import type { InstallationPlan } from './seed/required.js';

/** Label on installations: hash of the registration's spec. */
export const RegistrationSpecHash = 'registration-spec-hash';
/** Label on installations: hash of the deployment's relevant fields. */
export const ControllerDeploymentHash = 'deployment-hash';

/** The first 16 hex digits of the SHA-256 of a value's canonical JSON (sorted keys). */
export function specHash(value: unknown): string {
  return createHash('sha256').update(canonicalJSON(value)).digest('hex').slice(0, 16);
}

function canonicalJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJSON(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export interface InstallationTarget {
  /** The target's installations by registration name. */
  existing: ReadonlyMap<string, ControllerInstallation>;
  /** The target's reference in an installation's spec: `seedRef` or `shootRef`. */
  ref: Pick<ControllerInstallation['spec'], 'seedRef' | 'shootRef'>;
  /** The label with the hash of the target's spec (`seed-spec-hash`, `shoot-spec-hash`) and its value. */
  specHashLabel: [string, string];
}

export async function applyInstallationPlan(
  plan: InstallationPlan,
  registrations: readonly ControllerRegistration[],
  target: InstallationTarget,
  client: Client,
  log: ReconcileContext['log'],
): Promise<void> {
  const byName = new Map(registrations.map((r) => [r.metadata!.name!, r]));
  for (const name of plan.skipped) {
    log.info(
      { controllerRegistrationName: name },
      'Not creating or updating ControllerInstallation for ControllerRegistration because it is in deletion',
    );
  }
  for (const name of plan.deploy) {
    log.info(
      { controllerRegistrationName: name },
      'Deploying wanted ControllerInstallation for ControllerRegistration',
    );
    await deploy(client, target, byName.get(name)!, target.existing.get(name));
  }
  for (const installation of plan.delete) {
    log.info(
      {
        controllerRegistrationName: installation.spec.registrationRef.name,
        controllerInstallationName: installation.metadata?.name,
      },
      'Deleting unneeded ControllerInstallation for ControllerRegistration',
    );
    await client.delete(ControllerInstallationKind, { name: installation.metadata!.name! }).catch(ignoreNotFound);
  }
  if (plan.blocked.length > 0) {
    throw new Error(
      `cannot deploy new ControllerInstallation for "${plan.blocked.join('", "')}" because the deletion of the old ControllerInstallation is still pending`,
    );
  }
}

/** Creates the target's installation of a registration, or updates its references and hash labels. */
async function deploy(
  client: Client,
  target: InstallationTarget,
  registration: ControllerRegistration,
  existing: ControllerInstallation | undefined,
): Promise<void> {
  const registrationName = registration.metadata!.name!;
  let deployment: ControllerDeployment | undefined;
  const ref = registration.spec.deployment?.deploymentRefs?.[0];
  if (ref) {
    deployment = await client.get(ControllerDeploymentKind, { name: ref.name }).catch((err: unknown) => {
      throw new Error(
        `cannot deploy ControllerInstallation because the referenced ControllerDeployment cannot be retrieved: ${(err as Error).message}`,
        { cause: err },
      );
    });
  }
  const labels: Record<string, string> = {
    [target.specHashLabel[0]]: target.specHashLabel[1],
    [RegistrationSpecHash]: specHash(registration.spec),
    ...(deployment
      ? {
          [ControllerDeploymentHash]: specHash({
            helm: deployment.helm,
            injectGardenKubeconfig: deployment.injectGardenKubeconfig,
          }),
        }
      : {}),
  };
  const spec: ControllerInstallation['spec'] = {
    ...target.ref,
    registrationRef: { name: registrationName, resourceVersion: registration.metadata!.resourceVersion! },
    ...(deployment
      ? { deploymentRef: { name: deployment.metadata!.name!, resourceVersion: deployment.metadata!.resourceVersion! } }
      : {}),
  };
  if (existing) {
    await client
      .patch(
        ControllerInstallationKind,
        { name: existing.metadata!.name! },
        { type: 'merge', patch: { metadata: { labels }, spec } },
      )
      .catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
    return;
  }
  await client.create<ControllerInstallation>({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'ControllerInstallation',
    metadata: { generateName: `${registrationName}-`, labels },
    spec,
  });
}
