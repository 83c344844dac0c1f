// The managed service account issuer of a Shoot (annotation `authentication.gardener.cloud/issuer: managed`), as
// Gardener's ShootValidator admits it (validateManagedServiceAccountIssuer): only where the garden is configured with
// the managed issuer (a Secret labelled `gardener.cloud/role: shoot-service-account-issuer` in the `garden`
// namespace), never disabled again once enabled, and not together with an own `serviceAccountConfig.issuer`.
import { Annotations, Labels } from '@gardener-ts/api';
import type { KubeObject, Listers } from '../attributes.js';

/** The value of the issuer annotation that asks for the managed issuer. */
export const ManagedIssuerValue = 'managed';
/** The `gardener.cloud/role` of the garden's managed issuer configuration Secret. */
export const ShootServiceAccountIssuerRole = 'shoot-service-account-issuer';

/** Whether the Shoot asks for the managed service account issuer (Gardener's HasManagedIssuer). */
export const hasManagedIssuer = (shoot: KubeObject | undefined | null): boolean =>
  shoot?.metadata?.annotations?.[Annotations.AuthenticationIssuer] === ManagedIssuerValue;

/** Why a Shoot's managed issuer setting is refused: 403 Forbidden, or 500 when the garden lost its configuration. */
export type ManagedIssuerRefusal = { code: 403 | 500; reason: string };

/**
 * Gardener's rules for the managed issuer, given whether the garden is configured with it: enabling it needs the
 * configuration; a Shoot that has it while the configuration is gone needs an operator (internal error); once enabled
 * it stays; and it excludes an own service account issuer. Undefined when the Shoot passes.
 */
export function managedIssuerRefusal(
  shoot: KubeObject,
  old: KubeObject | undefined,
  configured: boolean,
): ManagedIssuerRefusal | undefined {
  const managed = hasManagedIssuer(shoot);
  const wasManaged = hasManagedIssuer(old);
  if (!managed && !wasManaged) return undefined;
  if (!configured) {
    if (managed)
      return {
        code: 403,
        reason: 'cannot enable managed service account issuer as it is not supported in this Gardener installation',
      };
    return {
      code: 500,
      reason: 'old shoot object has managed service account issuer enabled, but Gardener configuration is missing',
    };
  }
  if (wasManaged && !managed)
    return { code: 403, reason: 'once enabled managed service account issuer cannot be disabled' };
  if (managed && shoot.spec?.kubernetes?.kubeAPIServer?.serviceAccountConfig?.issuer != null)
    return {
      code: 403,
      reason:
        'managed service account issuer cannot be enabled when .kubernetes.kubeAPIServer.serviceAccountConfig.issuer is set',
    };
  return undefined;
}

/** Whether the garden holds a managed issuer configuration Secret. */
export async function managedIssuerConfigured(listers: Listers): Promise<boolean> {
  const secrets = await listers.list('v1', 'Secret', 'garden');
  return secrets.some((s) => s.metadata?.labels?.[Labels.GardenRole] === ShootServiceAccountIssuerRole);
}

/** The managed issuer rules for a Shoot request, reading the garden's configuration only when the Shoot involves it. */
export async function validateManagedIssuer(
  shoot: KubeObject,
  old: KubeObject | undefined,
  listers: Listers,
): Promise<ManagedIssuerRefusal | undefined> {
  if (!hasManagedIssuer(shoot) && !hasManagedIssuer(old)) return undefined;
  return managedIssuerRefusal(shoot, old, await managedIssuerConfigured(listers));
}

/**
 * The garden Secret that enables the managed issuer (`garden` namespace, role `shoot-service-account-issuer`,
 * `hostname` of the issuer URLs), as a Gardener installation with the managed issuer holds it.
 */
export function managedIssuerConfigSecret(hostname: string, name = 'shoot-service-account-issuer'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'garden', labels: { [Labels.GardenRole]: ShootServiceAccountIssuerRole } },
    type: 'Opaque',
    data: { hostname: Buffer.from(hostname).toString('base64') },
  };
}
