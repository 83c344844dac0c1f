// The OIDC configuration of a new Shoot's kube-apiserver, as Gardener's ShootValidator checks it on CREATE only
// (validateKubeAPIServerOIDCConfig; existing Shoots keep what they have): a set `oidcConfig` needs a client ID and an
// issuer URL. Static validation checks the rest.
import { FieldPath, required, type FieldError } from '@gardener-ts/api';
import type { KubeObject } from '../attributes.js';

/** The client ID and issuer URL of a new Shoot's `spec.kubernetes.kubeAPIServer.oidcConfig`. */
export function validateNewShootOIDCConfig(shoot: KubeObject): FieldError[] {
  const oidc = shoot.spec?.kubernetes?.kubeAPIServer?.oidcConfig;
  if (oidc == null) return [];
  const path = FieldPath.root('spec', 'kubernetes', 'kubeAPIServer', 'oidcConfig');
  const errors: FieldError[] = [];
  for (const [name, field] of [
    ['clientID', 'clientID'],
    ['issuerURL', 'issuerURL'],
  ] as const) {
    const value = oidc[field];
    if (value == null) errors.push(required(path.child(field), `${name} must be set when oidcConfig is provided`));
    else if (value === '') errors.push(required(path.child(field), `${name} cannot be empty`));
  }
  return errors;
}
