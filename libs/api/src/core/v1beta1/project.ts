// Project, Quota, SecretBinding and ExposureClass: the tenant-facing kinds around Shoots.
import { Type, type Static } from '@sinclair/typebox';
import { type KindInfo, ageColumn, defineKind, kindSchema } from '../../schema/kind.js';
import { LabelSelector, ObjectReference, SecretReference } from '../../schema/meta.js';
import { Bool, Int32, Int64, Opt, ResourceList, Str, StringEnum, Time } from '../../schema/primitives.js';
import { GroupVersion } from './common.js';

const Subject = { kind: Str(), apiGroup: Opt(Str()), name: Str(), namespace: Opt(Str()) };
const Toleration = Type.Object({ key: Str(), value: Opt(Str()) });

export const ProjectPhase = StringEnum(['Pending', 'Ready', 'Terminating', 'Failed']);

export const ProjectSpec = Type.Object({
  createdBy: Opt(Type.Object(Subject)),
  description: Opt(Str()),
  owner: Opt(Type.Object(Subject)),
  purpose: Opt(Str()),
  members: Opt(Type.Array(Type.Object({ ...Subject, role: Str(), roles: Opt(Type.Array(Str())) }))),
  namespace: Opt(Str()),
  tolerations: Opt(Type.Object({ defaults: Opt(Type.Array(Toleration)), whitelist: Opt(Type.Array(Toleration)) })),
  dualApprovalForDeletion: Opt(
    Type.Array(Type.Object({ resource: Str(), selector: LabelSelector, includeServiceAccounts: Opt(Bool()) })),
  ),
});

const projectInfo: KindInfo = {
  ...GroupVersion,
  kind: 'Project',
  plural: 'projects',
  singular: 'project',
  namespaced: false,
  statusSubresource: true,
  printerColumns: [
    { name: 'Namespace', type: 'string', jsonPath: '.spec.namespace' },
    { name: 'Status', type: 'string', jsonPath: '.status.phase' },
    { name: 'Owner', type: 'string', jsonPath: '.spec.owner.name', priority: 1 },
    { name: 'Creator', type: 'string', jsonPath: '.spec.createdBy.name', priority: 1 },
    ageColumn,
  ],
};
export const ProjectKind = defineKind(
  projectInfo,
  kindSchema(projectInfo, {
    spec: Opt(ProjectSpec),
    status: Opt(
      Type.Object({
        observedGeneration: Opt(Int64()),
        phase: ProjectPhase,
        staleSinceTimestamp: Opt(Time()),
        staleAutoDeleteTimestamp: Opt(Time()),
        lastActivityTimestamp: Opt(Time()),
      }),
    ),
  }),
);
export type Project = Static<typeof ProjectKind.schema>;

const quotaInfo: KindInfo = {
  ...GroupVersion,
  kind: 'Quota',
  plural: 'quotas',
  singular: 'quota',
  namespaced: true,
  shortNames: ['squota'],
  statusSubresource: false,
  printerColumns: [{ name: 'Scope', type: 'string', jsonPath: '.spec.scope.kind' }, ageColumn],
};
export const QuotaKind = defineKind(
  quotaInfo,
  kindSchema(quotaInfo, {
    spec: Type.Object({ clusterLifetimeDays: Opt(Int32()), metrics: ResourceList(), scope: ObjectReference }),
  }),
);
export type Quota = Static<typeof QuotaKind.schema>;

const secretBindingInfo: KindInfo = {
  ...GroupVersion,
  kind: 'SecretBinding',
  plural: 'secretbindings',
  singular: 'secretbinding',
  namespaced: true,
  statusSubresource: false,
  printerColumns: [
    { name: 'Secret', type: 'string', jsonPath: '.secretRef.name' },
    { name: 'Provider', type: 'string', jsonPath: '.provider.type' },
    ageColumn,
  ],
};
export const SecretBindingKind = defineKind(
  secretBindingInfo,
  kindSchema(secretBindingInfo, {
    secretRef: SecretReference,
    quotas: Opt(Type.Array(ObjectReference)),
    provider: Opt(Type.Object({ type: Str() })),
  }),
);
export type SecretBinding = Static<typeof SecretBindingKind.schema>;

const exposureClassInfo: KindInfo = {
  ...GroupVersion,
  kind: 'ExposureClass',
  plural: 'exposureclasses',
  singular: 'exposureclass',
  namespaced: false,
  statusSubresource: false,
  printerColumns: [{ name: 'Handler', type: 'string', jsonPath: '.handler' }, ageColumn],
};
export const ExposureClassKind = defineKind(
  exposureClassInfo,
  kindSchema(exposureClassInfo, {
    handler: Str(),
    scheduling: Opt(
      Type.Object({
        seedSelector: Opt(Type.Object({ ...LabelSelector.properties, providerTypes: Opt(Type.Array(Str())) })),
        tolerations: Opt(Type.Array(Toleration)),
      }),
    ),
  }),
);
export type ExposureClass = Static<typeof ExposureClassKind.schema>;
