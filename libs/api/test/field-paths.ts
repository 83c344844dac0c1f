// The field paths of a CRD's schema, as a sorted list: `spec.provider.workers[].zones`, with `[]` for list items and
// `{}` for map values. Embedded objects that keep unknown fields (RawExtension) end a path; metadata, apiVersion and
// kind are left out (every object has them).
import type { CustomResourceDefinition, JSONSchemaProps } from '../src/crd/index.js';

function walk(schema: JSONSchemaProps, path: string, out: string[]): void {
  if (path) out.push(path);
  if (schema['x-kubernetes-preserve-unknown-fields'] && !schema.properties) return;
  for (const [name, child] of Object.entries(schema.properties ?? {}))
    walk(child, path ? `${path}.${name}` : name, out);
  if (schema.items) walk(schema.items, `${path}[]`, out);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    walk(schema.additionalProperties, `${path}{}`, out);
  }
}

/** The field paths of the storage version of a CRD. */
export function crdFieldPaths(crd: CustomResourceDefinition): string[] {
  const version = crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0];
  const root = version.schema?.openAPIV3Schema ?? {};
  const out: string[] = [];
  for (const [name, child] of Object.entries(root.properties ?? {})) {
    if (name === 'metadata' || name === 'apiVersion' || name === 'kind') continue;
    walk(child, name, out);
  }
  // Paths ending in [] or {} only repeat their parent for scalar items; keep them, they say "list of" / "map of".
  return [...new Set(out)].sort();
}

/** `<group>/<version>, Kind=<kind>` of the storage version: the key of a kind in the recorded field lists. */
export function kindKey(crd: CustomResourceDefinition): string {
  const version = crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0];
  return `${crd.spec.group}/${version.name}, Kind=${crd.spec.names.kind}`;
}
