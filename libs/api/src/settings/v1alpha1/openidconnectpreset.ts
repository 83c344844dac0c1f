// OpenIDConnectPreset and ClusterOpenIDConnectPreset (settings.gardener.cloud/v1alpha1): the kube-apiserver OIDC
// configuration Gardener's OpenIDConnectPreset and ClusterOpenIDConnectPreset admission plugins give new Shoots that
// set none, chosen by shoot (and project) label selectors and weight (pkg/apis/settings/v1alpha1).
import { Type, type Static } from '@sinclair/typebox';
import { type KindInfo, ageColumn, defineKind, kindSchema } from '../../schema/kind.js';
import { LabelSelector } from '../../schema/meta.js';
import { Int32, Opt, Str, StringMap } from '../../schema/primitives.js';

export const GroupVersion = { group: 'settings.gardener.cloud', version: 'v1alpha1' } as const;

/** The default `server.usernameClaim` (Gardener's DefaultUsernameClaim). */
export const DefaultUsernameClaim = 'sub';
/** The default `server.signingAlgs` entry (Gardener's DefaultSignAlg). */
export const DefaultSignAlg = 'RS256';

/** The kube-apiserver's OpenID Connect settings a preset applies (KubeAPIServerOpenIDConnect). */
export const KubeAPIServerOpenIDConnect = Type.Object({
  caBundle: Opt(Str()),
  clientID: Str(),
  groupsClaim: Opt(Str()),
  groupsPrefix: Opt(Str()),
  issuerURL: Str(),
  requiredClaims: Opt(StringMap()),
  signingAlgs: Opt(Type.Array(Str())),
  usernameClaim: Opt(Str()),
  usernamePrefix: Opt(Str()),
});
export type KubeAPIServerOpenIDConnect = Static<typeof KubeAPIServerOpenIDConnect>;

/** The client side of the OIDC configuration (deprecated in Gardener, still applied to Shoots). */
export const OpenIDConnectClientAuthentication = Type.Object({
  secret: Opt(Str()),
  extraConfig: Opt(StringMap()),
});

const presetSpecFields = {
  server: KubeAPIServerOpenIDConnect,
  client: Opt(OpenIDConnectClientAuthentication),
  shootSelector: Opt(LabelSelector),
  weight: Int32(),
};
export const OpenIDConnectPresetSpec = Type.Object(presetSpecFields);
export type OpenIDConnectPresetSpec = Static<typeof OpenIDConnectPresetSpec>;

export const ClusterOpenIDConnectPresetSpec = Type.Object({
  ...presetSpecFields,
  projectSelector: Opt(LabelSelector),
});
export type ClusterOpenIDConnectPresetSpec = Static<typeof ClusterOpenIDConnectPresetSpec>;

const columns = [
  { name: 'Issuer', type: 'string' as const, jsonPath: '.spec.server.issuerURL' },
  { name: 'Weight', type: 'integer' as const, jsonPath: '.spec.weight', priority: 1 },
  ageColumn,
];

const presetInfo: KindInfo = {
  ...GroupVersion,
  kind: 'OpenIDConnectPreset',
  plural: 'openidconnectpresets',
  singular: 'openidconnectpreset',
  namespaced: true,
  shortNames: ['oidcps'],
  statusSubresource: false,
  printerColumns: columns,
};
export const OpenIDConnectPresetKind = defineKind(
  presetInfo,
  kindSchema(presetInfo, { spec: OpenIDConnectPresetSpec }),
);
export type OpenIDConnectPreset = Static<typeof OpenIDConnectPresetKind.schema>;

const clusterPresetInfo: KindInfo = {
  ...GroupVersion,
  kind: 'ClusterOpenIDConnectPreset',
  plural: 'clusteropenidconnectpresets',
  singular: 'clusteropenidconnectpreset',
  namespaced: false,
  shortNames: ['coidcps'],
  statusSubresource: false,
  printerColumns: columns,
};
export const ClusterOpenIDConnectPresetKind = defineKind(
  clusterPresetInfo,
  kindSchema(clusterPresetInfo, { spec: ClusterOpenIDConnectPresetSpec }),
);
export type ClusterOpenIDConnectPreset = Static<typeof ClusterOpenIDConnectPresetKind.schema>;
