// ControllerRegistration, ControllerInstallation and ControllerDeployment: how extensions get onto seeds.
import { Type, type Static } from '@sinclair/typebox';
import { type KindInfo, ageColumn, defineKind, kindSchema } from '../../schema/kind.js';
import { LabelSelector, LocalObjectReference, ObjectReference } from '../../schema/meta.js';
import { Bool, Bytes, Duration, Opt, RawExtension, Str, StringEnum } from '../../schema/primitives.js';
import { Condition, GroupVersion, NamedResourceReference } from './common.js';

const LifecycleStrategy = StringEnum(['BeforeKubeAPIServer', 'AfterKubeAPIServer', 'AfterWorker']);
export const ClusterType = StringEnum(['shoot', 'seed', 'garden']);
export const ControllerDeploymentPolicy = StringEnum(['OnDemand', 'Always', 'AlwaysExceptNoShoots']);

export const ControllerResource = Type.Object({
  kind: Str(),
  type: Str(),
  globallyEnabled: Opt(Bool()),
  reconcileTimeout: Opt(Duration()),
  primary: Opt(Bool()),
  lifecycle: Opt(
    Type.Object({ reconcile: Opt(LifecycleStrategy), delete: Opt(LifecycleStrategy), migrate: Opt(LifecycleStrategy) }),
  ),
  workerlessSupported: Opt(Bool()),
  autoEnable: Opt(Type.Array(ClusterType)),
  clusterCompatibility: Opt(Type.Array(ClusterType)),
  continuousEndpointUpdate: Opt(Bool()),
});

const registrationInfo: KindInfo = {
  ...GroupVersion,
  kind: 'ControllerRegistration',
  plural: 'controllerregistrations',
  singular: 'controllerregistration',
  namespaced: false,
  shortNames: ['ctrlreg'],
  statusSubresource: false,
  printerColumns: [{ name: 'Resources', type: 'string', jsonPath: '.spec.resources[*].kind' }, ageColumn],
};
export const ControllerRegistrationKind = defineKind(
  registrationInfo,
  kindSchema(registrationInfo, {
    spec: Type.Object({
      resources: Opt(Type.Array(ControllerResource)),
      deployment: Opt(
        Type.Object({
          policy: Opt(ControllerDeploymentPolicy),
          seedSelector: Opt(LabelSelector),
          deploymentRefs: Opt(Type.Array(Type.Object({ name: Str() }))),
        }),
      ),
    }),
  }),
);
export type ControllerRegistration = Static<typeof ControllerRegistrationKind.schema>;

const installationInfo: KindInfo = {
  ...GroupVersion,
  kind: 'ControllerInstallation',
  plural: 'controllerinstallations',
  singular: 'controllerinstallation',
  namespaced: false,
  shortNames: ['ctrlinst'],
  statusSubresource: true,
  printerColumns: [
    { name: 'Registration', type: 'string', jsonPath: '.spec.registrationRef.name' },
    { name: 'Seed', type: 'string', jsonPath: '.spec.seedRef.name' },
    { name: 'Valid', type: 'string', jsonPath: '.status.conditions[?(@.type=="Valid")].status' },
    { name: 'Installed', type: 'string', jsonPath: '.status.conditions[?(@.type=="Installed")].status' },
    { name: 'Healthy', type: 'string', jsonPath: '.status.conditions[?(@.type=="Healthy")].status' },
    { name: 'Progressing', type: 'string', jsonPath: '.status.conditions[?(@.type=="Progressing")].status' },
    ageColumn,
  ],
};
export const ControllerInstallationKind = defineKind(
  installationInfo,
  kindSchema(installationInfo, {
    spec: Type.Object({
      registrationRef: ObjectReference,
      seedRef: Opt(ObjectReference),
      shootRef: Opt(ObjectReference),
      deploymentRef: Opt(ObjectReference),
    }),
    status: Opt(Type.Object({ conditions: Opt(Type.Array(Condition)), providerStatus: Opt(RawExtension()) })),
  }),
);
export type ControllerInstallation = Static<typeof ControllerInstallationKind.schema>;

/** Where to pull an OCI artifact such as a Helm chart (gardencorev1.OCIRepository, also used by the gardenlet's Helm chart). */
export const OCIRepository = Type.Object({
  ref: Opt(Str()),
  repository: Opt(Str()),
  tag: Opt(Str()),
  digest: Opt(Str()),
  pullSecretRef: Opt(LocalObjectReference),
  caBundleSecretRef: Opt(LocalObjectReference),
});

/** ControllerDeployment is served as core.gardener.cloud/v1 (the v1beta1 version with type/providerConfig is deprecated). */
const deploymentInfo: KindInfo = {
  group: 'core.gardener.cloud',
  version: 'v1',
  kind: 'ControllerDeployment',
  plural: 'controllerdeployments',
  singular: 'controllerdeployment',
  namespaced: false,
  shortNames: ['ctrldeploy'],
  statusSubresource: false,
  printerColumns: [ageColumn],
};
export const ControllerDeploymentKind = defineKind(
  deploymentInfo,
  kindSchema(deploymentInfo, {
    helm: Opt(
      Type.Object({
        rawChart: Opt(Bytes()),
        values: Opt(RawExtension()),
        ociRepository: Opt(OCIRepository),
      }),
    ),
    injectGardenKubeconfig: Opt(Bool()),
    resources: Opt(Type.Array(NamedResourceReference)),
  }),
);
export type ControllerDeployment = Static<typeof ControllerDeploymentKind.schema>;
