// Generated from Gardener's CRDs for resources.gardener.cloud (crds/gardener) by `npm run generate -w @gardener-ts/api`. Do not edit.
import type { ObjectMeta } from '../schema/meta.js';
import { fieldsOf } from './fields.js';

export interface ManagedResourceSpec {
  class?: string;
  deletePersistentVolumeClaims?: boolean;
  equivalences?: Array<
    Array<{
      group: string;
      kind: string;
    }>
  >;
  forceOverwriteAnnotations?: boolean;
  forceOverwriteLabels?: boolean;
  injectLabels?: Record<string, string>;
  keepObjects?: boolean;
  secretRefs: Array<{
    name?: string;
  }>;
}

export interface ManagedResourceStatus {
  conditions?: Array<{
    codes?: Array<string>;
    lastTransitionTime: string;
    lastUpdateTime: string;
    message: string;
    reason: string;
    status: string;
    type: string;
  }>;
  observedGeneration?: number;
  resources?: Array<{
    annotations?: Record<string, string>;
    apiVersion?: string;
    fieldPath?: string;
    kind?: string;
    labels?: Record<string, string>;
    name?: string;
    namespace?: string;
    resourceVersion?: string;
    uid?: string;
  }>;
  secretsDataChecksum?: string;
}

/** ManagedResource (resources.gardener.cloud/v1alpha1). */
export interface ManagedResource {
  apiVersion?: 'resources.gardener.cloud/v1alpha1';
  kind?: 'ManagedResource';
  metadata?: ObjectMeta;
  spec?: ManagedResourceSpec;
  status?: ManagedResourceStatus;
}

export const ManagedResourceFields = {
  spec: fieldsOf<ManagedResourceSpec>()([
    'class',
    'deletePersistentVolumeClaims',
    'equivalences',
    'forceOverwriteAnnotations',
    'forceOverwriteLabels',
    'injectLabels',
    'keepObjects',
    'secretRefs',
  ]),
  status: fieldsOf<ManagedResourceStatus>()(['conditions', 'observedGeneration', 'resources', 'secretsDataChecksum']),
};

export const ManagedResourceKind = {
  apiVersion: 'resources.gardener.cloud/v1alpha1',
  kind: 'ManagedResource',
  plural: 'managedresources',
  namespaced: true,
} as const;
