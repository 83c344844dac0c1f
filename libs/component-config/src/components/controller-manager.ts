// ControllerManagerConfiguration (controllermanager.config.gardener.cloud/v1alpha1), the
// gardener-controller-manager's format. Defaults follow Gardener's
// pkg/controllermanager/apis/config/v1alpha1/defaults.go; blocks that are not modelled (debugging, ...) are
// reported as ignored by the loader.
import { z } from 'zod';
import { isQuantity, labelSelectorAsSelector, LabelSelectorError, quantityErrors } from '@gardener-ts/api';
import {
  duration,
  featureGates,
  leaderElection,
  logFormat,
  logLevel,
  probesAndMetrics,
  serverRuntime,
} from '../common.js';
import type { ComponentConfigSpec, FieldError } from '../spec.js';

/** Gardener's DefaultControllerConcurrentSyncs for the controller-manager. */
const DEFAULT_CONCURRENT_SYNCS = 5;

const concurrentSyncs = z.number().int().nonnegative().default(DEFAULT_CONCURRENT_SYNCS);

/** A controller whose only setting is its number of workers. */
const workers = z.object({ concurrentSyncs }).prefault({});

const conditionThresholds = z.array(z.object({ type: z.string().min(1), duration: duration().unwrap() })).optional();

/** componentbaseconfig.ClientConnectionConfiguration with the controller-manager's defaults (qps 50, burst 100). */
const gardenClientConnection = z
  .object({
    kubeconfig: z.string().default(''),
    acceptContentTypes: z.string().optional(),
    contentType: z.string().optional(),
    qps: z.number().nonnegative().default(50),
    burst: z.number().int().nonnegative().default(100),
  })
  .prefault({});

/** A metav1.LabelSelector; its keys, values and operators are checked in {@link validate}. */
const labelSelector = z.object({
  matchLabels: z.record(z.string(), z.string()).optional(),
  matchExpressions: z
    .array(z.object({ key: z.string(), operator: z.string(), values: z.array(z.string()).optional() }))
    .optional(),
});

/**
 * The ResourceQuota template of a project quota (`controllers.project.quotas[].config`): the parts Gardener's project
 * controller uses — labels, annotations and `spec.hard` (quantities, kept as text).
 */
const resourceQuotaTemplate = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: z
    .object({
      labels: z.record(z.string(), z.string()).optional(),
      annotations: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  spec: z
    .object({
      hard: z
        .record(
          z.string(),
          z
            .union([z.string(), z.number()])
            .transform(String)
            .refine(isQuantity, { message: quantityErrors.formatWrong }),
        )
        .optional(),
    })
    .optional(),
});

/** One project quota: the ResourceQuota `config` for the projects `projectSelector` selects (every one when absent). */
const projectQuota = z.object({
  config: resourceQuotaTemplate.optional(),
  projectSelector: labelSelector.optional(),
});

export type ProjectQuotaConfiguration = z.infer<typeof projectQuota>;

const controllers = z
  .object({
    bastion: z.object({ concurrentSyncs, maxLifetime: duration('24h') }).prefault({}),
    certificateSigningRequest: workers,
    cloudProfile: workers,
    namespacedCloudProfile: workers,
    controllerDeployment: workers,
    controllerRegistration: workers,
    credentialsBinding: workers,
    secretBinding: workers,
    exposureClass: workers,
    // The event controller only runs when configured, so it is defaulted only when present.
    event: z.object({ concurrentSyncs, ttlNonShootEvents: duration('1h') }).optional(),
    managedSeedSet: z
      .object({
        concurrentSyncs,
        syncPeriod: duration('30m'),
        maxShootRetries: z.number().int().nonnegative().default(3),
      })
      .prefault({}),
    project: z
      .object({
        concurrentSyncs,
        minimumLifetimeDays: z.number().int().nonnegative().default(30),
        staleGracePeriodDays: z.number().int().nonnegative().default(14),
        staleExpirationTimeDays: z.number().int().nonnegative().default(90),
        staleSyncPeriod: duration('12h'),
        /** ResourceQuotas for project namespaces; the first entry whose selector matches the project applies. */
        quotas: z.array(projectQuota).optional(),
      })
      .prefault({}),
    quota: workers,
    seed: z
      .object({
        concurrentSyncs,
        syncPeriod: duration('10s'),
        monitorPeriod: duration('40s'),
        /** Gardener defaults it to five times monitorPeriod. */
        shootMonitorPeriod: duration(),
      })
      .prefault({}),
    seedExtensionsCheck: z.object({ concurrentSyncs, syncPeriod: duration('30s'), conditionThresholds }).prefault({}),
    seedBackupBucketsCheck: z
      .object({ concurrentSyncs, syncPeriod: duration('30s'), conditionThresholds })
      .prefault({}),
    seedReference: workers,
    shootConditions: workers,
    shootHibernation: z.object({ concurrentSyncs, triggerDeadlineDuration: duration('2h') }).prefault({}),
    shootMaintenance: z
      .object({
        concurrentSyncs,
        enableShootControlPlaneRestarter: z.boolean().default(true),
        enableShootCoreAddonRestarter: z.boolean().optional(),
      })
      .prefault({}),
    shootMigration: workers,
    shootQuota: z.object({ concurrentSyncs, syncPeriod: duration('60m') }).prefault({}),
    shootReference: workers,
    shootRetry: z
      .object({ concurrentSyncs, retryPeriod: duration('10m'), retryJitterPeriod: duration('5m') })
      .prefault({}),
    shootState: workers,
    shootStatusLabel: workers,
  })
  .prefault({});

const schema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  gardenClientConnection,
  controllers,
  leaderElection: leaderElection('gardener-controller-manager-leader-election'),
  logLevel,
  logFormat,
  server: probesAndMetrics(2718, 2719),
  featureGates,
});

export type ControllerManagerConfiguration = z.infer<typeof schema>;

/** Gardener's rules beyond the schema: each project quota needs a `config` and a valid `projectSelector`. */
function validate(c: ControllerManagerConfiguration): FieldError[] {
  const errors: FieldError[] = [];
  c.controllers.project.quotas?.forEach((quota, i) => {
    const path = `controllers.project.quotas[${i}]`;
    try {
      labelSelectorAsSelector(quota.projectSelector);
    } catch (err) {
      if (!(err instanceof LabelSelectorError)) throw err;
      errors.push({ field: `${path}.projectSelector`, message: err.message });
    }
    if (!quota.config) errors.push({ field: `${path}.config`, message: 'must provide a quota config' });
  });
  return errors;
}

export const controllerManagerConfigSpec: ComponentConfigSpec<ControllerManagerConfiguration> = {
  component: 'gardener-controller-manager',
  apiVersion: 'controllermanager.config.gardener.cloud/v1alpha1',
  kind: 'ControllerManagerConfiguration',
  schema,
  validate,
  runtime: serverRuntime,
};
