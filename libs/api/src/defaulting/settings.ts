// defaultOpenIDConnectPreset, defaultClusterOpenIDConnectPreset (Gardener's pkg/apis/settings/v1alpha1 defaults): an
// absent shoot (and project) selector selects everything; the server signs with RS256 and names users by `sub`.
import {
  DefaultSignAlg,
  DefaultUsernameClaim,
  type ClusterOpenIDConnectPreset,
  type OpenIDConnectPreset,
  type OpenIDConnectPresetSpec,
} from '../settings/v1alpha1/openidconnectpreset.js';

function defaultPresetSpec(spec: OpenIDConnectPresetSpec | undefined): void {
  if (!spec) return;
  spec.shootSelector ??= {};
  if (spec.server) {
    if (!spec.server.signingAlgs?.length) spec.server.signingAlgs = [DefaultSignAlg];
    spec.server.usernameClaim ??= DefaultUsernameClaim;
  }
}

export function defaultOpenIDConnectPreset(input: OpenIDConnectPreset): OpenIDConnectPreset {
  const preset = structuredClone(input);
  defaultPresetSpec(preset.spec);
  return preset;
}

export function defaultClusterOpenIDConnectPreset(input: ClusterOpenIDConnectPreset): ClusterOpenIDConnectPreset {
  const preset = structuredClone(input);
  defaultPresetSpec(preset.spec);
  if (preset.spec) preset.spec.projectSelector ??= {};
  return preset;
}
