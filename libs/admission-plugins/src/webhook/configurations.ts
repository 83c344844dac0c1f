// The Mutating/ValidatingWebhookConfigurations that register the admission chain on the garden API server for
// every Gardener API group (core, security, seed management, operations), and SeedRestriction for what seed clients
// create (Gardener's `seed-restriction.gardener.cloud`). The Helm chart renders the same objects
// (deploy/charts/admission/templates/webhooks.yaml; a chart test compares them with these).
import { webhookConfiguration, type ClientTarget, type RuleWithOperations } from '@gardener-ts/controller-runtime';

/** The name of both configurations. */
export const WEBHOOK_CONFIGURATION_NAME = 'gardener-admission-controller';

/** Where the server serves the chain's two phases. */
export const WebhookPaths = {
  mutating: '/webhooks/admission/mutate',
  validating: '/webhooks/admission/validate',
  /** SeedRestriction alone (gardener-admission-controller's path). */
  seedRestriction: '/webhooks/admission/seedrestriction',
  /** The SeedAuthorizer's SubjectAccessReview endpoint (the API server's authorization webhook). */
  seedAuthorizer: '/webhooks/auth/seed',
  /** The provider secret labels handler alone (gardener-admission-controller's path). */
  providerSecretLabels: '/webhooks/sync-provider-secret-labels',
  /** The update restriction handler alone (gardener-admission-controller's path). */
  updateRestriction: '/webhooks/update-restriction',
} as const;

/** The API groups whose resources go through the chain. */
export const ADMITTED_GROUPS = [
  'core.gardener.cloud',
  'security.gardener.cloud',
  'seedmanagement.gardener.cloud',
  'operations.gardener.cloud',
  'settings.gardener.cloud',
] as const;

/**
 * What SeedRestriction sees, as Gardener's admission controller registers it: creations of ConfigMaps, Secrets,
 * ServiceAccounts, ClusterRoleBindings, Leases, CSRs, BackupEntries, InternalSecrets, ShootStates and Bastions, creation and deletion
 * of BackupBuckets, and every write of Seeds. No selectors and no matchConditions (as Gardener): the handler allows
 * every request of a user that is no seed client.
 */
export const SEED_RESTRICTION_RULES: RuleWithOperations[] = [
  {
    operations: ['CREATE'],
    apiGroups: [''],
    apiVersions: ['v1'],
    resources: ['configmaps', 'secrets', 'serviceaccounts'],
  },
  {
    operations: ['CREATE'],
    apiGroups: ['rbac.authorization.k8s.io'],
    apiVersions: ['v1'],
    resources: ['clusterrolebindings'],
  },
  { operations: ['CREATE'], apiGroups: ['coordination.k8s.io'], apiVersions: ['v1'], resources: ['leases'] },
  {
    operations: ['CREATE'],
    apiGroups: ['certificates.k8s.io'],
    apiVersions: ['v1'],
    resources: ['certificatesigningrequests'],
  },
  {
    operations: ['CREATE'],
    apiGroups: ['core.gardener.cloud'],
    apiVersions: ['v1beta1'],
    resources: ['backupentries', 'internalsecrets', 'shootstates'],
  },
  {
    operations: ['CREATE', 'DELETE'],
    apiGroups: ['core.gardener.cloud'],
    apiVersions: ['v1beta1'],
    resources: ['backupbuckets'],
  },
  {
    operations: ['CREATE', 'UPDATE', 'DELETE'],
    apiGroups: ['core.gardener.cloud'],
    apiVersions: ['v1beta1'],
    resources: ['seeds'],
  },
  {
    operations: ['CREATE'],
    apiGroups: ['operations.gardener.cloud'],
    apiVersions: ['v1alpha1'],
    resources: ['bastions'],
  },
];

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
        {
          // Gardener's provider secret labels handler: Secrets and InternalSecrets of project namespaces get the
          // provider type labels of the bindings referencing them.
          name: 'sync-provider-secret-labels.gardener.cloud',
          path: WebhookPaths.providerSecretLabels,
          rules: [
            { operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] },
            {
              operations: ['CREATE', 'UPDATE'],
              apiGroups: ['core.gardener.cloud'],
              apiVersions: ['v1beta1'],
              resources: ['internalsecrets'],
            },
          ],
          namespaceSelector: { matchLabels: { 'gardener.cloud/role': 'project' } },
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
        {
          // Gardener's update restriction handler: Secrets and ConfigMaps labelled
          // gardener.cloud/update-restriction=true are written by gardenlets only.
          name: 'update-restriction.gardener.cloud',
          path: WebhookPaths.updateRestriction,
          rules: [
            {
              operations: ['CREATE', 'UPDATE', 'DELETE'],
              apiGroups: [''],
              apiVersions: ['v1'],
              resources: ['secrets', 'configmaps'],
            },
          ],
          objectSelector: { matchLabels: { 'gardener.cloud/update-restriction': 'true' } },
          failurePolicy: 'Fail',
          sideEffects: 'None',
          timeoutSeconds: 10,
        },
        {
          // What seed clients (gardenlets, extensions) create must belong to their seed.
          name: 'seed-restriction.gardener.cloud',
          path: WebhookPaths.seedRestriction,
          rules: SEED_RESTRICTION_RULES,
          failurePolicy: 'Fail',
          matchPolicy: 'Equivalent',
          sideEffects: 'None',
          timeoutSeconds: 10,
        },
      ],
    }),
  ];
}
