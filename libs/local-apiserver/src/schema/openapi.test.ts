// Definition names of the OpenAPI documents are kube's (`io.k8s.api.apps.v1.DeploymentSpec`,
// `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`): kubectl prints them in client-side validation errors and
// `kubectl explain`. client-node's models (`V1DeploymentSpec`) do not carry the group, so a lost group shows as
// `io.k8s.api.v1.*`.
import { describe, expect, it } from 'vitest';
import { builtinResources } from '../registry/builtin/index.js';
import { Registry } from '../registry/registry.js';
import type { ResourceDefinition } from '../registry/types.js';
import { createSchemas } from '../server/schemas.js';
import { BUILTIN_DEFINITIONS, builtinDefinitionName, OBJECT_META } from './builtin.js';
import { definitionNameOf } from './openapi.js';
import type { OpenAPISchema } from './types.js';

const GADGET: ResourceDefinition = {
  ...{
    group: 'gadgets.example.com',
    version: 'v1',
    resource: 'gadgets',
    singular: 'gadget',
    kind: 'Gadget',
    listKind: 'GadgetList',
  },
  ...{
    namespaced: true,
    verbs: ['get', 'list', 'create'],
    subresources: {},
    served: true,
    storageVersion: 'v1',
    custom: true,
  },
  schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'string' } } } } },
};

const openapi = () => createSchemas(new Registry([...builtinResources(), GADGET])).openapi;

/** Every `$ref` of a document, by the definition name it points at. */
function refsOf(value: unknown, prefix: string, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refsOf(v, prefix, out));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') {
        expect(v.startsWith(prefix), v).toBe(true);
        out.push(v.slice(prefix.length));
      } else refsOf(v, prefix, out);
    }
  }
  return out;
}

/** Names as kube-openapi makes them: `io.k8s.api.<group>.<version>.<Kind>` or a Go package path of apimachinery. */
const KUBE_NAME =
  /^((io\.k8s\.api\.[a-z]+|io\.k8s\.apimachinery\.pkg\.apis\.meta|io\.k8s\.apiextensions-apiserver\.pkg\.apis\.apiextensions|io\.k8s\.kube-aggregator\.pkg\.apis\.apiregistration)\.v\d+(?:alpha\d+|beta\d+)?\.[A-Z]\w*|io\.k8s\.apimachinery\.pkg\.(api\.resource\.Quantity|util\.intstr\.IntOrString|runtime\.RawExtension))$/;

const SAMPLE = [
  'io.k8s.api.apps.v1.Deployment',
  'io.k8s.api.apps.v1.DeploymentSpec',
  'io.k8s.api.apps.v1.RollingUpdateDeployment',
  'io.k8s.api.core.v1.PodTemplateSpec',
  'io.k8s.api.core.v1.PodSpec',
  'io.k8s.api.core.v1.Container',
  'io.k8s.api.core.v1.Volume',
  'io.k8s.api.core.v1.ObjectReference',
  'io.k8s.api.core.v1.Event',
  'io.k8s.api.core.v1.TopologySelectorTerm',
  'io.k8s.api.events.v1.Event',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition',
  'io.k8s.api.batch.v1.JobSpec',
  'io.k8s.api.batch.v1.JobTemplateSpec',
  'io.k8s.api.networking.v1.IngressSpec',
  'io.k8s.api.autoscaling.v1.CrossVersionObjectReference',
  'io.k8s.api.autoscaling.v2.CrossVersionObjectReference',
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec',
  'io.k8s.api.rbac.v1.Subject',
  'io.k8s.api.storage.v1.TokenRequest',
  'io.k8s.api.discovery.v1.EndpointPort',
  'io.k8s.api.core.v1.EndpointPort',
  'io.k8s.api.admissionregistration.v1.WebhookClientConfig',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.WebhookClientConfig',
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceSpec',
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.ServiceReference',
  'io.k8s.api.node.v1.Overhead',
];

describe("built-in definition names are kube's", () => {
  it('names client-node models after the group the type belongs to', () => {
    const cases: [model: string, group: string, name: string][] = [
      ['V1DeploymentSpec', 'apps', 'io.k8s.api.apps.v1.DeploymentSpec'],
      ['V1PodSpec', '', 'io.k8s.api.core.v1.PodSpec'],
      ['V2HorizontalPodAutoscaler', 'autoscaling', 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler'],
      ['EventsV1Event', 'events.k8s.io', 'io.k8s.api.events.v1.Event'],
      ['CoreV1Event', '', 'io.k8s.api.core.v1.Event'],
      ['V1ObjectMeta', 'apps', OBJECT_META],
      [
        'V1CustomResourceDefinition',
        'apiextensions.k8s.io',
        'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
      ],
      ['V1PriorityClass', 'scheduling.k8s.io', 'io.k8s.api.scheduling.v1.PriorityClass'],
    ];
    expect(cases.map(([model, group]) => builtinDefinitionName(model, group))).toEqual(cases.map(([, , name]) => name));
  });

  it('has only kube names, a sample of them present, each built-in kind under its own', () => {
    const names = Object.keys(BUILTIN_DEFINITIONS);
    expect(names.filter((n) => !KUBE_NAME.test(n))).toEqual([]);
    expect(names.filter((n) => /^io\.k8s\.api\.v\d/.test(n))).toEqual([]);
    expect(SAMPLE.filter((n) => !BUILTIN_DEFINITIONS[n])).toEqual([]);
    for (const def of builtinResources()) {
      const schema = BUILTIN_DEFINITIONS[definitionNameOf(def)];
      expect(schema, def.kind).toBeDefined();
      expect(schema['x-kubernetes-group-version-kind']).toContainEqual({
        group: def.group,
        version: def.version,
        kind: def.kind,
      });
    }
    // Only the kinds carry a group-version-kind, and under their own names.
    for (const [name, schema] of Object.entries(BUILTIN_DEFINITIONS)) {
      for (const gvk of schema['x-kubernetes-group-version-kind'] ?? []) {
        expect(name.endsWith(`.${gvk.version}.${gvk.kind}`), name).toBe(true);
      }
    }
  });
});

describe('/openapi/v2 definitions', () => {
  const doc = openapi().v2() as { definitions: Record<string, OpenAPISchema> };
  const names = Object.keys(doc.definitions);

  it("names every definition like kube, the kinds' nested types with their group", () => {
    expect(names.filter((n) => /^io\.k8s\.api\.v\d/.test(n))).toEqual([]);
    expect(names.filter((n) => !KUBE_NAME.test(n) && n !== 'com.example.gadgets.v1.Gadget')).toEqual([]);
    expect(SAMPLE.filter((n) => !doc.definitions[n])).toEqual([]);
    expect(doc.definitions['io.k8s.api.apps.v1.Deployment'].properties!.spec).toMatchObject({
      $ref: '#/definitions/io.k8s.api.apps.v1.DeploymentSpec',
    });
    expect(doc.definitions['io.k8s.api.apps.v1.DeploymentSpec'].properties!.template).toMatchObject({
      $ref: '#/definitions/io.k8s.api.core.v1.PodTemplateSpec',
    });
    expect(doc.definitions['io.k8s.api.apps.v1.DeploymentSpec'].properties!.selector).toMatchObject({
      $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
    });
    expect(doc.definitions['io.k8s.api.core.v1.PodSpec'].properties!.containers.items).toEqual({
      $ref: '#/definitions/io.k8s.api.core.v1.Container',
    });
    expect(doc.definitions['com.example.gadgets.v1.Gadget'].properties!.metadata).toMatchObject({
      $ref: `#/definitions/${OBJECT_META}`,
    });
  });

  it('keeps x-kubernetes-group-version-kind on the kinds, HPAs of both versions apart', () => {
    expect(doc.definitions['io.k8s.api.apps.v1.Deployment']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'apps', version: 'v1', kind: 'Deployment' },
    ]);
    expect(doc.definitions['io.k8s.api.core.v1.Event']['x-kubernetes-group-version-kind']).toEqual([
      { group: '', version: 'v1', kind: 'Event' },
    ]);
    expect(doc.definitions['io.k8s.api.events.v1.Event']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'events.k8s.io', version: 'v1', kind: 'Event' },
    ]);
    expect(
      doc.definitions['io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler']['x-kubernetes-group-version-kind'],
    ).toEqual([{ group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' }]);
    expect(
      doc.definitions['io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler']['x-kubernetes-group-version-kind'],
    ).toEqual([{ group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' }]);
    expect(doc.definitions['com.example.gadgets.v1.Gadget']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'gadgets.example.com', version: 'v1', kind: 'Gadget' },
    ]);
    expect(doc.definitions['io.k8s.api.apps.v1.DeploymentSpec']['x-kubernetes-group-version-kind']).toBeUndefined();
  });

  it("references kube's named scalar types, Quantity and IntOrString as v2 strings", () => {
    const defs = doc.definitions;
    expect(defs['io.k8s.api.core.v1.ResourceRequirements'].properties!.limits.additionalProperties).toEqual({
      $ref: '#/definitions/io.k8s.apimachinery.pkg.api.resource.Quantity',
    });
    expect(defs['io.k8s.api.apps.v1.RollingUpdateDeployment'].properties!.maxSurge).toMatchObject({
      $ref: '#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString',
    });
    expect(defs[OBJECT_META].properties!.creationTimestamp).toMatchObject({
      $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Time',
    });
    expect(defs['io.k8s.api.coordination.v1.LeaseSpec'].properties!.renewTime).toMatchObject({
      $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
    });
    expect(defs['io.k8s.api.apps.v1.ControllerRevision'].properties!.data).toMatchObject({
      $ref: '#/definitions/io.k8s.apimachinery.pkg.runtime.RawExtension',
    });
    expect(
      defs['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps'].properties!.default,
    ).toMatchObject({
      $ref: '#/definitions/io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
    });
    expect(defs['io.k8s.apimachinery.pkg.api.resource.Quantity']).toMatchObject({ type: 'string' });
    expect(defs['io.k8s.apimachinery.pkg.api.resource.Quantity'].oneOf).toBeUndefined();
    expect(defs['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({
      type: 'string',
      format: 'int-or-string',
    });
    expect(defs['io.k8s.apimachinery.pkg.apis.meta.v1.Time']).toMatchObject({ type: 'string', format: 'date-time' });
  });

  it('resolves every $ref', () => {
    const refs = refsOf(doc.definitions, '#/definitions/');
    expect(refs.length).toBeGreaterThan(500);
    expect([...new Set(refs.filter((r) => !doc.definitions[r]))]).toEqual([]);
  });
});

describe('/openapi/v3 group-version documents', () => {
  const provider = openapi();
  const document = (path: string) =>
    provider.v3(path) as { components: { schemas: Record<string, OpenAPISchema> }; paths: Record<string, any> };

  it('lists every group-version and names its schemas like kube', () => {
    const paths = Object.keys((provider.v3Index() as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        'api/v1',
        'apis/apps/v1',
        'apis/batch/v1',
        'apis/autoscaling/v2',
        'apis/gadgets.example.com/v1',
      ]),
    );
    for (const path of paths) {
      const schemas = document(path).components.schemas;
      const names = Object.keys(schemas);
      expect(
        names.filter((n) => /^io\.k8s\.api\.v\d/.test(n)),
        path,
      ).toEqual([]);
      expect(
        names.filter((n) => !KUBE_NAME.test(n) && n !== 'com.example.gadgets.v1.Gadget'),
        path,
      ).toEqual([]);
      const refs = refsOf(document(path), '#/components/schemas/');
      expect([...new Set(refs.filter((r) => !schemas[r]))], path).toEqual([]);
    }
  });

  it('carries the kinds and their nested types under kube names', () => {
    const apps = document('apis/apps/v1');
    for (const name of [
      'io.k8s.api.apps.v1.Deployment',
      'io.k8s.api.apps.v1.DeploymentSpec',
      'io.k8s.api.core.v1.PodSpec',
      'io.k8s.api.core.v1.Container',
      OBJECT_META,
    ]) {
      expect(apps.components.schemas[name], name).toBeDefined();
    }
    expect(apps.components.schemas['io.k8s.api.apps.v1.Deployment'].properties!.spec).toMatchObject({
      allOf: [{ $ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec' }],
    });
    expect(
      apps.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].get.responses['200'].content[
        'application/json'
      ].schema,
    ).toEqual({
      $ref: '#/components/schemas/io.k8s.api.apps.v1.Deployment',
    });
    expect(document('apis/batch/v1').components.schemas['io.k8s.api.batch.v1.JobSpec']).toBeDefined();
    expect(
      document('apis/networking.k8s.io/v1').components.schemas['io.k8s.api.networking.v1.IngressSpec'],
    ).toBeDefined();
    expect(
      document('apis/autoscaling/v2').components.schemas['io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec'],
    ).toBeDefined();
    expect(apps.components.schemas['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({
      format: 'int-or-string',
      oneOf: [{ type: 'integer' }, { type: 'string' }],
    });
    expect(apps.components.schemas['io.k8s.apimachinery.pkg.api.resource.Quantity']).toMatchObject({
      oneOf: [{ type: 'string' }, { type: 'number' }],
    });
    const core = document('api/v1').components.schemas;
    expect(core['io.k8s.api.core.v1.Pod']['x-kubernetes-group-version-kind']).toEqual([
      { group: '', version: 'v1', kind: 'Pod' },
    ]);
    const gadgets = document('apis/gadgets.example.com/v1').components.schemas;
    expect(Object.keys(gadgets).sort()).toEqual(
      [
        'com.example.gadgets.v1.Gadget',
        OBJECT_META,
        'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
        'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry',
        'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference',
        'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      ].sort(),
    );
  });
});
