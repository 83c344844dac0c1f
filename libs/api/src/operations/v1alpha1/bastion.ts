// Bastion (operations.gardener.cloud/v1alpha1): a temporary SSH jump host into a Shoot's node network.
import { Type, type Static } from '@sinclair/typebox';
import { type KindInfo, ageColumn, defineKind, kindSchema } from '../../schema/kind.js';
import { Int64, Opt, Str, Time } from '../../schema/primitives.js';
import { Condition } from '../../core/v1beta1/common.js';

export const GroupVersion = { group: 'operations.gardener.cloud', version: 'v1alpha1' } as const;

const info: KindInfo = {
  ...GroupVersion,
  kind: 'Bastion',
  plural: 'bastions',
  singular: 'bastion',
  namespaced: true,
  statusSubresource: true,
  printerColumns: [
    { name: 'Shoot', type: 'string', jsonPath: '.spec.shootRef.name' },
    { name: 'Seed', type: 'string', jsonPath: '.spec.seedName' },
    { name: 'IP', type: 'string', jsonPath: '.status.ingress.ip' },
    { name: 'Hostname', type: 'string', jsonPath: '.status.ingress.hostname' },
    { name: 'Expiration', type: 'date', jsonPath: '.status.expirationTimestamp', priority: 1 },
    ageColumn,
  ],
};

export const BastionKind = defineKind(
  info,
  kindSchema(info, {
    spec: Type.Object({
      shootRef: Type.Object({ name: Str() }),
      seedName: Opt(Str()),
      providerType: Opt(Str()),
      sshPublicKey: Str(),
      ingress: Type.Array(Type.Object({ ipBlock: Type.Object({ cidr: Str(), except: Opt(Type.Array(Str())) }) })),
    }),
    status: Opt(
      Type.Object({
        ingress: Opt(
          Type.Object({
            ip: Opt(Str()),
            hostname: Opt(Str()),
            // corev1.LoadBalancerIngress: ipMode is "VIP" or "Proxy" (Kubernetes 1.30+).
            ipMode: Opt(Str()),
            ports: Opt(Type.Array(Type.Object({ port: Opt(Int64()), protocol: Opt(Str()), error: Opt(Str()) }))),
          }),
        ),
        conditions: Opt(Type.Array(Condition)),
        lastHeartbeatTimestamp: Opt(Time()),
        expirationTimestamp: Opt(Time()),
        observedGeneration: Opt(Int64()),
      }),
    ),
  }),
);
export type Bastion = Static<typeof BastionKind.schema>;
