// Describes an API kind once: its group/version/kind, REST names, scope and kubectl presentation. The CRD generator,
// the (de)serialiser and the validation entry points all read this.
import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { ObjectMeta } from './meta.js';
import { Opt } from './primitives.js';

export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  priority?: number;
}

export interface KindInfo {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Columns after NAME (AGE is added last unless a column of type date is listed). */
  printerColumns?: PrinterColumn[];
  /** Serve a /status subresource (the kind has a status the spec owner must not overwrite). */
  statusSubresource: boolean;
}

export interface KindDefinition<T extends TObject = TObject> {
  info: KindInfo;
  schema: T;
}

export function apiVersionOf(info: Pick<KindInfo, 'group' | 'version'>): string {
  return info.group ? `${info.group}/${info.version}` : info.version;
}

/** The object schema of a kind: apiVersion, kind, metadata plus the kind's own top-level fields. */
export function kindSchema<P extends TProperties>(info: KindInfo, fields: P) {
  return Type.Object({
    apiVersion: Opt(Type.Literal(apiVersionOf(info))),
    kind: Opt(Type.Literal(info.kind)),
    metadata: Opt(ObjectMeta),
    ...fields,
  });
}

export function defineKind<T extends TObject>(info: KindInfo, schema: T): KindDefinition<T> {
  return { info, schema };
}

export type ObjectOf<D extends KindDefinition> = Static<D['schema']>;

export const ageColumn: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };
