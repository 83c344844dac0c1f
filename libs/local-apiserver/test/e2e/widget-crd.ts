// The namespaced example CRD `widgets.example.com` (one version, v1) that e2e suites vary by its version's fields.

/** The Widget CRD with one served and stored version `v1`; `version` adds its schema, selectableFields and so on. */
export function widgetCRD(version: Record<string, unknown>) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, ...version }],
    },
  };
}
