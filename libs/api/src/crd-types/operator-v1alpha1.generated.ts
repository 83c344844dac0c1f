// Generated from Gardener's CRDs for operator.gardener.cloud (crds/gardener) by `npm run generate -w @gardener-ts/api`. Do not edit.
import type { ObjectMeta } from '../schema/meta.js';
import { fieldsOf } from './fields.js';

export interface ExtensionSpec {
  deployment?: {
    admission?: {
      runtimeCluster?: {
        helm?: {
          ociRepository?: {
            caBundleSecretRef?: {
              name?: string;
            };
            digest?: string;
            pullSecretRef?: {
              name?: string;
            };
            ref?: string;
            repository?: string;
            tag?: string;
          };
        };
      };
      values?: unknown;
      virtualCluster?: {
        helm?: {
          ociRepository?: {
            caBundleSecretRef?: {
              name?: string;
            };
            digest?: string;
            pullSecretRef?: {
              name?: string;
            };
            ref?: string;
            repository?: string;
            tag?: string;
          };
        };
      };
    };
    extension?: {
      helm?: {
        ociRepository?: {
          caBundleSecretRef?: {
            name?: string;
          };
          digest?: string;
          pullSecretRef?: {
            name?: string;
          };
          ref?: string;
          repository?: string;
          tag?: string;
        };
      };
      injectGardenKubeconfig?: boolean;
      policy?: string;
      runtimeClusterValues?: unknown;
      seedSelector?: {
        matchExpressions?: Array<{
          key: string;
          operator: string;
          values?: Array<string>;
        }>;
        matchLabels?: Record<string, string>;
      };
      values?: unknown;
    };
    resources?: Array<{
      name: string;
      resourceRef: {
        apiVersion?: string;
        kind: string;
        name: string;
      };
    }>;
  };
  resources?: Array<{
    autoEnable?: Array<string>;
    clusterCompatibility?: Array<string>;
    continuousEndpointUpdate?: boolean;
    kind: string;
    lifecycle?: {
      delete?: string;
      migrate?: string;
      reconcile?: string;
    };
    primary?: boolean;
    reconcileTimeout?: string;
    type: string;
    workerlessSupported?: boolean;
  }>;
}

export interface ExtensionStatus {
  conditions?: Array<{
    codes?: Array<string>;
    lastTransitionTime: string;
    lastUpdateTime: string;
    message: string;
    reason: string;
    status: string;
    type: string;
  }>;
  observedGeneration?: number;
  providerStatus?: Record<string, unknown>;
}

/** Extension (operator.gardener.cloud/v1alpha1). */
export interface Extension {
  apiVersion?: 'operator.gardener.cloud/v1alpha1';
  kind?: 'Extension';
  metadata?: ObjectMeta;
  spec?: ExtensionSpec;
  status?: ExtensionStatus;
}

export const ExtensionFields = {
  spec: fieldsOf<ExtensionSpec>()(['deployment', 'resources']),
  status: fieldsOf<ExtensionStatus>()(['conditions', 'observedGeneration', 'providerStatus']),
};

export const ExtensionKind = {
  apiVersion: 'operator.gardener.cloud/v1alpha1',
  kind: 'Extension',
  plural: 'extensions',
  namespaced: false,
} as const;

export interface GardenSpec {
  dns?: {
    providers: Array<{
      name: string;
      providerConfig?: Record<string, unknown>;
      secretRef: {
        name?: string;
      };
      type: string;
    }>;
  };
  extensions?: Array<{
    providerConfig?: Record<string, unknown>;
    type: string;
  }>;
  resources?: Array<{
    name: string;
    resourceRef: {
      apiVersion?: string;
      kind: string;
      name: string;
    };
  }>;
  runtimeCluster: {
    ingress: {
      controller: {
        kind: 'nginx';
        providerConfig?: Record<string, unknown>;
      };
      domains?: Array<{
        name: string;
        provider?: string;
      }>;
    };
    networking: {
      blockCIDRs?: Array<string>;
      ipFamilies?: Array<string>;
      nodes?: Array<string>;
      pods: Array<string>;
      services: Array<string>;
    };
    provider: {
      region?: string;
      zones?: Array<string>;
    };
    settings?: {
      loadBalancerServices?: {
        annotations?: Record<string, string>;
        externalTrafficPolicy?: string;
        proxyProtocol?: {
          allowed: boolean;
        };
      };
      persistentVolumeClaimAutoscaler?: {
        enabled: boolean;
      };
      topologyAwareRouting?: {
        enabled: boolean;
      };
      verticalPodAutoscaler?: {
        enabled?: boolean;
        featureGates?: Record<string, boolean>;
        maxAllowed?: Record<string, number | string>;
      };
    };
    volume?: {
      minimumSize?: number | string;
    };
  };
  virtualCluster: {
    controlPlane?: {
      highAvailability?: Record<string, unknown>;
    };
    dns: {
      domains?: Array<{
        name: string;
        provider?: string;
      }>;
    };
    etcd?: {
      events?: {
        autoscaling?: {
          minAllowed: Record<string, number | string>;
        };
        storage?: {
          capacity?: number | string;
          className?: string;
        };
      };
      main?: {
        autoscaling?: {
          minAllowed: Record<string, number | string>;
        };
        backup?: {
          bucketName?: string;
          provider: string;
          providerConfig?: Record<string, unknown>;
          region?: string;
          secretRef: {
            name?: string;
          };
        };
        storage?: {
          capacity?: number | string;
          className?: string;
        };
      };
    };
    gardener: {
      clusterIdentity: string;
      gardenerAPIServer?: {
        admissionPlugins?: Array<{
          config?: Record<string, unknown>;
          disabled?: boolean;
          kubeconfigSecretName?: string;
          name: string;
        }>;
        auditConfig?: {
          auditPolicy?: {
            configMapRef?: {
              apiVersion?: string;
              fieldPath?: string;
              kind?: string;
              name?: string;
              namespace?: string;
              resourceVersion?: string;
              uid?: string;
            };
          };
        };
        auditWebhook?: {
          batchMaxSize?: number;
          kubeconfigSecretName: string;
          version?: 'audit.k8s.io/v1';
        };
        encryptionConfig?: {
          provider: {
            type?: string;
          };
          resources?: Array<string>;
        };
        featureGates?: Record<string, boolean>;
        goAwayChance?: number;
        logging?: {
          httpAccessVerbosity?: number;
          verbosity?: number;
        };
        requests?: {
          maxMutatingInflight?: number;
          maxNonMutatingInflight?: number;
        };
        shootAdminKubeconfigMaxExpiration?: string;
        watchCacheSizes?: {
          default?: number;
          resources?: Array<{
            apiGroup?: string;
            resource: string;
            size: number;
          }>;
        };
      };
      gardenerAdmissionController?: {
        logLevel?: 'info' | 'debug' | 'error';
        resourceAdmissionConfiguration?: {
          limits: Array<{
            apiGroups?: Array<string>;
            apiVersions?: Array<string>;
            count?: number;
            resources: Array<string>;
            size?: number | string;
          }>;
          operationMode?: string;
          unrestrictedSubjects?: Array<{
            apiGroup?: string;
            kind: string;
            name: string;
            namespace?: string;
          }>;
        };
      };
      gardenerControllerManager?: {
        defaultProjectQuotas?: Array<{
          config: {
            apiVersion?: string;
            kind?: string;
            metadata?: Record<string, unknown>;
            spec?: {
              hard?: Record<string, number | string>;
              scopeSelector?: {
                matchExpressions?: Array<{
                  operator: string;
                  scopeName: string;
                  values?: Array<string>;
                }>;
              };
              scopes?: Array<string>;
            };
            status?: {
              hard?: Record<string, number | string>;
              used?: Record<string, number | string>;
            };
          };
          projectSelector?: {
            matchExpressions?: Array<{
              key: string;
              operator: string;
              values?: Array<string>;
            }>;
            matchLabels?: Record<string, string>;
          };
        }>;
        featureGates?: Record<string, boolean>;
        logLevel?: 'info' | 'debug' | 'error';
      };
      gardenerDashboard?: {
        assetsConfigMapRef?: {
          name?: string;
        };
        domain?: {
          name: string;
          provider?: string;
        };
        enableTokenLogin?: boolean;
        frontendConfigMapRef?: {
          name?: string;
        };
        gitHub?: {
          apiURL: string;
          organisation: string;
          pollInterval?: string;
          repository: string;
          secretRef: {
            name?: string;
          };
        };
        ingress?: {
          enabled?: boolean;
        };
        logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error';
        oidcConfig?: {
          additionalScopes?: Array<string>;
          certificateAuthoritySecretRef?: {
            name?: string;
          };
          clientIDPublic?: string;
          issuerURL?: string;
          secretRef: {
            name?: string;
          };
          sessionLifetime?: string;
        };
        propagateCAFromSNI?: boolean;
        terminal?: {
          allowedHosts?: Array<string>;
          container: {
            description?: string;
            image: string;
          };
        };
        tlsSecretName?: string;
      };
      gardenerDiscoveryServer?: {
        domain?: {
          name: string;
          provider?: string;
        };
        tlsSecretName?: string;
      };
      gardenerResourceManager?: {
        additionalTargetNamespaces?: Array<string>;
      };
      gardenerScheduler?: {
        featureGates?: Record<string, boolean>;
        logLevel?: 'info' | 'debug' | 'error';
        strategy?: 'SameRegion' | 'MinimalDistance';
      };
    };
    kubernetes: {
      kubeAPIServer?: {
        admissionPlugins?: Array<{
          config?: Record<string, unknown>;
          disabled?: boolean;
          kubeconfigSecretName?: string;
          name: string;
        }>;
        apiAudiences?: Array<string>;
        auditConfig?: {
          auditPolicy?: {
            configMapRef?: {
              apiVersion?: string;
              fieldPath?: string;
              kind?: string;
              name?: string;
              namespace?: string;
              resourceVersion?: string;
              uid?: string;
            };
          };
        };
        auditWebhook?: {
          batchMaxSize?: number;
          kubeconfigSecretName: string;
          version?: 'audit.k8s.io/v1';
        };
        authentication?: {
          webhook?: {
            cacheTTL?: string;
            kubeconfigSecretName: string;
            version?: 'v1alpha1' | 'v1beta1' | 'v1';
          };
        };
        autoscaling?: {
          minAllowed: Record<string, number | string>;
        };
        defaultNotReadyTolerationSeconds?: number;
        defaultUnreachableTolerationSeconds?: number;
        enableAnonymousAuthentication?: boolean;
        encryptionConfig?: {
          provider: {
            type?: string;
          };
          resources?: Array<string>;
        };
        eventTTL?: string;
        featureGates?: Record<string, boolean>;
        logging?: {
          httpAccessVerbosity?: number;
          verbosity?: number;
        };
        requests?: {
          maxMutatingInflight?: number;
          maxNonMutatingInflight?: number;
        };
        resourcesToStoreInETCDEvents?: Array<{
          group: string;
          resource: string;
        }>;
        runtimeConfig?: Record<string, boolean>;
        serviceAccountConfig?: {
          acceptedIssuers?: Array<string>;
          extendTokenExpiration?: boolean;
          issuer?: string;
          maxTokenExpiration?: string;
        };
        sni?: {
          domainPatterns?: Array<string>;
          secretName?: string;
        };
        structuredAuthentication?: {
          configMapName: string;
        };
        structuredAuthorization?: {
          configMapName: string;
          kubeconfigs: Array<{
            authorizerName: string;
            secretName: string;
          }>;
        };
        tlsMinVersion?: string;
        watchCacheSizes?: {
          default?: number;
          resources?: Array<{
            apiGroup?: string;
            resource: string;
            size: number;
          }>;
        };
      };
      kubeControllerManager?: {
        certificateSigningDuration?: string;
        featureGates?: Record<string, boolean>;
        horizontalPodAutoscaler?: {
          cpuInitializationPeriod?: string;
          downscaleStabilization?: string;
          initialReadinessDelay?: string;
          syncPeriod?: string;
          tolerance?: number;
        };
        nodeCIDRMaskSize?: number;
        nodeCIDRMaskSizeIPv6?: number;
        nodeMonitorGracePeriod?: string;
        podEvictionTimeout?: string;
      };
      version: string;
    };
    maintenance: {
      timeWindow: {
        begin: string;
        end: string;
      };
    };
    networking: {
      services: Array<string>;
    };
  };
}

export interface GardenStatus {
  advertisedAddresses?: Array<{
    name: string;
    url: string;
  }>;
  conditions?: Array<{
    codes?: Array<string>;
    lastTransitionTime: string;
    lastUpdateTime: string;
    message: string;
    reason: string;
    status: string;
    type: string;
  }>;
  credentials?: {
    encryptionAtRest?: {
      provider: {
        type: string;
      };
      resources?: Array<string>;
    };
    rotation?: {
      certificateAuthorities?: {
        lastCompletionTime?: string;
        lastCompletionTriggeredTime?: string;
        lastInitiationFinishedTime?: string;
        lastInitiationTime?: string;
        pendingWorkersRollouts?: Array<{
          lastInitiationTime?: string;
          name: string;
        }>;
        phase: string;
      };
      etcdEncryptionKey?: {
        autoCompleteAfterPrepared?: boolean;
        lastCompletionTime?: string;
        lastCompletionTriggeredTime?: string;
        lastInitiationFinishedTime?: string;
        lastInitiationTime?: string;
        phase: string;
      };
      observability?: {
        lastCompletionTime?: string;
        lastInitiationTime?: string;
      };
      serviceAccountKey?: {
        lastCompletionTime?: string;
        lastCompletionTriggeredTime?: string;
        lastInitiationFinishedTime?: string;
        lastInitiationTime?: string;
        pendingWorkersRollouts?: Array<{
          lastInitiationTime?: string;
          name: string;
        }>;
        phase: string;
      };
      workloadIdentityKey?: {
        lastCompletionTime?: string;
        lastCompletionTriggeredTime?: string;
        lastInitiationFinishedTime?: string;
        lastInitiationTime?: string;
        phase: string;
      };
    };
  };
  gardener?: {
    id: string;
    name: string;
    version: string;
  };
  lastOperation?: {
    description: string;
    lastUpdateTime: string;
    progress: number;
    state: string;
    type: string;
  };
  observedGeneration?: number;
}

/** Garden (operator.gardener.cloud/v1alpha1). */
export interface Garden {
  apiVersion?: 'operator.gardener.cloud/v1alpha1';
  kind?: 'Garden';
  metadata?: ObjectMeta;
  spec?: GardenSpec;
  status?: GardenStatus;
}

export const GardenFields = {
  spec: fieldsOf<GardenSpec>()(['dns', 'extensions', 'resources', 'runtimeCluster', 'virtualCluster']),
  status: fieldsOf<GardenStatus>()([
    'advertisedAddresses',
    'conditions',
    'credentials',
    'gardener',
    'lastOperation',
    'observedGeneration',
  ]),
};

export const GardenKind = {
  apiVersion: 'operator.gardener.cloud/v1alpha1',
  kind: 'Garden',
  plural: 'gardens',
  namespaced: false,
} as const;
