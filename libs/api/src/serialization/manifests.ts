// Multi-document YAML and JSON (de)serialisation of API objects, typed by apiVersion/kind.
import { Value } from '@sinclair/typebox/value';
import { parseAllDocuments, stringify } from 'yaml';
import { findKind } from '../kinds.js';
import type { KindDefinition, ObjectOf } from '../schema/kind.js';

/** Any Kubernetes object: the type meta is all that is known before the kind is looked at. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string; namespace?: string; [key: string]: unknown };
  [field: string]: unknown;
}

export class ManifestError extends Error {
  constructor(
    message: string,
    readonly source?: string,
    readonly document?: number,
  ) {
    super(`${source ?? '<input>'}${document === undefined ? '' : ` (document ${document + 1})`}: ${message}`);
    this.name = 'ManifestError';
  }
}

function asKubeObject(value: unknown, source: string | undefined, document: number): KubeObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ManifestError('expected an object', source, document);
  }
  const object = value as Record<string, unknown>;
  if (typeof object.apiVersion !== 'string' || object.apiVersion === '') {
    throw new ManifestError('apiVersion is missing', source, document);
  }
  if (typeof object.kind !== 'string' || object.kind === '')
    throw new ManifestError('kind is missing', source, document);
  return object as KubeObject;
}

/** Parses a YAML stream (documents separated by `---`); empty documents are skipped. */
export function parseManifests(text: string, source?: string): KubeObject[] {
  const objects: KubeObject[] = [];
  parseAllDocuments(text).forEach((doc, index) => {
    if (doc.errors.length > 0) throw new ManifestError(doc.errors[0].message, source, index);
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) return;
    objects.push(asKubeObject(value, source, index));
  });
  return objects;
}

export function parseJSONManifest(text: string, source?: string): KubeObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ManifestError((err as Error).message, source);
  }
  return asKubeObject(value, source, 0);
}

export function stringifyManifests(objects: readonly object[]): string {
  return objects.map((object) => stringify(object, { lineWidth: 0 })).join('---\n');
}

export function isKind<D extends KindDefinition>(object: KubeObject, kind: D): object is KubeObject & ObjectOf<D> {
  return object.apiVersion === `${kind.info.group}/${kind.info.version}` && object.kind === kind.info.kind;
}

/** Schema mismatches of an object against its kind: field path (dotted) and message. */
export function schemaErrors(kind: KindDefinition, object: unknown): { path: string; message: string }[] {
  return [...Value.Errors(kind.schema, object)].map((error) => ({
    path: error.path.replace(/^\//, '').replaceAll('/', '.'),
    message: error.message,
  }));
}

/**
 * Checks a parsed object against the schema of its kind and returns it typed. Throws for unknown kinds and for objects
 * whose fields have the wrong types; semantic rules are the validate* functions' business.
 */
export function decode<D extends KindDefinition>(object: KubeObject, kind: D): ObjectOf<D> {
  if (!isKind(object, kind)) {
    throw new ManifestError(
      `expected ${kind.info.group}/${kind.info.version} ${kind.info.kind}, got ${object.apiVersion} ${object.kind}`,
    );
  }
  const errors = schemaErrors(kind, object);
  if (errors.length > 0) {
    throw new ManifestError(errors.map((e) => `${e.path}: ${e.message}`).join('; '), object.metadata?.name);
  }
  return object as ObjectOf<D>;
}

/** The kind definition of an object of a group this library has schemas for, or undefined. */
export function kindOf(object: KubeObject): KindDefinition | undefined {
  return findKind(object.apiVersion, object.kind);
}
