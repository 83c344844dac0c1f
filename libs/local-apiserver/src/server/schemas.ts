// Schemas of every served resource for patching, pruning, defaulting and validation, and the OpenAPI documents
// built from them (cached until the registry changes).
import type { OpenAPIProvider } from '../http/handler.js';
import type { Registry } from '../registry/registry.js';
import type { ResourceDefinition } from '../registry/types.js';
import { BUILTIN_DEFINITIONS, builtinResolver, OBJECT_META } from '../schema/builtin.js';
import type { SchemaView } from '../schema/navigate.js';
import { contentHash, customDefinition, groupVersionDocument, swaggerDocument } from '../schema/openapi.js';
import { encodeSwaggerProtobuf } from '../schema/openapi-v2-protobuf.js';

export interface Schemas {
  /** The schema of the whole object, or undefined when the kind has none. */
  patchSchema(def: ResourceDefinition): SchemaView | undefined;
  /** The schema of ObjectMeta (metadata is pruned to it for every kind). */
  objectMeta: SchemaView;
  openapi: OpenAPIProvider;
}

const OPENAPI_VERSION = 'v1.35.0';

export function createSchemas(registry: Registry): Schemas {
  const views = new WeakMap<ResourceDefinition, SchemaView | undefined>();
  let cache:
    | {
        generation: number;
        v2?: Record<string, unknown>;
        v2ETag?: string;
        v2Protobuf?: Uint8Array;
        docs: Map<string, { doc: unknown; hash: string }>;
      }
    | undefined;

  const documents = () => {
    if (cache?.generation !== registry.generation) cache = { generation: registry.generation, docs: new Map() };
    return cache;
  };
  const groupVersions = () => {
    const byPath = new Map<string, ResourceDefinition[]>();
    for (const def of registry.all()) {
      if (!def.served) continue;
      const path = def.group ? `apis/${def.group}/${def.version}` : `api/${def.version}`;
      byPath.set(path, [...(byPath.get(path) ?? []), def]);
    }
    return byPath;
  };
  const documentOf = (path: string) => {
    const c = documents();
    let entry = c.docs.get(path);
    if (!entry) {
      const defs = groupVersions().get(path);
      if (!defs) return undefined;
      const doc = groupVersionDocument(defs, OPENAPI_VERSION);
      entry = { doc, hash: contentHash(doc) };
      c.docs.set(path, entry);
    }
    return entry;
  };

  const swagger = () => {
    const c = documents();
    c.v2 ??= swaggerDocument(
      registry.all().filter((d) => d.served),
      OPENAPI_VERSION,
    );
    return c.v2;
  };

  return {
    objectMeta: { root: BUILTIN_DEFINITIONS[OBJECT_META], resolve: builtinResolver },
    patchSchema(def) {
      if (views.has(def)) return views.get(def);
      let view: SchemaView | undefined;
      if (def.definitionName && BUILTIN_DEFINITIONS[def.definitionName]) {
        view = { root: BUILTIN_DEFINITIONS[def.definitionName], resolve: builtinResolver };
      } else if (def.schema) {
        view = { root: customDefinition(def), resolve: builtinResolver };
      }
      views.set(def, view);
      return view;
    },
    openapi: {
      v2: swagger,
      v2ETag() {
        const c = documents();
        c.v2ETag ??= contentHash(swagger());
        return c.v2ETag;
      },
      v2Protobuf() {
        const c = documents();
        c.v2Protobuf ??= encodeSwaggerProtobuf(swagger());
        return c.v2Protobuf;
      },
      v3Index() {
        const paths: Record<string, { serverRelativeURL: string }> = {};
        for (const path of [...groupVersions().keys()].sort()) {
          paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${documentOf(path)!.hash}` };
        }
        return { paths };
      },
      v3(path) {
        return documentOf(path)?.doc;
      },
    },
  };
}
