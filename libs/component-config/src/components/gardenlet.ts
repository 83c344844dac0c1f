// GardenletConfiguration (gardenlet.config.gardener.cloud/v1alpha1), the gardenlet's format.
// Defaults follow Gardener's pkg/gardenlet/apis/config/v1alpha1/defaults.go, the checks its validation/validation.go.
// Only the blocks worth validating are modelled; everything else (logging, etcdConfig, sni, monitoring, ...) is
// reported as ignored by the loader.
import { z } from 'zod';
import { labelSelectorAsSelector, LabelSelectorError } from '@gardener-ts/api';
import { parseDuration } from '../duration.js';
import {
  natsConnection,
  duration,
  featureGates,
  leaderElection,
  logFormat,
  logLevel,
  probesAndMetrics,
  serverRuntime,
} from '../common.js';
import type { ComponentConfigSpec, FieldError } from '../spec.js';

/** Gardener's DefaultControllerConcurrentSyncs for the gardenlet. */
const DEFAULT_CONCURRENT_SYNCS = 20;

export const SHOOT_PURPOSES = ['evaluation', 'testing', 'development', 'infrastructure', 'production'] as const;

const concurrentSyncs = (fallback: number) => z.number().int().nonnegative().default(fallback);

/** componentbaseconfig.ClientConnectionConfiguration with the gardenlet's defaults (qps 50, burst 100). */
const clientConnectionFields = {
  kubeconfig: z.string().default(''),
  acceptContentTypes: z.string().optional(),
  contentType: z.string().optional(),
  qps: z.number().nonnegative().default(50),
  burst: z.number().int().nonnegative().default(100),
};
const clientConnection = z.object(clientConnectionFields).prefault({});

const kubeconfigValidity = z
  .object({
    validity: duration()
      .unwrap()
      .refine((v) => (parseDuration(v) ?? 0) >= 10 * 60_000, { message: 'validity must be at least 10m' })
      .optional(),
    autoRotationJitterPercentageMin: z.number().int().min(1, 'minimum percentage must be at least 1').default(70),
    autoRotationJitterPercentageMax: z.number().int().max(100, 'maximum percentage must be at most 100').default(90),
  })
  .prefault({});

/** A `{name, namespace}` reference to a Secret (corev1.SecretReference). */
const secretReference = z.object({ name: z.string().min(1), namespace: z.string().min(1) });

/** `resources.capacity` / `resources.reserved`: shoots (and other resources) the seed offers. */
const resourceList = z.record(z.string(), z.union([z.number(), z.string()]));

/** A metav1.LabelSelector; its keys, values and operators are checked in {@link validate}. */
const labelSelector = z.object({
  matchLabels: z.record(z.string(), z.string()).optional(),
  matchExpressions: z
    .array(z.object({ key: z.string(), operator: z.string(), values: z.array(z.string()).optional() }))
    .optional(),
});

const conditionThresholds = z.array(z.object({ type: z.string().min(1), duration: duration().unwrap() })).optional();

const controllers = z
  .object({
    backupBucket: z.object({ concurrentSyncs: concurrentSyncs(DEFAULT_CONCURRENT_SYNCS) }).prefault({}),
    backupEntry: z
      .object({
        concurrentSyncs: concurrentSyncs(DEFAULT_CONCURRENT_SYNCS),
        deletionGracePeriodHours: z.number().int().nonnegative().default(0),
        deletionGracePeriodShootPurposes: z.array(z.enum(SHOOT_PURPOSES)).optional(),
      })
      .prefault({}),
    bastion: z.object({ concurrentSyncs: concurrentSyncs(DEFAULT_CONCURRENT_SYNCS) }).prefault({}),
    controllerInstallation: z.object({ concurrentSyncs: concurrentSyncs(DEFAULT_CONCURRENT_SYNCS) }).prefault({}),
    controllerInstallationCare: z
      .object({ concurrentSyncs: concurrentSyncs(DEFAULT_CONCURRENT_SYNCS), syncPeriod: duration('30s') })
      .prefault({}),
    controllerInstallationRequired: z.object({ concurrentSyncs: concurrentSyncs(1) }).prefault({}),
    // Gardener's NetworkPolicyControllerConfiguration: 5 workers (0 disables the controller here); namespaces matching
    // one of the additional selectors get every general NetworkPolicy.
    networkPolicy: z
      .object({
        concurrentSyncs: concurrentSyncs(5),
        additionalNamespaceSelectors: z.array(labelSelector).optional(),
      })
      .prefault({}),
    seed: z
      .object({
        syncPeriod: duration('1h'),
        leaseResyncSeconds: z.number().int().positive().default(2),
        leaseResyncMissThreshold: z.number().int().positive().default(10),
      })
      .prefault({}),
    seedCare: z.object({ syncPeriod: duration('30s'), conditionThresholds }).prefault({}),
    shoot: z
      .object({
        concurrentSyncs: concurrentSyncs(DEFAULT_CONCURRENT_SYNCS),
        syncPeriod: duration('1h'),
        retryDuration: duration('12h'),
        respectSyncPeriodOverwrite: z.boolean().default(false),
        reconcileInMaintenanceOnly: z.boolean().default(false),
        progressReportPeriod: duration(),
        dnsEntryTTLSeconds: z
          .number()
          .int()
          .min(30, 'must be within [30,600]')
          .max(600, 'must be within [30,600]')
          .default(120),
      })
      .prefault({}),
    shootCare: z
      .object({
        concurrentSyncs: concurrentSyncs(DEFAULT_CONCURRENT_SYNCS),
        syncPeriod: duration('1m'),
        staleExtensionHealthChecks: z
          .object({ enabled: z.boolean().default(true), threshold: duration('5m') })
          .prefault({}),
        managedResourceProgressingThreshold: duration(),
        conditionThresholds,
        webhookRemediatorEnabled: z.boolean().optional(),
      })
      .prefault({}),
    // The periodic ShootState backup (Gardener's ShootStateControllerConfiguration: 5 workers, every 6h; 0 disables).
    shootState: z.object({ concurrentSyncs: concurrentSyncs(5), syncPeriod: duration('6h') }).prefault({}),
    managedSeed: z
      .object({
        concurrentSyncs: concurrentSyncs(DEFAULT_CONCURRENT_SYNCS),
        syncPeriod: duration('1h'),
        waitSyncPeriod: duration('15s'),
        syncJitterPeriod: duration('5m'),
        jitterUpdates: z.boolean().default(false),
      })
      .prefault({}),
  })
  .prefault({});

/** The Seed this gardenlet registers: a Seed template; its spec is validated by the API server, not here. */
const seedConfig = z.object({
  metadata: z.looseObject({ name: z.string().min(1, 'seed name must be set') }),
  spec: z.record(z.string(), z.unknown()).default({}),
});

const schema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  gardenClientConnection: z
    .object({
      ...clientConnectionFields,
      kubeconfigValidity,
      gardenClusterAddress: z.string().optional(),
      gardenClusterCACert: z.string().optional(),
      bootstrapKubeconfig: secretReference.optional(),
      kubeconfigSecret: secretReference.optional(),
    })
    .prefault({}),
  seedClientConnection: clientConnection,
  shootClientConnection: clientConnection,
  controllers,
  leaderElection: leaderElection('gardenlet-leader-election'),
  logLevel,
  logFormat,
  server: probesAndMetrics(2728, 2729),
  featureGates,
  seedConfig: seedConfig.optional(),
  resources: z.object({ capacity: resourceList.optional(), reserved: resourceList.optional() }).optional(),
  // gardener-ts: where the gardenlet publishes the shoot flows' progress (gardener.v1.events.<seed>.shoot...).
  nats: natsConnection.optional(),
  nodeToleration: z
    .object({
      defaultNotReadyTolerationSeconds: z.number().int().nonnegative().optional(),
      defaultUnreachableTolerationSeconds: z.number().int().nonnegative().optional(),
    })
    .optional(),
});

export type GardenletConfiguration = z.infer<typeof schema>;

/** Gardener's cross-field rules for the gardenlet configuration. */
function validate(c: GardenletConfiguration): FieldError[] {
  const errors: FieldError[] = [];
  const validity = c.gardenClientConnection.kubeconfigValidity;
  if (validity.autoRotationJitterPercentageMin >= validity.autoRotationJitterPercentageMax) {
    errors.push({
      field: 'gardenClientConnection.kubeconfigValidity.autoRotationJitterPercentageMin',
      message: 'minimum percentage must be less than maximum percentage',
    });
  }
  const backupEntry = c.controllers.backupEntry;
  if ((backupEntry.deletionGracePeriodShootPurposes?.length ?? 0) > 0 && backupEntry.deletionGracePeriodHours <= 0) {
    errors.push({
      field: 'controllers.backupEntry.deletionGracePeriodShootPurposes',
      message: 'must specify grace period hours > 0 when specifying purposes',
    });
  }
  c.controllers.networkPolicy.additionalNamespaceSelectors?.forEach((selector, i) => {
    try {
      labelSelectorAsSelector(selector);
    } catch (err) {
      if (!(err instanceof LabelSelectorError)) throw err;
      errors.push({ field: `controllers.networkPolicy.additionalNamespaceSelectors[${i}]`, message: err.message });
    }
  });
  return errors;
}

export const gardenletConfigSpec: ComponentConfigSpec<GardenletConfiguration> = {
  component: 'gardenlet',
  apiVersion: 'gardenlet.config.gardener.cloud/v1alpha1',
  kind: 'GardenletConfiguration',
  schema,
  validate,
  runtime: serverRuntime,
};
