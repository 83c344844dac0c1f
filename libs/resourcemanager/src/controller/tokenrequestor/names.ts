// The labels, annotations and data keys of token-requestor Secrets (Gardener's pkg/apis/resources/v1alpha1).
export const TokenRequestorLabel = {
  Purpose: 'resources.gardener.cloud/purpose',
  Class: 'resources.gardener.cloud/class',
} as const;

export const PurposeTokenRequestor = 'token-requestor';

export const TokenRequestorAnnotation = {
  ServiceAccountName: 'serviceaccount.resources.gardener.cloud/name',
  ServiceAccountNamespace: 'serviceaccount.resources.gardener.cloud/namespace',
  /** JSON object of labels for the ServiceAccount in the target cluster. */
  ServiceAccountLabels: 'serviceaccount.resources.gardener.cloud/labels',
  ExpirationDuration: 'serviceaccount.resources.gardener.cloud/token-expiration-duration',
  RenewTimestamp: 'serviceaccount.resources.gardener.cloud/token-renew-timestamp',
  TargetSecretName: 'token-requestor.resources.gardener.cloud/target-secret-name',
  TargetSecretNamespace: 'token-requestor.resources.gardener.cloud/target-secret-namespace',
  /** `true` (Go's strconv.ParseBool): also write the target cluster's CA bundle (`bundle.crt` or into the kubeconfig). */
  InjectCABundle: 'serviceaccount.resources.gardener.cloud/inject-ca-bundle',
} as const;

export const DataKey = { Token: 'token', Kubeconfig: 'kubeconfig', CABundle: 'bundle.crt' } as const;

/** The class of the resource-manager's token requestor in Gardener (gardenlet's instance uses `garden`). */
export const DefaultTokenRequestorClass = 'shoot';
/** The audience of the requested tokens. */
export const GardenerAudience = 'gardener';
