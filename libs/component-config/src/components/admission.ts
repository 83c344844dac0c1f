// AdmissionControllerConfiguration (admissioncontroller.config.gardener.cloud/v1alpha1), the
// gardener-admission-controller's format. Defaults follow Gardener's
// pkg/admissioncontroller/apis/config/v1alpha1/defaults.go; blocks that are not modelled (debugging, ...) are
// reported as ignored by the loader.
import { z } from 'zod';
import { bindAddress, endpoint, featureGates, logFormat, logLevel, port, serverRuntime } from '../common.js';
import type { ComponentConfigSpec } from '../spec.js';

export const RESOURCE_ADMISSION_OPERATION_MODES = ['block', 'log'] as const;
export const SUBJECT_KINDS = ['User', 'Group', 'ServiceAccount'] as const;

/** componentbaseconfig.ClientConnectionConfiguration with the admission controller's defaults (qps 50, burst 100). */
const gardenClientConnection = z
  .object({
    kubeconfig: z.string().default(''),
    acceptContentTypes: z.string().optional(),
    contentType: z.string().optional(),
    qps: z.number().nonnegative().default(50),
    burst: z.number().int().nonnegative().default(100),
  })
  .prefault({});

const RBAC_API_GROUP = 'rbac.authorization.k8s.io';

/** Size limits for resources in admission requests, and who is exempt from them. */
const resourceAdmissionConfiguration = z
  .object({
    limits: z
      .array(
        z.object({
          apiGroups: z.array(z.string()).optional(),
          apiVersions: z.array(z.string()).optional(),
          resources: z.array(z.string()).min(1, 'must specify at least one resource'),
          // Both optional, as in Gardener: the maximum size (a Kubernetes quantity such as "100k") and the maximum
          // number of entries of the resource.
          size: z.union([z.string().min(1), z.number().nonnegative()]).optional(),
          count: z.number().int().nonnegative().optional(),
        }),
      )
      .default([]),
    unrestrictedSubjects: z
      .array(
        z
          .object({
            kind: z.enum(SUBJECT_KINDS),
            name: z.string().min(1),
            apiGroup: z.string().optional(),
            namespace: z.string().optional(),
          })
          // Gardener defaults the API group of User and Group subjects to rbac.authorization.k8s.io.
          .transform((s) =>
            (s.kind === 'User' || s.kind === 'Group') && !s.apiGroup ? { ...s, apiGroup: RBAC_API_GROUP } : s,
          ),
      )
      .default([]),
    operationMode: z.enum(RESOURCE_ADMISSION_OPERATION_MODES).optional(),
  })
  .prefault({});

const schema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  gardenClientConnection,
  logLevel,
  logFormat,
  server: z
    .object({
      webhooks: z
        .object({
          bindAddress: bindAddress(),
          port: port.default(2721),
          tls: z.object({ serverCertDir: z.string().min(1, 'must specify a directory') }).optional(),
        })
        .prefault({}),
      healthProbes: endpoint(2722),
      metrics: endpoint(2723),
      resourceAdmissionConfiguration,
      enableDebugHandlers: z.boolean().optional(),
    })
    .prefault({}),
  featureGates,
});

export type AdmissionControllerConfiguration = z.infer<typeof schema>;

export const admissionControllerConfigSpec: ComponentConfigSpec<AdmissionControllerConfiguration> = {
  component: 'gardener-admission-controller',
  apiVersion: 'admissioncontroller.config.gardener.cloud/v1alpha1',
  kind: 'AdmissionControllerConfiguration',
  schema,
  runtime: serverRuntime,
};
