// Kinds of the core API that controllers use most, with the fields they read. Declare others with `kind()`.
import { kind } from './gvk.js';
import type { KubernetesObject } from './types.js';

export interface ConfigMap extends KubernetesObject {
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
  immutable?: boolean;
}

export interface Secret extends KubernetesObject {
  type?: string;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  immutable?: boolean;
}

/** An object with an open spec and status, for kinds without a dedicated interface. */
export interface GenericObject extends KubernetesObject {
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

export const ConfigMapKind = kind<ConfigMap>('v1', 'ConfigMap');
export const SecretKind = kind<Secret>('v1', 'Secret');
export const NamespaceKind = kind<GenericObject>('v1', 'Namespace');
export const PodKind = kind<GenericObject>('v1', 'Pod');
export const ServiceKind = kind<GenericObject>('v1', 'Service');
export const ServiceAccountKind = kind<GenericObject>('v1', 'ServiceAccount');
export const DeploymentKind = kind<GenericObject>('apps/v1', 'Deployment');
export const ReplicaSetKind = kind<GenericObject>('apps/v1', 'ReplicaSet');
export const CustomResourceDefinitionKind = kind<GenericObject>('apiextensions.k8s.io/v1', 'CustomResourceDefinition');
