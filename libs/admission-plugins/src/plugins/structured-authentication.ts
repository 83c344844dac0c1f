// gardener-admission-controller's authentication configuration validator
// (pkg/admissioncontroller/webhook/admission/authenticationconfig): the ConfigMap a Shoot names in
// `spec.kubernetes.kubeAPIServer.structuredAuthentication.configMapName` must hold an
// `apiserver.config.k8s.io/v1beta1` (or v1alpha1) AuthenticationConfiguration under `config.yaml` that kube's
// `ValidateAuthenticationConfiguration` accepts — its JWT issuers must not be issuers of the referencing Shoots
// themselves — and may not configure anonymous authentication while a referencing Shoot uses the legacy
// `enableAnonymousAuthentication`. CEL expressions are checked for presence and duplicates, not compiled.
import { X509Certificate } from 'node:crypto';
import {
  dns1123SubdomainErrors,
  duplicate,
  FieldPath,
  invalid,
  Labels,
  required,
  tooMany,
  type FieldError,
} from '@gardener-ts/api';
import type { KubeObject, Listers } from '../attributes.js';
import { errorListText } from './audit-policy.js';
import { configMapValidator } from './config-validator.js';
import {
  apiserverConfigType,
  asList as list,
  asText as text,
  decodeConfigOrRefuse,
  goArray,
  goBool,
  goString,
  goStruct,
  type ConfigRefusal,
  type GoSchema,
} from './config-decoding.js';

const str = goString();
const strings = goArray(str);
const prefixedClaimOrExpression = goStruct('v1beta1.PrefixedClaimOrExpression', {
  claim: str,
  prefix: str,
  expression: str,
});

const AuthenticationConfigurationType = apiserverConfigType(
  'AuthenticationConfiguration',
  goStruct('v1beta1.AuthenticationConfiguration', {
    jwt: goArray(
      goStruct('v1beta1.JWTAuthenticator', {
        issuer: goStruct('v1beta1.Issuer', {
          url: str,
          discoveryURL: str,
          certificateAuthority: str,
          audiences: strings,
          audienceMatchPolicy: goString('v1beta1.AudienceMatchPolicyType'),
          egressSelectorType: goString('v1beta1.EgressSelectorType'),
        }),
        claimValidationRules: goArray(
          goStruct('v1beta1.ClaimValidationRule', { claim: str, requiredValue: str, expression: str, message: str }),
        ),
        claimMappings: goStruct('v1beta1.ClaimMappings', {
          username: prefixedClaimOrExpression,
          groups: prefixedClaimOrExpression,
          uid: goStruct('v1beta1.ClaimOrExpression', { claim: str, expression: str }),
          extra: goArray(goStruct('v1beta1.ExtraMapping', { key: str, valueExpression: str })),
        }),
        userValidationRules: goArray(goStruct('v1beta1.UserValidationRule', { expression: str, message: str })),
      }),
    ),
    anonymous: goStruct('v1beta1.AnonymousAuthConfig', {
      enabled: goBool,
      conditions: goArray(goStruct('v1beta1.AnonymousAuthCondition', { path: str })),
    }) as GoSchema,
  }),
);

/** Go's `%s` of a sorted string list: `[a b]`. */
const goList = (values: Iterable<string>) => `[${[...new Set(values)].sort().join(' ')}]`;

/** The checks of kube's `validateURL` Go's url.Parse makes possible for a (discovery) issuer URL. */
function urlErrors(url: string, disallowed: ReadonlySet<string>, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (disallowed.has(url))
    errors.push(invalid(path, url, `URL must not overlap with disallowed issuers: ${goList(disallowed)}`));
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1] ?? '';
  if (scheme !== 'https') errors.push(invalid(path, url, 'URL scheme must be https'));
  const authority = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/?#]*)/.exec(url)?.[1] ?? '';
  if (authority.includes('@')) errors.push(invalid(path, url, 'URL must not contain a username or password'));
  const beforeFragment = url.split('#')[0]!;
  if (beforeFragment.includes('?') && beforeFragment.slice(beforeFragment.indexOf('?') + 1) !== '')
    errors.push(invalid(path, url, 'URL must not contain a query'));
  if (url.includes('#') && url.slice(url.indexOf('#') + 1) !== '')
    errors.push(invalid(path, url, 'URL must not contain a fragment'));
  return errors;
}

function certificateAuthorityErrors(pem: string, path: FieldPath): FieldError[] {
  if (!pem) return [];
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  const parsed = blocks.filter((block) => {
    try {
      new X509Certificate(block);
      return true;
    } catch {
      return false;
    }
  });
  return parsed.length > 0
    ? []
    : [invalid(path, '<omitted>', 'data does not contain any valid RSA or ECDSA certificates')];
}

function issuerErrors(issuer: Record<string, any>, disallowed: ReadonlySet<string>, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const url = text(issuer.url);
  if (!url) errors.push(required(path.child('url')));
  else errors.push(...urlErrors(url, disallowed, path.child('url')));
  const discoveryURL = text(issuer.discoveryURL);
  if (discoveryURL) {
    if (url && url.replace(/\/+$/, '') === discoveryURL.replace(/\/+$/, ''))
      errors.push(invalid(path.child('discoveryURL'), discoveryURL, 'discoveryURL must be different from URL'));
    errors.push(...urlErrors(discoveryURL, new Set(), path.child('discoveryURL')));
  }
  const audiences = list(issuer.audiences).map(text);
  const policy = text(issuer.audienceMatchPolicy);
  const audiencesPath = path.child('audiences');
  if (audiences.length === 0) {
    errors.push(required(audiencesPath, `at least one ${audiencesPath} is required`));
  } else {
    const seen = new Set<string>();
    audiences.forEach((audience, i) => {
      if (!audience) errors.push(required(audiencesPath.index(i)));
      if (seen.has(audience)) errors.push(duplicate(audiencesPath.index(i), audience));
      seen.add(audience);
    });
    if (audiences.length > 1 && policy !== 'MatchAny')
      errors.push(
        invalid(
          path.child('audienceMatchPolicy'),
          policy,
          'audienceMatchPolicy must be MatchAny for multiple audiences',
        ),
      );
    if (audiences.length === 1 && policy && policy !== 'MatchAny')
      errors.push(
        invalid(
          path.child('audienceMatchPolicy'),
          policy,
          'audienceMatchPolicy must be empty or MatchAny for single audience',
        ),
      );
  }
  errors.push(...certificateAuthorityErrors(text(issuer.certificateAuthority), path.child('certificateAuthority')));
  const egress = text(issuer.egressSelectorType);
  if (egress && egress !== 'controlplane' && egress !== 'cluster')
    errors.push(
      invalid(path.child('egressSelectorType'), egress, 'egress selector must be either controlplane or cluster'),
    );
  return errors;
}

function claimValidationRuleErrors(rules: unknown, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const claims = new Set<string>();
  const expressions = new Set<string>();
  list(rules).forEach((rule, i) => {
    const at = path.index(i);
    const claim = text(rule?.claim);
    const expression = text(rule?.expression);
    if (claim && expression) errors.push(invalid(at, claim, "claim and expression can't both be set"));
    else if (!claim && !expression) errors.push(required(at, 'claim or expression is required'));
    else if (claim) {
      if (text(rule.message))
        errors.push(invalid(at.child('message'), rule.message, 'may not be specified when claim is set'));
      if (claims.has(claim)) errors.push(duplicate(at.child('claim'), claim));
      claims.add(claim);
    } else {
      if (text(rule.requiredValue))
        errors.push(
          invalid(at.child('requiredValue'), rule.requiredValue, 'may not be specified when expression is set'),
        );
      if (expressions.has(expression)) errors.push(duplicate(at.child('expression'), expression));
      expressions.add(expression);
    }
  });
  return errors;
}

function prefixedClaimOrExpressionErrors(mapping: any, path: FieldPath, claimOrExpressionRequired: boolean) {
  const claim = text(mapping?.claim);
  const expression = text(mapping?.expression);
  const hasPrefix = typeof mapping?.prefix === 'string';
  if (claim && expression) return [invalid(path, '', "claim and expression can't both be set")];
  if (!claim && !expression)
    return claimOrExpressionRequired ? [required(path, 'claim or expression is required')] : [];
  if (expression)
    return hasPrefix
      ? [invalid(path.child('prefix'), mapping.prefix, 'may not be specified when expression is set')]
      : [];
  return hasPrefix
    ? []
    : [
        required(
          path.child('prefix'),
          'prefix is required when claim is set. It can be set to an empty string to disable prefixing',
        ),
      ];
}

const isKubernetesDomain = (key: string) => {
  const domain = key.includes('/') ? key.slice(0, key.indexOf('/')) : '';
  return ['kubernetes.io', 'k8s.io'].some((d) => domain === d || domain.endsWith(`.${d}`));
};

function claimMappingErrors(mappings: any, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [
    ...prefixedClaimOrExpressionErrors(mappings?.username, path.child('username'), true),
    ...prefixedClaimOrExpressionErrors(mappings?.groups, path.child('groups'), false),
  ];
  if (text(mappings?.uid?.claim) && text(mappings?.uid?.expression))
    errors.push(invalid(path.child('uid'), '', "claim and expression can't both be set"));
  const keys = new Set<string>();
  list(mappings?.extra).forEach((mapping, i) => {
    const at = path.child('extra').index(i);
    const key = text(mapping?.key);
    const keyPath = at.child('key');
    const [domain, rest] = [key.split('/')[0]!, key.split('/').slice(1).join('/')];
    if (!key) errors.push(required(keyPath));
    else if (!key.includes('/') || !domain || !rest)
      errors.push(invalid(keyPath, key, 'must be a domain-prefixed path (such as "acme.io/foo")'));
    else errors.push(...dns1123SubdomainErrors(domain).map((message) => invalid(keyPath, domain, message)));
    if (key !== key.toLowerCase()) errors.push(invalid(keyPath, key, 'must be lowercase'));
    if (isKubernetesDomain(key))
      errors.push(invalid(keyPath, key, 'k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use'));
    if (keys.has(key)) {
      errors.push(duplicate(keyPath, key));
      return;
    }
    keys.add(key);
    if (!text(mapping?.valueExpression)) errors.push(required(at.child('valueExpression')));
  });
  return errors;
}

function userValidationRuleErrors(rules: unknown, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  list(rules).forEach((rule, i) => {
    const at = path.index(i).child('expression');
    const expression = text(rule?.expression);
    if (!expression) errors.push(required(at));
    else if (seen.has(expression)) errors.push(duplicate(at, expression));
    seen.add(expression);
  });
  return errors;
}

/**
 * kube's `ValidateAuthenticationConfiguration` without CEL compilation: the problems of a decoded
 * AuthenticationConfiguration whose JWT issuers must not be among `disallowedIssuers`.
 */
export function authenticationConfigurationErrors(
  config: Record<string, any>,
  disallowedIssuers: readonly string[] = [],
): FieldError[] {
  const root = FieldPath.root('jwt');
  const jwt = list(config.jwt);
  if (jwt.length > 64) return [tooMany(root, jwt.length, 64)];
  const disallowed = new Set(disallowedIssuers);
  const errors: FieldError[] = [];
  const issuers = new Set<string>();
  const discoveryURLs = new Set<string>();
  jwt.forEach((authenticator, i) => {
    const path = root.index(i);
    const issuer = authenticator?.issuer ?? {};
    errors.push(
      ...issuerErrors(issuer, disallowed, path.child('issuer')),
      ...claimValidationRuleErrors(authenticator?.claimValidationRules, path.child('claimValidationRules')),
      ...claimMappingErrors(authenticator?.claimMappings, path.child('claimMappings')),
      ...userValidationRuleErrors(authenticator?.userValidationRules, path.child('userValidationRules')),
    );
    const url = text(issuer.url);
    if (issuers.has(url)) errors.push(duplicate(path.child('issuer', 'url'), url));
    issuers.add(url);
    const discoveryURL = text(issuer.discoveryURL);
    if (discoveryURL) {
      if (discoveryURLs.has(discoveryURL)) errors.push(duplicate(path.child('issuer', 'discoveryURL'), discoveryURL));
      discoveryURLs.add(discoveryURL);
    }
  });
  const anonymous = config.anonymous;
  if (anonymous && anonymous.enabled !== true && list(anonymous.conditions).length > 0)
    errors.push(
      invalid(
        FieldPath.root('anonymous', 'conditions'),
        anonymous.conditions,
        'enabled should be set to true when conditions are defined',
      ),
    );
  return errors;
}

const kubeAPIServer = (shoot: KubeObject) => shoot.spec?.kubernetes?.kubeAPIServer ?? {};

/** The issuers a Shoot itself uses: its service account issuer, accepted issuers and advertised API addresses. */
export function shootIssuers(shoot: KubeObject): string[] {
  const config = kubeAPIServer(shoot).serviceAccountConfig ?? {};
  return [
    ...list(config.acceptedIssuers).map(text),
    ...(typeof config.issuer === 'string' ? [config.issuer] : []),
    ...list(shoot.status?.advertisedAddresses)
      .filter((a) => ['service-account-issuer', 'internal', 'external'].includes(a?.name))
      .map((a) => text(a.url)),
  ];
}

export const ManagedIssuerAnnotation = 'authentication.gardener.cloud/issuer';
const hasManagedIssuer = (shoot: KubeObject) => shoot.metadata?.annotations?.[ManagedIssuerAnnotation] === 'managed';
const legacyAnonymousAuthentication = (shoot: KubeObject) =>
  kubeAPIServer(shoot).enableAnonymousAuthentication !== undefined &&
  kubeAPIServer(shoot).enableAnonymousAuthentication !== null;

/** The managed service account issuers of the Shoots (`https://<hostname>/projects/<project>/shoots/<uid>/issuer`). */
async function managedIssuers(shoots: readonly KubeObject[], listers: Listers): Promise<string[]> {
  const managed = shoots.filter((s) => hasManagedIssuer(s) && s.metadata?.uid);
  if (managed.length === 0) return [];
  const secrets = await listers.list('v1', 'Secret', 'garden');
  const issuerSecret = secrets.find((s) => s.metadata?.labels?.[Labels.GardenRole] === 'shoot-service-account-issuer');
  const hostname = issuerSecret?.data?.hostname
    ? Buffer.from(issuerSecret.data.hostname, 'base64').toString('utf8')
    : '';
  if (!hostname) return [];
  const issuers: string[] = [];
  for (const shoot of managed) {
    const namespace = shoot.metadata?.namespace ?? '';
    const ns = await listers.get('v1', 'Namespace', namespace);
    if (!ns) throw new Error(`failed to get namespace ${namespace}: namespaces "${namespace}" not found`);
    const project = ns.metadata?.labels?.[Labels.ProjectName];
    if (project) issuers.push(`https://${hostname}/projects/${project}/shoots/${shoot.metadata!.uid}/issuer`);
  }
  return issuers;
}

/** Gardener's authentication configuration check of `raw` for the Shoots referencing it; undefined when valid. */
export async function admitAuthenticationConfiguration(
  raw: string,
  shoots: readonly KubeObject[],
  listers: Listers,
): Promise<ConfigRefusal | undefined> {
  const decoded = decodeConfigOrRefuse(raw, AuthenticationConfigurationType, 'authentication configuration');
  if ('refusal' in decoded) return decoded.refusal;
  let disallowed: string[];
  try {
    disallowed = [...shoots.flatMap(shootIssuers), ...(await managedIssuers(shoots, listers))];
  } catch (err) {
    return { code: 500, message: (err as Error).message };
  }
  const errors = authenticationConfigurationErrors(decoded.object, disallowed);
  if (errors.length > 0)
    return { code: 422, message: `provided invalid authentication configuration: ${errorListText(errors)}` };
  const legacy = shoots.filter(legacyAnonymousAuthentication);
  if (decoded.object.anonymous && legacy.length > 0)
    return {
      code: 422,
      message: `cannot use anonymous authentication configuration when the following shoots have the legacy configuration enabled: ${legacy.map((s) => s.metadata?.name).join(', ')}`,
    };
  return undefined;
}

/** The authentication configuration ConfigMap a Shoot references. */
export const authenticationConfigMapName = (shoot: KubeObject): string | undefined =>
  kubeAPIServer(shoot).structuredAuthentication?.configMapName || undefined;

const sameIssuers = (a: KubeObject, b: KubeObject) => {
  const [x, y] = [new Set(shootIssuers(a)), new Set(shootIssuers(b))];
  return x.size === y.size && [...x].every((i) => y.has(i));
};

/** The authentication configuration validator (Shoot CREATE/UPDATE, ConfigMap UPDATE in project namespaces). */
export const AuthenticationConfigurationValidator = configMapValidator({
  name: 'AuthenticationConfigurationValidator',
  purpose: 'authentication configuration',
  dataKey: 'config.yaml',
  configMapName: authenticationConfigMapName,
  skipOnShootUpdate: (shoot, old) =>
    hasManagedIssuer(shoot) === hasManagedIssuer(old) &&
    !(!legacyAnonymousAuthentication(old) && legacyAnonymousAuthentication(shoot)) &&
    sameIssuers(shoot, old),
  admitConfig: admitAuthenticationConfiguration,
});
