// CredentialsBinding (security.gardener.cloud/v1alpha1): binds a Secret or WorkloadIdentity to Shoots of a project.
import { Type, type Static } from '@sinclair/typebox';
import { type KindInfo, ageColumn, defineKind, kindSchema } from '../../schema/kind.js';
import { ObjectReference } from '../../schema/meta.js';
import { Opt, Str } from '../../schema/primitives.js';

export const GroupVersion = { group: 'security.gardener.cloud', version: 'v1alpha1' } as const;

const info: KindInfo = {
  ...GroupVersion,
  kind: 'CredentialsBinding',
  plural: 'credentialsbindings',
  singular: 'credentialsbinding',
  namespaced: true,
  statusSubresource: false,
  printerColumns: [
    { name: 'Provider', type: 'string', jsonPath: '.provider.type' },
    { name: 'Credentials', type: 'string', jsonPath: '.credentialsRef.name' },
    { name: 'Kind', type: 'string', jsonPath: '.credentialsRef.kind', priority: 1 },
    ageColumn,
  ],
};

export const CredentialsBindingKind = defineKind(
  info,
  kindSchema(info, {
    provider: Type.Object({ type: Str() }),
    // corev1.ObjectReference; Gardener's validation requires apiVersion, kind, name and namespace.
    credentialsRef: Type.Object({
      apiVersion: Str(),
      kind: Str(),
      name: Str(),
      namespace: Str(),
      uid: Opt(Str()),
      resourceVersion: Opt(Str()),
      fieldPath: Opt(Str()),
    }),
    quotas: Opt(Type.Array(ObjectReference)),
  }),
);
export type CredentialsBinding = Static<typeof CredentialsBindingKind.schema>;
