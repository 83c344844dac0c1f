// metadata.managedFields entries ↔ field sets per manager. A manager is identified as kube does: name, operation,
// subresource, and for Update also the apiVersion (apply entries of one manager merge across versions).
import { compareStrings, FieldSet } from './fieldset.js';

export type Operation = 'Apply' | 'Update';

export interface ManagerEntry {
  manager: string;
  operation: Operation;
  apiVersion: string;
  /** RFC 3339, seconds; absent when the entry never changed the object. */
  time?: string;
  subresource: string;
  set: FieldSet;
}

export type Managers = Map<string, ManagerEntry>;

export function managerKey(manager: string, operation: Operation, apiVersion: string, subresource: string): string {
  return JSON.stringify([manager, operation, operation === 'Update' ? apiVersion : '', subresource]);
}

export function entryKey(entry: ManagerEntry): string {
  return managerKey(entry.manager, entry.operation, entry.apiVersion, entry.subresource);
}

/** Whether a managedFields value asks for the entries to be reset (`[{}]`, as kube documents). */
export function isResetRequest(managedFields: unknown): boolean {
  return (
    Array.isArray(managedFields) &&
    managedFields.length > 0 &&
    managedFields.every((e) => typeof e === 'object' && e !== null && !e.manager && !e.operation && !e.fieldsV1)
  );
}

/** Decodes managedFields; throws on entries kube would reject. */
export function decodeManagedFields(managedFields: unknown): Managers {
  const managers: Managers = new Map();
  if (managedFields === undefined || managedFields === null) return managers;
  if (!Array.isArray(managedFields)) throw new Error('managedFields must be a list');
  for (const raw of managedFields) {
    if (typeof raw !== 'object' || raw === null) throw new Error('managedFields entries must be objects');
    if (!raw.manager && !raw.operation && !raw.fieldsV1) continue;
    if (raw.operation !== 'Apply' && raw.operation !== 'Update')
      throw new Error(`invalid operation ${JSON.stringify(raw.operation)}`);
    if (raw.fieldsType !== undefined && raw.fieldsType !== 'FieldsV1')
      throw new Error(`invalid fieldsType ${JSON.stringify(raw.fieldsType)}`);
    const entry: ManagerEntry = {
      manager: String(raw.manager ?? ''),
      operation: raw.operation,
      apiVersion: String(raw.apiVersion ?? ''),
      subresource: String(raw.subresource ?? ''),
      set: FieldSet.fromFieldsV1(raw.fieldsV1 ?? {}),
      ...(typeof raw.time === 'string' ? { time: raw.time } : {}),
    };
    const key = entryKey(entry);
    const existing = managers.get(key);
    if (existing) existing.set = existing.set.union(entry.set);
    else managers.set(key, entry);
  }
  return managers;
}

/** Encodes the entries in kube's order (operation, time, manager, apiVersion, subresource); empty ones are dropped. */
export function encodeManagedFields(managers: Managers): Record<string, unknown>[] {
  const entries = [...managers.values()].filter((e) => !e.set.empty());
  const seconds = (t?: string) => (t ? Math.floor(Date.parse(t) / 1000) || 0 : 0);
  entries.sort(
    (p, q) =>
      compareStrings(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      compareStrings(p.manager, q.manager) ||
      compareStrings(p.apiVersion, q.apiVersion) ||
      compareStrings(p.subresource, q.subresource),
  );
  return entries.map((e) => ({
    manager: e.manager,
    operation: e.operation,
    apiVersion: e.apiVersion,
    ...(e.time ? { time: e.time } : {}),
    fieldsType: 'FieldsV1',
    fieldsV1: e.set.toFieldsV1(),
    ...(e.subresource ? { subresource: e.subresource } : {}),
  }));
}

/** How kube names a manager in conflict messages: `"bob"`, `"bob" using v1`, `"bob" with subresource "status" ...`. */
export function describeManager(entry: ManagerEntry): string {
  let text = JSON.stringify(entry.manager);
  if (entry.subresource) text += ` with subresource ${JSON.stringify(entry.subresource)}`;
  if (entry.operation === 'Update') text += ` using ${entry.apiVersion}`;
  return text;
}
