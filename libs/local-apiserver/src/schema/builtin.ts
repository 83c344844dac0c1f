// The generated OpenAPI definitions of built-in kinds (see scripts/generate-builtin-schemas.ts) and their names.
import generated from './builtin-definitions.json' with { type: 'json' };
import { definitionResolver } from './navigate.js';
import type { OpenAPISchema } from './types.js';

export const BUILTIN_DEFINITIONS = (generated as unknown as { definitions: Record<string, OpenAPISchema> }).definitions;

export const builtinResolver = definitionResolver(BUILTIN_DEFINITIONS);

/** Definition names read like kube's: client-node's `V1DeploymentSpec` → `io.k8s.api.v1.DeploymentSpec`. */
export function builtinDefinitionName(model: string): string {
  const m = /^([A-Z][a-z]+)?(V\d+(?:alpha\d+|beta\d+)?)([A-Z].*)$/.exec(model);
  if (!m) return `io.k8s.${model}`;
  const [, prefix, version, kind] = m;
  return `io.k8s.api.${prefix ? prefix.toLowerCase() + '.' : ''}${version.toLowerCase()}.${kind}`;
}

export const OBJECT_META = builtinDefinitionName('V1ObjectMeta');
