// validateOpenIDConnectPreset, validateClusterOpenIDConnectPreset (Gardener's pkg/apis/settings/validation): a DNS
// label name, valid shoot/project selectors, a weight of 1-100, an https issuer URL with a host, a client ID, a PEM
// CA bundle, non-empty optional strings, known and unique signing algorithms, and client extra config without the
// keys the oidc-login provider owns.
import { X509Certificate } from 'node:crypto';
import type {
  ClusterOpenIDConnectPreset,
  KubeAPIServerOpenIDConnect,
  OpenIDConnectPreset,
  OpenIDConnectPresetSpec,
} from '../settings/v1alpha1/openidconnectpreset.js';
import { duplicate, type FieldError, FieldPath, forbidden, invalid, required } from './field.js';
import { validateLabelSelector } from './label-selector.js';
import { validateDNS1123Label, validateObjectMeta, validateObjectMetaUpdate } from './names.js';

/** RFC 7518 section 3.1 signing algorithms without `none`, sorted as Go's sets.List prints them. */
export const ValidSigningAlgs = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512'];
/** Extra config keys the kubeconfig's oidc auth-provider sets itself, sorted. */
export const ForbiddenExtraConfigKeys = [
  'client-id',
  'client-secret',
  'id-token',
  'idp-certificate-authority',
  'idp-certificate-authority-data',
  'idp-issuer-url',
  'refresh-token',
];

/** Go's `%v` of a string slice: `[a b]`. */
const goList = (values: readonly string[]) => `[${values.join(' ')}]`;

/** Whether the text starts with a PEM block holding an X.509 certificate (Gardener's utils.DecodeCertificate). */
export function isPEMCertificate(text: string): boolean {
  const block = /-----BEGIN ([^-\n]+)-----\r?\n[\s\S]*?-----END \1-----/.exec(text);
  if (!block) return false;
  try {
    new X509Certificate(block[0]);
    return true;
  } catch {
    return false;
  }
}

/** Go's url.Parse for what the issuer check needs: undefined when it does not parse, else scheme and host. */
function parseURL(text: string): { scheme: string; host: string } | undefined {
  // Go refuses control characters anywhere in a URL.
  if ([...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return undefined;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(text);
  if (!scheme) return text.startsWith(':') ? undefined : { scheme: '', host: hostOf(text) };
  return { scheme: scheme[1]!.toLowerCase(), host: hostOf(text.slice(scheme[0].length)) };
}
const hostOf = (rest: string) => (rest.startsWith('//') ? rest.slice(2).split(/[/?#]/)[0]!.replace(/^.*@/, '') : '');

function validateServer(server: KubeAPIServerOpenIDConnect, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (!server.issuerURL) errors.push(required(path.child('issuerURL'), 'must not be empty'));
  else {
    const issuer = parseURL(server.issuerURL);
    if (!issuer || issuer.host.length === 0)
      errors.push(invalid(path.child('issuerURL'), server.issuerURL, 'must be a valid URL'));
    if (issuer && issuer.scheme !== 'https')
      errors.push(invalid(path.child('issuerURL'), server.issuerURL, 'must have https scheme'));
  }
  if (!server.clientID) errors.push(required(path.child('clientID'), 'must not be empty'));
  if (server.caBundle !== undefined && !isPEMCertificate(server.caBundle))
    errors.push(invalid(path.child('caBundle'), server.caBundle, 'must be a valid PEM-encoded certificate'));
  for (const name of ['groupsClaim', 'groupsPrefix'] as const)
    if (server[name] === '') errors.push(invalid(path.child(name), '', 'must not be empty'));
  if (server.signingAlgs !== undefined) {
    const algs = path.child('signingAlgs');
    if (server.signingAlgs.length === 0) errors.push(invalid(algs, server.signingAlgs, 'must not be empty'));
    const seen = new Set<string>();
    server.signingAlgs.forEach((alg, i) => {
      if (!ValidSigningAlgs.includes(alg))
        errors.push(invalid(algs.index(i), alg, `must be one of: ${goList(ValidSigningAlgs)}`));
      if (seen.has(alg)) errors.push(duplicate(algs.index(i), alg));
      seen.add(alg);
    });
  }
  for (const name of ['usernameClaim', 'usernamePrefix'] as const)
    if (server[name] === '') errors.push(invalid(path.child(name), '', 'must not be empty'));
  return errors;
}

/** The spec rules both preset kinds share (Gardener's validateOpenIDConnectPresetSpec). */
export function validateOpenIDConnectPresetSpec(spec: OpenIDConnectPresetSpec, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [
    ...validateLabelSelector(spec.shootSelector, path.child('shootSelector'), {
      allowInvalidLabelValueInSelector: true,
    }),
  ];
  if (spec.weight <= 0 || spec.weight > 100)
    errors.push(invalid(path.child('weight'), spec.weight, 'must be in the range 1-100'));
  errors.push(...validateServer(spec.server, path.child('server')));
  if (spec.client) {
    const client = path.child('client');
    if (spec.client.secret === '') errors.push(invalid(client.child('secret'), '', 'must not be empty'));
    for (const [key, value] of Object.entries(spec.client.extraConfig ?? {})) {
      const keyPath = client.child('extraConfig').key(key);
      if (value === '') errors.push(invalid(keyPath, value, 'must not be empty'));
      if (ForbiddenExtraConfigKeys.includes(key))
        errors.push(forbidden(keyPath, `cannot be any of ${goList(ForbiddenExtraConfigKeys)}`));
    }
  }
  return errors;
}

export function validateOpenIDConnectPreset(preset: OpenIDConnectPreset, old?: OpenIDConnectPreset): FieldError[] {
  const meta = old
    ? validateObjectMetaUpdate(preset.metadata, old.metadata)
    : validateObjectMeta(preset.metadata, { namespaced: true, name: validateDNS1123Label });
  return [...meta, ...validateOpenIDConnectPresetSpec(preset.spec, FieldPath.root('spec'))];
}

export function validateClusterOpenIDConnectPreset(
  preset: ClusterOpenIDConnectPreset,
  old?: ClusterOpenIDConnectPreset,
): FieldError[] {
  const spec = FieldPath.root('spec');
  const meta = old
    ? validateObjectMetaUpdate(preset.metadata, old.metadata)
    : validateObjectMeta(preset.metadata, { namespaced: false, name: validateDNS1123Label });
  return [
    ...meta,
    ...validateLabelSelector(preset.spec.projectSelector, spec.child('projectSelector'), {
      allowInvalidLabelValueInSelector: true,
    }),
    ...validateOpenIDConnectPresetSpec(preset.spec, spec),
  ];
}
