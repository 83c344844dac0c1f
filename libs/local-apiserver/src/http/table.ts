// Server-side printing: `kubectl get` asks for meta.k8s.io Table and prints the columns the server chooses.
import { JSONPath } from 'jsonpath-plus';
import type { PrinterColumn, ResourceDefinition } from '../registry/types.js';
import { humanDuration } from '../registry/builtin/index.js';
import type { KubeObject } from '../storage/types.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

const NAME_COLUMN = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
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

export function toTable(def: ResourceDefinition, items: KubeObject[], listMeta: KubeObject, include: IncludeObject): KubeObject {
  const cols = columns(def);
  // A printer with its own name column (kube's events put it last, wide only) gets no leading NAME column.
  const named = cols.some((c) => c.format === 'name');
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    columnDefinitions: [
      ...(named ? [] : [NAME_COLUMN]),
      ...cols.map((c) => ({ name: c.name, type: c.type === 'date' ? 'string' : c.type, format: c.format ?? '', description: c.description ?? '', priority: c.priority ?? 0 })),
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

function jsonPathCell(item: KubeObject, column: PrinterColumn): unknown {
  if (!column.jsonPath) return '<none>';
  let values: unknown[];
  try {
    values = JSONPath({ path: `$${column.jsonPath.startsWith('.') || column.jsonPath.startsWith('[') ? '' : '.'}${column.jsonPath}`, json: item, wrap: true }) as unknown[];
  } catch {
    return '<invalid>';
  }
  if (values.length === 0 || values[0] === undefined || values[0] === null) return column.type === 'date' ? '<unknown>' : '<none>';
  const value = values.length === 1 ? values[0] : values;
  if (column.type === 'date' && typeof value === 'string') {
    const t = Date.parse(value);
    return Number.isNaN(t) ? '<invalid>' : humanDuration(Date.now() - t);
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
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
