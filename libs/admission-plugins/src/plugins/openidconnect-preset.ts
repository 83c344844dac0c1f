// OpenIDConnectPreset and ClusterOpenIDConnectPreset (gardener-apiserver plugin/pkg/shoot/oidc): on CREATE of a Shoot
// that sets no `spec.kubernetes.kubeAPIServer.oidcConfig`, take it from the preset of highest weight (ties: the
// greatest name) whose shoot selector matches the Shoot's labels — an OpenIDConnectPreset of the Shoot's namespace,
// else a ClusterOpenIDConnectPreset whose project selector also matches the labels of the Shoot's Ready project. The
// namespaced plugin runs first, so its preset wins over a cluster-wide one.
import { labelSelectorMatches, LabelSelectorError, type settingsv1alpha1, type LabelSelector } from '@gardener-ts/api';
import {
  allow,
  badRequest,
  CORE,
  internalError,
  isKind,
  mutated,
  type AdmissionAttributes,
  type KubeObject,
} from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

type OpenIDConnectPresetSpec = settingsv1alpha1.OpenIDConnectPresetSpec;
/** The `oidcConfig` of a Shoot's kube-apiserver. */
export type ShootOIDCConfig = Record<string, unknown>;

const SETTINGS = 'settings.gardener.cloud/v1alpha1';

/** A preset as the plugins weigh it: its name, spec and (cluster presets) project selector. */
export interface WeighedPreset {
  name: string;
  spec: OpenIDConnectPresetSpec;
  projectSelector?: LabelSelector;
}

/**
 * The selector a preset stored without the API server's defaulting has: an absent selector is Gardener's default, the
 * empty selector, which selects everything (a stored preset was defaulted by gardener-apiserver; ours may not be).
 */
const defaulted = (selector: LabelSelector | undefined): LabelSelector => selector ?? {};

/**
 * Gardener's filterOIDCs / filterClusterOIDCs: among the presets whose selectors match, the one of highest weight, of
 * equal weights the one whose name sorts last. Throws LabelSelectorError for a selector that does not convert.
 */
export function choosePreset<P extends WeighedPreset>(
  presets: readonly P[],
  shootLabels: Record<string, string> | undefined,
  projectLabels?: Record<string, string>,
): P | undefined {
  let chosen: P | undefined;
  for (const preset of presets) {
    if (projectLabels !== undefined && !labelSelectorMatches(defaulted(preset.projectSelector), projectLabels))
      continue;
    if (!labelSelectorMatches(defaulted(preset.spec.shootSelector), shootLabels ?? {})) continue;
    const weight = preset.spec.weight;
    const best = chosen?.spec.weight;
    if (!chosen || weight > best! || (weight === best && preset.name > chosen.name)) chosen = preset;
  }
  return chosen;
}

/** The Shoot's `oidcConfig` from a preset (Gardener's ApplyOIDCConfiguration); unset fields stay unset. */
export function oidcConfigFromPreset(spec: OpenIDConnectPresetSpec): ShootOIDCConfig {
  const server = spec.server;
  const config: ShootOIDCConfig = {
    caBundle: server.caBundle,
    clientID: server.clientID,
    groupsClaim: server.groupsClaim,
    groupsPrefix: server.groupsPrefix,
    issuerURL: server.issuerURL,
    signingAlgs: server.signingAlgs,
    usernameClaim: server.usernameClaim,
    usernamePrefix: server.usernamePrefix,
    requiredClaims: server.requiredClaims,
    clientAuthentication: spec.client
      ? Object.fromEntries(
          Object.entries({ secret: spec.client.secret, extraConfig: spec.client.extraConfig }).filter(
            ([, v]) => v !== undefined,
          ),
        )
      : undefined,
  };
  return Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined));
}

/** The Shoot with `spec.kubernetes.kubeAPIServer.oidcConfig` taken from the preset (a copy). */
export function withPresetOIDCConfig(shoot: KubeObject, spec: OpenIDConnectPresetSpec): KubeObject {
  const copy = structuredClone(shoot);
  copy.spec ??= {};
  copy.spec.kubernetes ??= {};
  copy.spec.kubernetes.kubeAPIServer ??= {};
  copy.spec.kubernetes.kubeAPIServer.oidcConfig = oidcConfigFromPreset(spec);
  return copy;
}

/** Both plugins act on the CREATE of a Shoot (main resource) that sets no OIDC configuration of its own. */
const handlesShootCreate = (a: AdmissionAttributes) =>
  isKind(a, CORE, 'Shoot') && a.operation === 'CREATE' && !a.subresource;
const hasOwnOIDCConfig = (shoot: KubeObject) => shoot.spec?.kubernetes?.kubeAPIServer?.oidcConfig != null;

const asPreset = (o: KubeObject): WeighedPreset => ({
  name: o.metadata?.name ?? '',
  spec: o.spec as OpenIDConnectPresetSpec,
  ...(o.spec?.projectSelector !== undefined ? { projectSelector: o.spec.projectSelector as LabelSelector } : {}),
});

function conversionFailure(err: unknown) {
  if (err instanceof LabelSelectorError) return internalError(`label selector conversion failed: ${err.message}`);
  throw err;
}

/** The OpenIDConnectPreset admission plugin (presets of the Shoot's namespace). */
export const OpenIDConnectPreset: AdmissionPlugin = {
  name: 'OpenIDConnectPreset',
  handles: handlesShootCreate,
  async admit(a, listers) {
    const shoot = a.object;
    if (!shoot || typeof shoot.spec !== 'object') return badRequest('could not convert resource into Shoot object');
    if (hasOwnOIDCConfig(shoot)) return allow();
    let presets: KubeObject[];
    try {
      presets = await listers.list(SETTINGS, 'OpenIDConnectPreset', a.namespace ?? shoot.metadata?.namespace);
    } catch (err) {
      return internalError(`could not list existing openidconnectpresets: ${(err as Error).message}`);
    }
    try {
      const chosen = choosePreset(presets.map(asPreset), shoot.metadata?.labels);
      return chosen ? mutated(withPresetOIDCConfig(shoot, chosen.spec)) : allow();
    } catch (err) {
      return conversionFailure(err);
    }
  },
};

/** The ClusterOpenIDConnectPreset admission plugin (cluster-wide presets, selected by project and shoot labels). */
export const ClusterOpenIDConnectPreset: AdmissionPlugin = {
  name: 'ClusterOpenIDConnectPreset',
  handles: handlesShootCreate,
  async admit(a, listers) {
    const shoot = a.object;
    if (!shoot || typeof shoot.spec !== 'object') return badRequest('could not convert resource into Shoot object');
    if (hasOwnOIDCConfig(shoot)) return allow();
    let presets: KubeObject[];
    let projects: KubeObject[];
    try {
      presets = await listers.list(SETTINGS, 'ClusterOpenIDConnectPreset');
    } catch (err) {
      return internalError(`could not list existing clusteropenidconnectpresets: ${(err as Error).message}`);
    }
    if (presets.length === 0) return allow();
    try {
      projects = await listers.list('core.gardener.cloud/v1beta1', 'Project');
    } catch (err) {
      return internalError(`could not list existing projects: ${(err as Error).message}`);
    }
    const namespace = a.namespace ?? shoot.metadata?.namespace;
    const project = projects.find((p) => p.spec?.namespace === namespace && p.status?.phase === 'Ready');
    if (!project) return allow();
    try {
      const chosen = choosePreset(presets.map(asPreset), shoot.metadata?.labels, project.metadata?.labels ?? {});
      return chosen ? mutated(withPresetOIDCConfig(shoot, chosen.spec)) : allow();
    } catch (err) {
      return conversionFailure(err);
    }
  },
};
