// The webhook configurations of provider-local, as Gardener's extension webhook registration builds them for it: in
// the seed the MutatingWebhookConfiguration `gardener-extension-provider-local` (the node webhook on `nodes/status` and
// the control plane webhook on Deployments and OperatingSystemConfigs of shoot namespaces of provider `local`), reaching the extension
// through its Service; in every shoot `gardener-extension-provider-local-shoot` (the node webhook), reaching it by URL
// `https://<service>.<extension namespace>:443` from the shoot's kube-apiserver, which runs in the seed.
import { isIP } from 'node:net';
import { Labels } from '@gardener-ts/api';
import {
  rule,
  webhookConfiguration,
  type ClientTarget,
  type KubernetesObject,
  type WebhookSpec,
} from '@gardener-ts/controller-runtime';

/** The name of the extension's Service, its webhook configurations and its serving certificate's subject. */
export const WebhookServiceName = 'gardener-extension-provider-local';
/** The port of the Service (Gardener's `--webhook-config-service-port`). */
export const WebhookServicePort = 443;
/**
 * The default port the webhook server listens on (the configuration's `server.webhooks.port`; the Service's
 * `targetPort`, the chart's container port `webhooks`).
 */
export const WebhookServerPort = 9443;
/** The seed's MutatingWebhookConfiguration (Gardener's prefixed extension name). */
export const SeedWebhookConfigurationName = WebhookServiceName;
/** The shoot's MutatingWebhookConfiguration (the seed's name with `-shoot`). */
export const ShootWebhookConfigurationName = `${WebhookServiceName}-shoot`;
/** The label that keeps the shoot care's webhook remediation away from the extension's configurations. */
export const ExcludeWebhookFromRemediationLabel = 'remediation.webhook.shoot.gardener.cloud/exclude';
/** The label of shoot namespaces naming the shoot's provider type. */
export const ShootProviderLabel = 'shoot.gardener.cloud/provider';

/** Where the server serves each webhook (Gardener: the webhook's name as path). */
export const WebhookPaths = {
  node: '/node',
  nodeShoot: '/node-shoot',
  controlPlane: '/controlplane',
} as const;

/** The entry of the node webhook: CREATE and UPDATE of `nodes/status`, answered within a second. */
export function nodeWebhook(target: 'seed' | 'shoot'): WebhookSpec {
  const name = target === 'seed' ? 'node' : 'node-shoot';
  return {
    name: `${name}.local.extensions.gardener.cloud`,
    path: target === 'seed' ? WebhookPaths.node : WebhookPaths.nodeShoot,
    rules: [rule(['CREATE', 'UPDATE'], '', 'v1', 'nodes/status')],
    // Seed: Ignore rather than Gardener's Fail — the seed's own kubelet reports through this webhook, and provider-local
    // runs on that node: a failing call must not keep the node from reporting Ready while provider-local is starting.
    failurePolicy: target === 'seed' ? 'Ignore' : 'Fail',
    matchPolicy: 'Exact',
    sideEffects: 'None',
    timeoutSeconds: 1,
  };
}

/**
 * The entry of the control plane webhook: Deployments (the kube-scheduler's is mutated) and OperatingSystemConfigs in
 * shoot namespaces of provider `local`, only those labelled
 * `provider.extensions.gardener.cloud/mutated-by-controlplane-webhook=true` (the gardenlet labels its kube-apiserver,
 * kube-controller-manager and kube-scheduler Deployments and the OSCs), as Gardener selects them: other Deployments of
 * a shoot namespace are written without a call to the extension.
 */
export function controlPlaneWebhook(): WebhookSpec {
  return {
    name: 'controlplane.local.extensions.gardener.cloud',
    path: WebhookPaths.controlPlane,
    rules: [
      rule(['CREATE', 'UPDATE'], 'apps', 'v1', 'deployments'),
      rule(['CREATE', 'UPDATE'], 'extensions.gardener.cloud', 'v1alpha1', 'operatingsystemconfigs'),
    ],
    failurePolicy: 'Fail',
    matchPolicy: 'Exact',
    sideEffects: 'None',
    timeoutSeconds: 10,
    namespaceSelector: { matchExpressions: [{ key: ShootProviderLabel, operator: 'In', values: ['local'] }] },
    objectSelector: { matchLabels: { [Labels.ExtensionProviderMutatedByControlplaneWebhook]: 'true' } },
  };
}

/**
 * The seed's MutatingWebhookConfiguration, `caBundle` (PEM) trusted: reaching the extension's Service in `namespace`,
 * or `target` (Gardener's `url` mode, for an extension running outside the seed).
 */
export function seedWebhookConfiguration(
  namespace: string,
  caBundle: string,
  target: ClientTarget = { service: { namespace, name: WebhookServiceName, port: WebhookServicePort } },
): KubernetesObject {
  return webhookConfiguration({
    type: 'mutating',
    name: SeedWebhookConfigurationName,
    labels: { [ExcludeWebhookFromRemediationLabel]: 'true' },
    target,
    caBundle,
    webhooks: [nodeWebhook('seed'), controlPlaneWebhook()],
  });
}

/** The base URL the shoot's kube-apiserver (a Pod in the seed) reaches the extension's Service in `namespace` at. */
export function shootWebhookURL(namespace: string): string {
  return `https://${WebhookServiceName}.${namespace}:${WebhookServicePort}`;
}

/** The shoot's MutatingWebhookConfiguration (deployed by the ControlPlane actuator): the node webhook by URL. */
export function shootWebhookConfiguration(
  namespace: string,
  caBundle: string,
  url = shootWebhookURL(namespace),
): KubernetesObject {
  return webhookConfiguration({
    type: 'mutating',
    name: ShootWebhookConfigurationName,
    labels: { [ExcludeWebhookFromRemediationLabel]: 'true' },
    target: { url },
    caBundle,
    webhooks: [nodeWebhook('shoot')],
  });
}

/** The names the serving certificate is valid for: the Service's names in `namespace` (Gardener's), plus `extra`. */
export function servingNames(namespace: string, extra: readonly string[] = []): { dns: string[]; ips: string[] } {
  const names = [
    WebhookServiceName,
    `${WebhookServiceName}.${namespace}`,
    `${WebhookServiceName}.${namespace}.svc`,
    ...extra,
  ];
  return { dns: names.filter((n) => isIP(n) === 0), ips: names.filter((n) => isIP(n) !== 0) };
}
