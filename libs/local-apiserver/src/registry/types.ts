// What the API server knows about each resource it serves, built-in or from a CRD.
import type { KubeObject } from '../storage/types.js';
import type { FieldProblem, OpenAPISchema } from '../schema/types.js';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** A column of `kubectl get` output (Table), as in a CRD's additionalPrinterColumns. */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: string;
  description?: string;
  /** 0 = shown by default; higher = `-o wide` only. */
  priority?: number;
  /** A simple JSONPath (`.status.phase`, `.spec.containers[0].image`), for CRDs. */
  jsonPath?: string;
}

export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface ResourceDefinition {
  group: string;
  version: string;
  /** Plural, lower-case: `deployments`. */
  resource: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources: {
    status?: boolean;
    scale?: ScaleSubresource;
    /** Other subresources served (e.g. pods: binding, eviction, log, exec; serviceaccounts: token). */
    others?: string[];
  };
  /** Whether this version is served and which version objects are stored in (CRDs may have several). */
  served: boolean;
  storageVersion: string;
  /**
   * Built-ins stored as another resource, as kube's registry does: events.k8s.io `events` are core `events` in
   * storage (same keys, stored in core/v1 shape). `storageVersion` is then a version of this group.
   */
  storage?: { group: string; resource: string };
  /**
   * Field selector labels this resource accepts besides metadata.name and metadata.namespace, each mapped to the
   * path it selects in the stored object (kube's field label conversion to the storage type's selectable fields).
   */
  fieldLabels?: Record<string, string>;
  /** The schema of the whole object (for validation, pruning, patch strategies and OpenAPI). */
  schema?: OpenAPISchema;
  /** Name of the OpenAPI definition of the kind (built-ins), e.g. `io.k8s.api.apps.v1.Deployment`. */
  definitionName?: string;
  /** Built-in validation beyond the schema (as kube's validation packages do); `old` is set on updates. */
  validator?: (object: KubeObject, old: KubeObject | undefined) => FieldProblem[];
  /**
   * What kube does to a written object before defaulting, admission and validation see it (the conversion of the
   * request body into the internal type and the strategy's PrepareForCreate/PrepareForUpdate), e.g. a Secret's
   * `stringData` merged into `data`. Runs on every write path: create, update, every patch type and apply.
   */
  prepareForWrite?: (object: KubeObject, old: KubeObject | undefined) => void;
  /** Built-in defaulting (k8s SetDefaults_*); CRDs default from their schema. */
  defaulter?: (object: KubeObject) => void;
  /** `kubectl get` columns besides NAME (and AGE, added for all); built-ins compute cells with `cells`. */
  printerColumns?: PrinterColumn[];
  /** Cell values for `printerColumns`, for built-in types whose columns are not simple JSONPaths. */
  cells?: (object: KubeObject) => unknown[];
  /** True for CRD-backed resources. */
  custom?: boolean;
  /** Whether objects carry metadata.generation, bumped on spec changes (kube sets it per kind; all CRDs do). */
  tracksGeneration?: boolean;
}
