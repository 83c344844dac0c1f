// ResourceManagerConfiguration (resourcemanager.config.gardener.cloud/v1alpha1), the gardener-resource-manager's format.
// Defaults follow Gardener's pkg/resourcemanager/apis/config/v1alpha1/defaults.go, the field checks its
// validation/validation.go. Where Gardener defaults a controller's settings only when the controller is enabled,
// the default is applied always here; it has no effect while the controller is disabled.
import { z } from 'zod';
import { parseDuration } from '../duration.js';
import {
  bindAddress,
  duration,
  endpoint,
  leaderElection,
  logFormat,
  logLevel,
  port,
  serverRuntime,
} from '../common.js';
import type { ComponentConfigSpec, FieldError } from '../spec.js';

/** An empty YAML value (`key:` with only comments below it) reads as null; Go treats it as unset. */
const unsetIfNull = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === null ? undefined : v), schema);

const concurrentSyncs = (fallback: number) => z.number().int().positive('must be at least 1').default(fallback);

const stringMap = z.record(z.string(), z.string());

const labelSelector = z.object({
  matchLabels: stringMap.optional(),
  matchExpressions: z
    .array(z.object({ key: z.string(), operator: z.string(), values: z.array(z.string()).optional() }))
    .optional(),
});

/** ClientConnection: componentbaseconfig.ClientConnectionConfiguration plus the resource-manager's cache settings. */
const clientConnection = z
  .object({
    kubeconfig: z.string().default(''),
    acceptContentTypes: z.string().optional(),
    contentType: z.string().optional(),
    qps: z.number().nonnegative().default(100),
    burst: z.number().int().nonnegative().default(130),
    /** Namespaces in which ManagedResources are observed; empty means all. */
    namespaces: unsetIfNull(z.array(z.string()).optional()),
    /** The single-namespace form of `namespaces`, as Gardener's documentation names it; both are honoured. */
    namespace: z.string().optional(),
    cacheResyncPeriod: duration('24h'),
  })
  .prefault({});

const enabled = z.boolean().default(false);

const controllers = z
  .object({
    clusterID: z.string().default(''),
    resourceClass: z.string().min(1, 'must provide a resource class').default('resources'),
    garbageCollector: z
      .object({
        enabled,
        syncPeriod: duration('1h'),
        /** gardener-ts extension: ConfigMaps/Secrets younger than this are never collected (Gardener: fixed 10m). */
        minimumObjectLifetime: duration('10m'),
      })
      .prefault({}),
    health: z.object({ concurrentSyncs: concurrentSyncs(5), syncPeriod: duration('1m') }).prefault({}),
    csrApprover: z
      .object({ enabled, concurrentSyncs: concurrentSyncs(1), machineNamespace: z.string().default('') })
      .prefault({}),
    // Gardener's JSON tag is `managedResource` (singular); a `managedResources` key is ignored by Gardener as well.
    managedResource: z
      .object({
        concurrentSyncs: concurrentSyncs(5),
        syncPeriod: duration('1m'),
        alwaysUpdate: z.boolean().default(false),
        managedByLabelValue: z.string().min(1, 'must specify value of managed-by label').default('gardener'),
      })
      .prefault({}),
    networkPolicy: z
      .object({
        enabled,
        concurrentSyncs: concurrentSyncs(5),
        namespaceSelectors: unsetIfNull(z.array(labelSelector).optional()),
        ingressControllerSelector: z.object({ namespace: z.string(), podSelector: labelSelector }).optional(),
      })
      .prefault({}),
    nodeCriticalComponents: z
      .object({ enabled, concurrentSyncs: concurrentSyncs(5), backoff: duration('10s') })
      .prefault({}),
    nodeAgentReconciliationDelay: z
      .object({ enabled, minDelay: duration('0s'), maxDelay: duration('5m') })
      .prefault({}),
    tokenInvalidator: z.object({ enabled, concurrentSyncs: concurrentSyncs(5) }).prefault({}),
    tokenRequestor: z
      .object({
        enabled,
        concurrentSyncs: concurrentSyncs(5),
        /** gardener-ts extension: the `resources.gardener.cloud/class` of the Secrets handled (Gardener: fixed `shoot`). */
        class: z.string().default('shoot'),
      })
      .prefault({}),
  })
  .prefault({});

const toleration = z.object({
  key: z.string().optional(),
  operator: z.enum(['Exists', 'Equal']).optional(),
  value: z.string().optional(),
  effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']).optional(),
  tolerationSeconds: z.number().int().optional(),
});

const onOff = z.object({ enabled }).prefault({});

const webhooks = z
  .object({
    crdDeletionProtection: onOff,
    endpointSliceHints: onOff,
    extensionValidation: onOff,
    highAvailabilityConfig: z
      .object({
        enabled,
        defaultNotReadyTolerationSeconds: z.number().int().nonnegative().optional(),
        defaultUnreachableTolerationSeconds: z.number().int().nonnegative().optional(),
      })
      .prefault({}),
    kubernetesServiceHost: z.object({ enabled, host: z.string().default('') }).prefault({}),
    systemComponentsConfig: z
      .object({
        enabled,
        nodeSelector: unsetIfNull(stringMap.optional()),
        podNodeSelector: unsetIfNull(stringMap.optional()),
        podTolerations: unsetIfNull(z.array(toleration).default([])),
      })
      .prefault({}),
    podSchedulerName: z.object({ enabled, schedulerName: z.string().default('default-scheduler') }).prefault({}),
    podTopologySpreadConstraints: onOff,
    projectedTokenMount: z.object({ enabled, expirationSeconds: z.number().int().default(43200) }).prefault({}),
    nodeAgentAuthorizer: z
      .object({
        enabled,
        machineNamespace: z.string().default(''),
        authorizeWithSelectors: z.boolean().optional(),
      })
      .prefault({}),
    seccompProfile: onOff,
    tokenInvalidator: onOff,
  })
  .prefault({});

/**
 * gardener-ts extension: Gardener's resource-manager never registers its webhook configurations (gardenlet deploys
 * them). With `enabled`, this one creates/updates its Mutating/ValidatingWebhookConfigurations, with the CA bundle of
 * its serving certificate, in the target cluster at start.
 */
const webhookRegistration = z
  .object({
    enabled,
    /** Name of both configurations. */
    name: z.string().min(1).default('gardener-resource-manager'),
    /** Base URL the API server calls (paths appended); default `https://<bindAddress or 127.0.0.1>:<port>`. */
    url: z.string().optional(),
    /** Or a Service of the target cluster (ignored when `url` is set). */
    service: z.object({ namespace: z.string().min(1), name: z.string().min(1), port: port.optional() }).optional(),
  })
  .prefault({});

const schema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  sourceClientConnection: clientConnection,
  targetClientConnection: clientConnection,
  leaderElection: leaderElection('gardener-resource-manager', ''),
  logLevel,
  logFormat,
  server: z
    .object({
      webhooks: z
        .object({
          bindAddress: bindAddress(),
          port: port.default(9449),
          tls: z.object({ serverCertDir: z.string().default('') }).prefault({}),
        })
        .prefault({}),
      healthProbes: endpoint(8081),
      metrics: endpoint(8080),
    })
    .prefault({}),
  debugging: z
    .object({
      enableProfiling: z.boolean().optional(),
      enableContentionProfiling: z.boolean().optional(),
    })
    .optional(),
  controllers,
  webhooks,
  webhookRegistration,
  /**
   * gardener-ts extension (not a field of Gardener's API): where to publish ManagedResource condition transitions.
   * Without it nothing is published.
   */
  nats: z
    .object({
      servers: z.string().min(1, 'must name at least one NATS server'),
      /** The seed the resource-manager acts for (subject scope); absent for the garden. */
      seed: z.string().optional(),
      credentials: z
        .object({
          user: z.string().optional(),
          password: z.string().optional(),
          token: z.string().optional(),
          nkeySeedFile: z.string().optional(),
          credsFile: z.string().optional(),
        })
        .optional(),
    })
    .optional(),
});

export type ResourceManagerConfiguration = z.infer<typeof schema>;

const ms = (d: string | undefined) => (d === undefined ? undefined : parseDuration(d));

/** The cross-field rules of Gardener's ValidateResourceManagerConfiguration that a schema cannot express. */
function validate(c: ResourceManagerConfiguration): FieldError[] {
  const errors: FieldError[] = [];
  const atLeast = (field: string, value: string | undefined, minMs: number, text: string) => {
    if ((ms(value) ?? 0) < minMs)
      errors.push({ field, message: `Invalid value: "${value ?? ''}": must be at least ${text}` });
  };
  for (const name of ['sourceClientConnection', 'targetClientConnection'] as const) {
    atLeast(`${name}.cacheResyncPeriod`, c[name].cacheResyncPeriod, 10_000, '10s');
  }
  const ctl = c.controllers;
  if (ctl.garbageCollector.enabled)
    atLeast('controllers.garbageCollector.syncPeriod', ctl.garbageCollector.syncPeriod, 15_000, '15s');
  atLeast('controllers.health.syncPeriod', ctl.health.syncPeriod, 15_000, '15s');
  atLeast('controllers.managedResource.syncPeriod', ctl.managedResource.syncPeriod, 15_000, '15s');
  const delay = ctl.nodeAgentReconciliationDelay;
  if (delay.enabled) {
    for (const key of ['minDelay', 'maxDelay'] as const) {
      if ((ms(delay[key]) ?? 0) < 0) {
        errors.push({
          field: `controllers.nodeAgentReconciliationDelay.${key}`,
          message: `Invalid value: "${delay[key] ?? ''}": must be non-negative`,
        });
      }
    }
    if ((ms(delay.minDelay) ?? 0) > (ms(delay.maxDelay) ?? 0)) {
      errors.push({
        field: 'controllers.nodeAgentReconciliationDelay.minDelay',
        message: `Invalid value: "${delay.minDelay ?? ''}": minimum delay must not be higher than maximum delay`,
      });
    }
  }
  const wh = c.webhooks;
  if (wh.podSchedulerName.enabled && wh.podSchedulerName.schedulerName === '') {
    errors.push({
      field: 'webhooks.podSchedulerName.schedulerName',
      message: 'Required value: must specify schedulerName when webhook is enabled',
    });
  }
  if (wh.projectedTokenMount.enabled && wh.projectedTokenMount.expirationSeconds < 600) {
    errors.push({
      field: 'webhooks.projectedTokenMount.expirationSeconds',
      message: `Invalid value: ${wh.projectedTokenMount.expirationSeconds}: must be at least 600`,
    });
  }
  if (wh.nodeAgentAuthorizer.enabled && wh.nodeAgentAuthorizer.machineNamespace === '') {
    errors.push({
      field: 'webhooks.nodeAgentAuthorizer.machineNamespace',
      message: 'Required value: machine namespace must not be empty',
    });
  }
  return errors;
}

export const resourceManagerConfigSpec: ComponentConfigSpec<ResourceManagerConfiguration> = {
  component: 'gardener-resource-manager',
  apiVersion: 'resourcemanager.config.gardener.cloud/v1alpha1',
  kind: 'ResourceManagerConfiguration',
  schema,
  validate,
  runtime: serverRuntime,
};
