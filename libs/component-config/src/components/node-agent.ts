// NodeAgentConfiguration (nodeagent.config.gardener.cloud/v1alpha1), the gardener-node-agent's format.
// Defaults follow Gardener's pkg/nodeagent/apis/config/v1alpha1/defaults.go, the field checks its
// validation/validation.go. Gardener writes this file itself (with empty strings and zeros for unset fields),
// so "" and 0 mean "use the default" wherever Go's defaulting treats them that way.
import { z } from 'zod';
import { parseDuration } from '../duration.js';
import { duration, featureGates, logFormat, logLevel, probesAndMetrics, serverRuntime } from '../common.js';
import type { ComponentConfigSpec, FieldError } from '../spec.js';

const unsetIf =
  (...empty: unknown[]) =>
  (v: unknown) =>
    empty.includes(v) ? undefined : v;

/** componentbaseconfig.ClientConnectionConfiguration with RecommendedDefaultClientConnectionConfiguration. */
const clientConnection = z
  .object({
    kubeconfig: z.string().default(''),
    acceptContentTypes: z.string().optional(),
    contentType: z.preprocess(unsetIf(''), z.string().default('application/vnd.kubernetes.protobuf')),
    qps: z.preprocess(unsetIf(0), z.number().positive().default(50)),
    burst: z.preprocess(unsetIf(0), z.number().int().positive().default(100)),
  })
  .prefault({});

/** A Kubernetes version such as "1.31.1" or "v1.31.1"; quoted in YAML, since `1.30` would read as a number. */
const kubernetesVersion = z
  .string({
    error: (issue) =>
      issue.input == null ? 'must provide a supported kubernetes version' : 'must be a version string such as "1.31.1"',
  })
  .regex(/^v?\d+\.\d+(\.\d+)?([-+][0-9A-Za-z.+-]+)?$/, 'must be a semantic version such as "1.31.1"');

const schema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  clientConnection,
  logLevel: z.preprocess(unsetIf(''), logLevel),
  logFormat: z.preprocess(unsetIf(''), logFormat),
  server: probesAndMetrics(2751, 2752),
  debugging: z
    .object({
      enableProfiling: z.boolean().optional(),
      enableContentionProfiling: z.boolean().optional(),
    })
    .optional(),
  featureGates,
  apiServer: z
    .object({
      /** Address of the shoot's kube-apiserver. */
      server: z.string().default(''),
      /** Base64-encoded CA bundle ([]byte in Go). */
      caBundle: z.base64('must be base64-encoded').optional(),
      caFile: z.string().optional(),
    })
    .prefault({}),
  bootstrap: z.object({ kubeletDataVolumeSize: z.number().int().nonnegative().optional() }).optional(),
  controllers: z.object({
    operatingSystemConfig: z.object({
      syncPeriod: duration('10m'),
      syncJitterPeriod: duration(),
      secretName: z.string().min(1, 'must provide the secret name for the operating system config'),
      kubernetesVersion,
    }),
    token: z
      .object({
        syncConfigs: z
          .array(
            z.object({
              secretName: z.string().min(1, 'must provide the secret name for the access token'),
              path: z.string().min(1, 'must provide the path where the token should be synced to'),
            }),
          )
          .default([]),
        syncPeriod: duration('1h'),
      })
      .prefault({}),
  }),
});

export type NodeAgentConfiguration = z.infer<typeof schema>;

/** The rules of Gardener's ValidateNodeAgentConfiguration that a schema cannot express. */
function validate(c: NodeAgentConfiguration): FieldError[] {
  const errors: FieldError[] = [];
  const periods: [string, string | undefined][] = [
    ['controllers.operatingSystemConfig.syncPeriod', c.controllers.operatingSystemConfig.syncPeriod],
    ['controllers.token.syncPeriod', c.controllers.token.syncPeriod],
  ];
  for (const [field, value] of periods) {
    if (parseDuration(value ?? '') === undefined || (parseDuration(value ?? '') ?? 0) < 15_000)
      errors.push({ field, message: `Invalid value: "${value ?? ''}": must be at least 15s` });
  }
  const seen = new Set<string>();
  c.controllers.token.syncConfigs.forEach((cfg, i) => {
    if (seen.has(cfg.path))
      errors.push({ field: `controllers.token.syncConfigs[${i}].path`, message: `Duplicate value: "${cfg.path}"` });
    seen.add(cfg.path);
  });
  return errors;
}

export const nodeAgentConfigSpec: ComponentConfigSpec<NodeAgentConfiguration> = {
  component: 'gardener-node-agent',
  apiVersion: 'nodeagent.config.gardener.cloud/v1alpha1',
  kind: 'NodeAgentConfiguration',
  schema,
  validate,
  runtime: serverRuntime,
};
