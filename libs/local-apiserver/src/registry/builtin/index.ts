// The built-in resources as ResourceDefinitions: catalogue rows with their schema, defaulting and printing.
import { builtinDefinitionName } from '../../schema/builtin.js';
import type { ResourceDefinition } from '../types.js';
import { BUILTIN_ROWS, type BuiltinRow } from './catalogue.js';
import { DEFAULTERS } from './defaults.js';
import { FIELD_LABELS } from './field-labels.js';
import { PRINTERS } from './printers.js';
import { STRATEGIES } from './strategies.js';
import { VALIDATORS } from './validation.js';

export { humanDuration } from './human-duration.js';

const READ_WRITE = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function singular(kind: string): string {
  return kind.toLowerCase();
}

function definition(row: BuiltinRow): ResourceDefinition {
  const key = `${row.group}/${row.resource}`;
  const printer = PRINTERS[key];
  return {
    group: row.group,
    version: row.version,
    resource: row.resource,
    singular: singular(row.kind),
    kind: row.kind,
    listKind: `${row.kind}List`,
    namespaced: row.namespaced,
    verbs: row.createOnly ? ['create'] : READ_WRITE,
    shortNames: row.shortNames,
    categories: row.categories,
    subresources: {
      status: row.status,
      scale: row.scale
        ? {
            specReplicasPath: '.spec.replicas',
            statusReplicasPath: '.status.replicas',
            labelSelectorPath: '.status.selector',
          }
        : undefined,
      others: row.others,
    },
    served: true,
    storageVersion: row.storage?.version ?? row.storageVersion ?? row.version,
    storage: row.storage && { group: row.storage.group, resource: row.storage.resource },
    fieldLabels: FIELD_LABELS[key],
    definitionName: builtinDefinitionName(row.model, row.group),
    prepareForWrite: STRATEGIES[key],
    defaulter: DEFAULTERS[key],
    validator: VALIDATORS[key],
    printerColumns: printer?.columns,
    cells: printer?.cells,
    tracksGeneration: row.generation ?? false,
  };
}

/** Fresh definitions of every built-in resource (the registry owns them). */
export function builtinResources(): ResourceDefinition[] {
  return BUILTIN_ROWS.map(definition);
}
