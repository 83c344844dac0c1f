// Server-side printing: `kubectl get` asks for meta.k8s.io Table and prints the columns the server chooses.
import type { PrinterColumn, ResourceDefinition } from '../registry/types.js';
import { humanDuration } from '../registry/builtin/index.js';
import type { KubeObject } from '../storage/types.js';
import { JsonPath, printJsonPathValue } from './jsonpath.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

const NAME_COLUMN = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description:
    'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  priority: 0,
};

const AGE_COLUMN: PrinterColumn = {
  name: 'Age',
  type: 'date',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
  jsonPath: '.metadata.creationTimestamp',
};

/** Accept header asks for a Table (kubectl get) or for metadata only (metadata informers). */
export function requestedView(accept: string | undefined): 'Table' | 'PartialObjectMetadata' | 'Object' {
  if (!accept) return 'Object';
  for (const part of accept.split(',')) {
    const p = part.replace(/\s/g, '');
    if (!p.startsWith('application/json') || !p.includes('g=meta.k8s.io')) continue;
    if (p.includes('as=Table')) return 'Table';
    if (p.includes('as=PartialObjectMetadata')) return 'PartialObjectMetadata';
  }
  return 'Object';
}

function columns(def: ResourceDefinition): PrinterColumn[] {
  if (def.printerColumns && def.printerColumns.length > 0) return def.printerColumns;
  return [AGE_COLUMN];
}

export function toTable(
  def: ResourceDefinition,
  items: KubeObject[],
  listMeta: KubeObject,
  include: IncludeObject,
): KubeObject {
  const cols = columns(def);
  // A printer with its own name column (kube's events put it last, wide only) gets no leading NAME column.
  const named = cols.some((c) => c.format === 'name');
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    columnDefinitions: [
      ...(named ? [] : [NAME_COLUMN]),
      ...cols.map((c) => ({
        name: c.name,
        type: c.type === 'date' ? 'string' : c.type,
        format: c.format ?? '',
        description: c.description ?? '',
        priority: c.priority ?? 0,
      })),
    ],
    rows: items.map((item) => ({
      cells: [...(named ? [] : [item.metadata?.name ?? '']), ...cellsFor(def, cols, item)],
      object: include === 'None' ? undefined : include === 'Object' ? item : partialMetadata(item),
    })),
  };
}

function cellsFor(def: ResourceDefinition, cols: PrinterColumn[], item: KubeObject): unknown[] {
  if (def.cells && def.printerColumns === cols) return def.cells(item);
  return cols.map((c) => jsonPathCell(item, c));
}

const parsedPaths = new Map<string, JsonPath | undefined>();

function parsedColumnPath(jsonPath: string): JsonPath | undefined {
  if (!parsedPaths.has(jsonPath)) {
    let parsed: JsonPath | undefined;
    try {
      parsed = JsonPath.parse(`{${jsonPath}}`);
    } catch {
      parsed = undefined;
    }
    if (parsedPaths.size > 1000) parsedPaths.clear();
    parsedPaths.set(jsonPath, parsed);
  }
  return parsedPaths.get(jsonPath);
}

/**
 * One cell of a CRD printer column, as apiextensions-apiserver's table convertor computes it: the column's kube
 * JSONPath with missing keys allowed, the first value of the first result (nil when there is none or evaluation
 * fails, which kubectl prints as `<none>`); `string` columns print the value as kube's jsonpath does, other types
 * take the JSON value when it has the column's type (kube's cellForJSONValue), dates as a human duration.
 */
export function jsonPathCell(item: KubeObject, column: Pick<PrinterColumn, 'jsonPath' | 'type'>): unknown {
  const path = column.jsonPath ? parsedColumnPath(column.jsonPath) : undefined;
  if (!path) return null;
  let results: unknown[][];
  try {
    results = path.findResults(item);
  } catch {
    return null;
  }
  if (results.length === 0 || results[0].length === 0) return null;
  const value = results[0][0];
  if (column.type === 'string') return printJsonPathValue(value);
  if (value === null || value === undefined) return null;
  switch (column.type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const t = Date.parse(value);
      return Number.isNaN(t) ? '<invalid>' : humanDuration(Date.now() - t);
    }
    default:
      return null;
  }
}

export function partialMetadata(item: KubeObject): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: item.metadata };
}

export function partialMetadataList(list: KubeObject): KubeObject {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: 'meta.k8s.io/v1',
    metadata: list.metadata,
    items: (list.items as KubeObject[]).map(partialMetadata),
  };
}
