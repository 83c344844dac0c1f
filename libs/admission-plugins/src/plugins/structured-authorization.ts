// gardener-admission-controller's authorization configuration validator
// (pkg/admissioncontroller/webhook/admission/authorizationconfig): the ConfigMap a Shoot names in
// `spec.kubernetes.kubeAPIServer.structuredAuthorization.configMapName` must hold an `apiserver.config.k8s.io/v1beta1`
// (or v1alpha1) AuthorizationConfiguration under `config.yaml` with only Webhook authorizers, none setting
// `connectionInfo` (Gardener connects them with the kubeconfig Secrets the Shoot lists in
// `structuredAuthorization.kubeconfigs`, one per authorizer name), and valid for kube's
// `ValidateAuthorizationConfiguration`. Match condition expressions are checked for presence and duplicates, not compiled.
import {
  dns1123SubdomainErrors,
  duplicate,
  FieldPath,
  forbidden,
  formatGoDuration,
  invalid,
  notSupported,
  parseGoDuration,
  required,
  tooMany,
  type FieldError,
} from '@gardener-ts/api';
import type { KubeObject } from '../attributes.js';
import { errorListText } from './audit-policy.js';
import { configMapValidator } from './config-validator.js';
import {
  apiserverConfigType,
  asList as list,
  asText as text,
  decodeConfigOrRefuse,
  goArray,
  goString,
  goStruct,
  type ConfigRefusal,
} from './config-decoding.js';

const str = goString();
const duration = goString('v1.Duration');

const AuthorizationConfigurationType = apiserverConfigType(
  'AuthorizationConfiguration',
  goStruct('v1beta1.AuthorizationConfiguration', {
    authorizers: goArray(
      goStruct('v1beta1.AuthorizerConfiguration', {
        type: str,
        name: str,
        webhook: goStruct('v1beta1.WebhookConfiguration', {
          authorizedTTL: duration,
          unauthorizedTTL: duration,
          timeout: duration,
          subjectAccessReviewVersion: str,
          matchConditionSubjectAccessReviewVersion: str,
          failurePolicy: str,
          connectionInfo: goStruct('v1beta1.WebhookConnectionInfo', { type: str, kubeConfigFile: str }),
          matchConditions: goArray(goStruct('v1beta1.WebhookMatchCondition', { expression: str })),
        }),
      }),
    ),
  }),
);

const DURATIONS = ['authorizedTTL', 'unauthorizedTTL', 'timeout'] as const;

/** A metav1.Duration field as nanoseconds (0 when unset), or the decoder's error (`time: invalid duration "x"`). */
function durationOf(value: unknown): bigint | { error: string } {
  if (typeof value !== 'string') return 0n;
  try {
    return parseGoDuration(value);
  } catch (err) {
    return { error: (err as Error).message };
  }
}

function webhookErrors(webhook: Record<string, any>, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const [authorizedTTL, unauthorizedTTL, timeout] = DURATIONS.map((d) => durationOf(webhook[d]) as bigint);
  if (timeout === 0n) errors.push(required(path.child('timeout')));
  else if (timeout! > 30_000_000_000n || timeout! < 0n)
    errors.push(invalid(path.child('timeout'), formatGoDuration(timeout!), 'must be > 0s and <= 30s'));
  for (const [name, value] of [
    ['authorizedTTL', authorizedTTL],
    ['unauthorizedTTL', unauthorizedTTL],
  ] as const) {
    if (value === 0n) errors.push(required(path.child(name)));
    else if (value! < 0n) errors.push(invalid(path.child(name), formatGoDuration(value!), 'must be > 0s'));
  }
  const sarVersion = text(webhook.subjectAccessReviewVersion);
  if (!sarVersion) errors.push(required(path.child('subjectAccessReviewVersion')));
  else if (sarVersion !== 'v1' && sarVersion !== 'v1beta1')
    errors.push(notSupported(path.child('subjectAccessReviewVersion'), sarVersion, ['v1', 'v1beta1']));
  const conditions = list(webhook.matchConditions);
  const conditionVersion = text(webhook.matchConditionSubjectAccessReviewVersion);
  if (!conditionVersion) {
    if (conditions.length > 0)
      errors.push(
        required(path.child('matchConditionSubjectAccessReviewVersion'), 'required if match conditions are specified'),
      );
  } else if (conditionVersion !== 'v1')
    errors.push(notSupported(path.child('matchConditionSubjectAccessReviewVersion'), conditionVersion, ['v1']));
  const failurePolicy = text(webhook.failurePolicy);
  if (!failurePolicy) errors.push(required(path.child('failurePolicy')));
  else if (failurePolicy !== 'NoOpinion' && failurePolicy !== 'Deny')
    errors.push(notSupported(path.child('failurePolicy'), failurePolicy, ['NoOpinion', 'Deny']));
  // connectionInfo is InCluster here: Gardener refuses any other before and sets it for this check.
  if (conditions.length > 64) {
    errors.push(tooMany(path.child('matchConditions'), conditions.length, 64));
    return errors;
  }
  const seen = new Set<string>();
  conditions.forEach((condition, i) => {
    const at = path.child('matchConditions').index(i).child('expression');
    const expression = text(condition?.expression);
    if (expression.trim() === '') errors.push(required(at));
    else if (seen.has(expression)) errors.push(duplicate(at, expression));
    seen.add(expression);
  });
  return errors;
}

/**
 * kube's `ValidateAuthorizationConfiguration` as Gardener calls it (root path `""`, so paths start with a dot; only
 * the repeatable `Webhook` type), without CEL compilation.
 */
export function authorizationConfigurationErrors(config: Record<string, any>): FieldError[] {
  const root = FieldPath.root('.authorizers');
  const authorizers = list(config.authorizers);
  const errors: FieldError[] = [];
  if (authorizers.length === 0) errors.push(required(root, 'at least one authorization mode must be defined'));
  const names = new Set<string>();
  authorizers.forEach((authorizer, i) => {
    const path = root.index(i);
    const type = text(authorizer?.type);
    if (!type) {
      errors.push(required(path.child('type')));
      return;
    }
    if (type !== 'Webhook') {
      errors.push(notSupported(path.child('type'), type, ['Webhook']));
      return;
    }
    const name = text(authorizer.name);
    const nameErrors = dns1123SubdomainErrors(name);
    if (!name) errors.push(required(path.child('name')));
    else if (names.has(name)) errors.push(duplicate(path.child('name'), name));
    else if (nameErrors.length > 0)
      errors.push(invalid(path.child('name'), name, `authorizer name is invalid: ${nameErrors.join(', ')}`));
    names.add(name);
    if (!authorizer.webhook) errors.push(required(path.child('webhook'), 'required when type=Webhook'));
    else errors.push(...webhookErrors(authorizer.webhook, path));
  });
  return errors;
}

const kubeconfigAuthorizerNames = (shoot: KubeObject): string[] =>
  list(shoot.spec?.kubernetes?.kubeAPIServer?.structuredAuthorization?.kubeconfigs).map((k) => text(k?.authorizerName));

/** Gardener's authorization configuration check of `raw` for the Shoots referencing it; undefined when valid. */
export function admitAuthorizationConfiguration(raw: string, shoots: readonly KubeObject[]): ConfigRefusal | undefined {
  const decoded = decodeConfigOrRefuse(raw, AuthorizationConfigurationType, 'authorization configuration');
  if ('refusal' in decoded) return decoded.refusal;
  const invalidConfig = (detail: string): ConfigRefusal => ({
    code: 422,
    message: `provided invalid authorization configuration: ${detail}`,
  });
  // metav1.Duration fields that are no Go durations fail the decoding.
  for (const authorizer of list(decoded.object.authorizers))
    for (const name of DURATIONS) {
      const value = durationOf(authorizer?.webhook?.[name]);
      if (typeof value !== 'bigint')
        return { code: 422, message: `failed to decode the provided authorization configuration: ${value.error}` };
    }
  const webhookNames: string[] = [];
  for (const [i, authorizer] of list(decoded.object.authorizers).entries()) {
    if (authorizer?.type !== 'Webhook' || !authorizer.webhook) continue;
    webhookNames.push(text(authorizer.name));
    const connectionInfo = authorizer.webhook.connectionInfo;
    if (connectionInfo && (text(connectionInfo.type) || typeof connectionInfo.kubeConfigFile === 'string'))
      return invalidConfig(
        errorListText([
          forbidden(
            FieldPath.root('authorizers').index(i).child('connectionInfo'),
            'connectionInfo is not allowed to be set',
          ),
        ]),
      );
  }
  for (const shoot of shoots) {
    const references = kubeconfigAuthorizerNames(shoot);
    const missing = webhookNames.find((name) => !references.includes(name));
    if (missing !== undefined)
      return invalidConfig(
        `must provide kubeconfig secret name reference for webhook authorizer "${missing}" in shoot ${shoot.metadata?.namespace}/${shoot.metadata?.name}`,
      );
  }
  const errors = authorizationConfigurationErrors(decoded.object);
  return errors.length > 0 ? invalidConfig(errorListText(errors)) : undefined;
}

/** The authorization configuration ConfigMap a Shoot references. */
export const authorizationConfigMapName = (shoot: KubeObject): string | undefined =>
  shoot.spec?.kubernetes?.kubeAPIServer?.structuredAuthorization?.configMapName || undefined;

/** The authorization configuration validator (Shoot CREATE/UPDATE, ConfigMap UPDATE in project namespaces). */
export const AuthorizationConfigurationValidator = configMapValidator({
  name: 'AuthorizationConfigurationValidator',
  purpose: 'authorization configuration',
  dataKey: 'config.yaml',
  configMapName: authorizationConfigMapName,
  skipOnShootUpdate: (shoot, old) => {
    const [x, y] = [new Set(kubeconfigAuthorizerNames(shoot)), new Set(kubeconfigAuthorizerNames(old))];
    return x.size === y.size && [...x].every((n) => y.has(n));
  },
  admitConfig: async (raw, shoots) => admitAuthorizationConfiguration(raw, shoots),
});
