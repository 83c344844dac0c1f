// ShootState (state a Shoot's control plane needs to be restored on another seed) and InternalSecret.
import { Type, type Static } from '@sinclair/typebox';
import { type KindInfo, ageColumn, defineKind, kindSchema } from '../../schema/kind.js';
import { CrossVersionObjectReference } from '../../schema/meta.js';
import { Bool, Bytes, Opt, RawExtension, Str, StringMap } from '../../schema/primitives.js';
import { GroupVersion } from './common.js';

const shootStateInfo: KindInfo = {
  ...GroupVersion,
  kind: 'ShootState',
  plural: 'shootstates',
  singular: 'shootstate',
  namespaced: true,
  statusSubresource: false,
  printerColumns: [ageColumn],
};
export const ShootStateKind = defineKind(
  shootStateInfo,
  kindSchema(shootStateInfo, {
    spec: Type.Object({
      gardener: Opt(
        Type.Array(Type.Object({ name: Str(), type: Str(), data: RawExtension(), labels: Opt(StringMap()) })),
      ),
      extensions: Opt(
        Type.Array(
          Type.Object({
            kind: Str(),
            name: Opt(Str()),
            purpose: Opt(Str()),
            state: Opt(RawExtension()),
            resources: Opt(Type.Array(Type.Object({ name: Str(), resourceRef: CrossVersionObjectReference }))),
          }),
        ),
      ),
      resources: Opt(Type.Array(Type.Object({ ref: CrossVersionObjectReference, data: RawExtension() }))),
    }),
  }),
);
export type ShootState = Static<typeof ShootStateKind.schema>;

const internalSecretInfo: KindInfo = {
  ...GroupVersion,
  kind: 'InternalSecret',
  plural: 'internalsecrets',
  singular: 'internalsecret',
  namespaced: true,
  statusSubresource: false,
  printerColumns: [{ name: 'Type', type: 'string', jsonPath: '.type' }, ageColumn],
};
export const InternalSecretKind = defineKind(
  internalSecretInfo,
  kindSchema(internalSecretInfo, {
    immutable: Opt(Bool()),
    data: Opt(Type.Record(Type.String(), Bytes())),
    stringData: Opt(StringMap()),
    type: Opt(Str()),
  }),
);
export type InternalSecret = Static<typeof InternalSecretKind.schema>;
