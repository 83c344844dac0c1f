// The parts of apiextensions.k8s.io/v1 CustomResourceDefinition this library reads and writes.

export interface JSONSchemaProps {
  type?: string;
  format?: string;
  description?: string;
  enum?: unknown[];
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  items?: JSONSchemaProps;
  required?: string[];
  anyOf?: JSONSchemaProps[];
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  [key: string]: unknown;
}

export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema?: { openAPIV3Schema: JSONSchemaProps };
  subresources?: { status?: Record<string, never>; scale?: unknown };
  additionalPrinterColumns?: {
    name: string;
    type: string;
    jsonPath: string;
    priority?: number;
    description?: string;
    format?: string;
  }[];
}

export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    group: string;
    names: {
      kind: string;
      listKind?: string;
      plural: string;
      singular?: string;
      shortNames?: string[];
      categories?: string[];
    };
    scope: 'Namespaced' | 'Cluster';
    versions: CustomResourceDefinitionVersion[];
  };
}
