// The OpenAPI documents kubectl reads: v3 per group-version (explain, apply's patch metadata, the check that
// server-side field validation is supported) and the v2 document of everything.
import { createHash } from 'node:crypto';
import type { ResourceDefinition } from '../registry/types.js';
import { BUILTIN_DEFINITIONS, OBJECT_META } from './builtin.js';
import type { OpenAPISchema } from './types.js';

const WRITE_PARAMETERS = ['dryRun', 'fieldManager', 'fieldValidation'].map((name) => ({
  name,
  in: 'query',
  description: `${name} of the request.`,
  schema: { type: 'string', uniqueItems: true },
}));

/** The definition name of a resource's kind: built-ins by their generated name, CRDs by reversed group. */
export function definitionNameOf(def: ResourceDefinition): string {
  if (def.definitionName) return def.definitionName;
  return `${def.group.split('.').reverse().join('.')}.${def.version}.${def.kind}`;
}

/** A CRD's schema as a component, its metadata pointing at ObjectMeta like kube's published schemas. */
export function customDefinition(def: ResourceDefinition): OpenAPISchema {
  const schema: OpenAPISchema = structuredClone(
    def.schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  );
  schema.properties = {
    ...schema.properties,
    apiVersion: {
      type: 'string',
      description: 'APIVersion defines the versioned schema of this representation of an object.',
    },
    kind: {
      type: 'string',
      description: 'Kind is a string value representing the REST resource this object represents.',
    },
    metadata: { allOf: [{ $ref: `#/components/schemas/${OBJECT_META}` }], description: "Standard object's metadata." },
  };
  schema['x-kubernetes-group-version-kind'] = [{ group: def.group, version: def.version, kind: def.kind }];
  return schema;
}

/** Definition names reachable from the given roots through `$ref`. */
function closure(roots: string[], definitions: Record<string, OpenAPISchema>): string[] {
  const seen = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') {
        const name = v.slice(v.lastIndexOf('/') + 1);
        if (!seen.has(name) && definitions[name]) {
          seen.add(name);
          visit(definitions[name]);
        }
      } else visit(v);
    }
  };
  for (const root of roots) {
    seen.add(root);
    visit(definitions[root]);
  }
  return [...seen].sort();
}

function pathsFor(defs: ResourceDefinition[]): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const def of defs) {
    const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
    const collection = `${base}/${def.namespaced ? 'namespaces/{namespace}/' : ''}${def.resource}`;
    const ref = { $ref: `#/components/schemas/${definitionNameOf(def)}` };
    const gvk = { group: def.group, version: def.version, kind: def.kind };
    const op = (action: string, write: boolean) => ({
      operationId: `${action}${def.kind}`,
      'x-kubernetes-action': action,
      'x-kubernetes-group-version-kind': gvk,
      parameters: write ? WRITE_PARAMETERS : [],
      responses: { '200': { description: 'OK', content: { 'application/json': { schema: ref } } } },
    });
    paths[collection] = { get: op('list', false), post: op('post', true), delete: op('deletecollection', false) };
    paths[`${collection}/{name}`] = {
      get: op('get', false),
      put: op('put', true),
      patch: op('patch', true),
      delete: op('delete', false),
    };
    if (def.subresources.status) {
      paths[`${collection}/{name}/status`] = { get: op('get', false), put: op('put', true), patch: op('patch', true) };
    }
  }
  return paths;
}

/** The v3 document of one group-version (`api/v1`, `apis/apps/v1`). */
export function groupVersionDocument(defs: ResourceDefinition[], version: string): Record<string, unknown> {
  const customs = Object.fromEntries(
    defs.filter((d) => !d.definitionName).map((d) => [definitionNameOf(d), customDefinition(d)]),
  );
  const all = { ...BUILTIN_DEFINITIONS, ...customs };
  const names = closure([...defs.map(definitionNameOf), OBJECT_META], all);
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version },
    paths: pathsFor(defs),
    components: { schemas: Object.fromEntries(names.map((n) => [n, all[n]])) },
  };
}

/** Swagger 2.0 of every served resource, as `/openapi/v2` serves it. */
export function swaggerDocument(defs: ResourceDefinition[], version: string): Record<string, unknown> {
  const v3 = groupVersionDocument(defs, version);
  const text = JSON.stringify((v3.components as { schemas: unknown }).schemas).replaceAll(
    '#/components/schemas/',
    '#/definitions/',
  );
  const definitions = JSON.parse(text, (_key, value: unknown) => refOfAllOf(value)) as Record<string, OpenAPISchema>;
  for (const [name, schema] of Object.entries(definitions)) definitions[name] = stringOfOneOf(schema);
  return { swagger: '2.0', info: v3.info, paths: {}, definitions };
}

/**
 * A definition that is a `oneOf` of types (Quantity: string or number; IntOrString: integer or string) is a `string`
 * in kube's v2 document, which has no oneOf (IntOrString keeps its `int-or-string` format).
 */
function stringOfOneOf(schema: OpenAPISchema): OpenAPISchema {
  const { oneOf, ...rest } = schema;
  if (
    !oneOf ||
    schema.type !== undefined ||
    !oneOf.every((s) => Object.keys(s).length === 1 && typeof s.type === 'string')
  )
    return schema;
  return { ...rest, type: 'string' };
}

/**
 * `{allOf: [{$ref}], description}` (how v3 puts a description next to a reference) as Swagger 2.0's
 * `{$ref, description}`: kubectl's v2 model treats a schema with neither `$ref`, type nor properties as arbitrary, so
 * the wrapped form would hide every nested field from its client-side validation.
 */
function refOfAllOf(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const { allOf, ...rest } = value as Record<string, unknown>;
  if (
    !Array.isArray(allOf) ||
    allOf.length !== 1 ||
    rest.$ref !== undefined ||
    rest.type !== undefined ||
    rest.properties !== undefined
  )
    return value;
  const [only] = allOf as unknown[];
  if (
    typeof only !== 'object' ||
    only === null ||
    Object.keys(only).length !== 1 ||
    typeof (only as { $ref?: unknown }).$ref !== 'string'
  )
    return value;
  return { $ref: (only as { $ref: string }).$ref, ...rest };
}

export function contentHash(doc: unknown): string {
  return createHash('sha512').update(JSON.stringify(doc)).digest('hex').slice(0, 128).toUpperCase();
}
