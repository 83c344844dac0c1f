// The Mutating/ValidatingWebhookConfigurations that register the admission chain on the garden API server for
// every Gardener API group (core, security, seed management, operations). The Helm chart renders the same objects
// (deploy/charts/admission/templates/webhooks.yaml; a chart test compares them with these).
import { webhookConfiguration, type ClientTarget, type RuleWithOperations } from '@gardener-ts/controller-runtime';

/** The name of both configurations. */
export const WEBHOOK_CONFIGURATION_NAME = 'gardener-admission-controller';

/** Where the server serves the chain's two phases. */
export const WebhookPaths = {
  mutating: '/webhooks/admission/mutate',
  validating: '/webhooks/admission/validate',
  /** The SeedAuthorizer's SubjectAccessReview endpoint (the API server's authorization webhook). */
  seedAuthorizer: '/webhooks/auth/seed',
} as const;

/** The API groups whose resources go through the chain. */
export const ADMITTED_GROUPS = [
  'core.gardener.cloud',
  'security.gardener.cloud',
  'seedmanagement.gardener.cloud',
  'operations.gardener.cloud',
  'settings.gardener.cloud',
] as const;

const rules = (operations: RuleWithOperations['operations']): RuleWithOperations[] =>
  ADMITTED_GROUPS.map((group) => ({
    operations,
    apiGroups: [group],
    apiVersions: ['*'],
    resources: ['*'],
    scope: '*',
  }));

/** The two configurations, reaching the server at `target` and trusting `caBundle` (PEM). */
export function admissionWebhookConfigurations(target: ClientTarget, caBundle: string) {
  return [
    webhookConfiguration({
      type: 'mutating',
      name: WEBHOOK_CONFIGURATION_NAME,
      target,
      caBundle,
      webhooks: [
        {
          name: 'mutate.admission.gardener.cloud',
          path: WebhookPaths.mutating,
          rules: rules(['CREATE', 'UPDATE']),
          failurePolicy: 'Fail',
          sideEffects: 'None',
          timeoutSeconds: 10,
          reinvocationPolicy: 'Never',
        },
      ],
    }),
    webhookConfiguration({
      type: 'validating',
      name: WEBHOOK_CONFIGURATION_NAME,
      target,
      caBundle,
      webhooks: [
        {
          name: 'validate.admission.gardener.cloud',
          path: WebhookPaths.validating,
          // Project namespaces are protected from direct deletion (gardener-admission-controller).
          rules: [
            ...rules(['CREATE', 'UPDATE', 'DELETE']),
            {
              operations: ['DELETE'],
              apiGroups: [''],
              apiVersions: ['v1'],
              resources: ['namespaces'],
              scope: 'Cluster',
            },
          ],
          failurePolicy: 'Fail',
          sideEffects: 'None',
          timeoutSeconds: 10,
        },
        {
          // Secrets of project namespaces only (gardener-admission-controller's kubeconfig secret and admission plugin
          // secret validators).
          name: 'validate-secrets.admission.gardener.cloud',
          path: WebhookPaths.validating,
          rules: [
            {
              operations: ['CREATE', 'UPDATE'],
              apiGroups: [''],
              apiVersions: ['v1'],
              resources: ['secrets'],
              scope: 'Namespaced',
            },
          ],
          namespaceSelector: { matchLabels: { 'gardener.cloud/role': 'project' } },
          failurePolicy: 'Fail',
          sideEffects: 'None',
          timeoutSeconds: 10,
        },
        {
          // Updates of ConfigMaps in project namespaces (the audit policy and structured authentication/authorization
          // configuration validators; Shoots reach them through the first webhook).
          // Secrets labelled gardener.cloud/role=internal-domain (the internal domain secret validator).
          name: 'validate-internal-domain-secrets.admission.gardener.cloud',
          path: WebhookPaths.validating,
          rules: [
            {
              operations: ['CREATE', 'UPDATE', 'DELETE'],
              apiGroups: [''],
              apiVersions: ['v1'],
              resources: ['secrets'],
              scope: 'Namespaced',
            },
          ],
          objectSelector: { matchLabels: { 'gardener.cloud/role': 'internal-domain' } },
          failurePolicy: 'Fail',
          sideEffects: 'None',
          timeoutSeconds: 10,
        },
        {
          name: 'validate-configmaps.admission.gardener.cloud',
          path: WebhookPaths.validating,
          rules: [
            {
              operations: ['UPDATE'],
              apiGroups: [''],
              apiVersions: ['v1'],
              resources: ['configmaps'],
              scope: 'Namespaced',
            },
          ],
          namespaceSelector: { matchLabels: { 'gardener.cloud/role': 'project' } },
          failurePolicy: 'Fail',
          sideEffects: 'None',
          timeoutSeconds: 10,
        },
      ],
    }),
  ];
}
