// Name, label and annotation rules of Kubernetes object metadata.
import type { ObjectMeta } from '../schema/meta.js';
import { type FieldError, FieldPath, forbidden, invalid, required, tooLong } from './field.js';

const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const qualifiedNamePart = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const labelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Problems of a DNS-1123 label (RFC 1123), empty when valid. */
export function dns1123LabelErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push('must be no more than 63 characters');
  if (!dns1123Label.test(value)) {
    errors.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
    );
  }
  return errors;
}

export function dns1123SubdomainErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 253) errors.push('must be no more than 253 characters');
  if (!dns1123Subdomain.test(value)) {
    errors.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
    );
  }
  return errors;
}

export const isDNS1123Label = (value: string) => dns1123LabelErrors(value).length === 0;
export const isDNS1123Subdomain = (value: string) => dns1123SubdomainErrors(value).length === 0;

export function validateDNS1123Label(value: string | undefined, path: FieldPath): FieldError[] {
  if (!value) return [required(path)];
  return dns1123LabelErrors(value).map((msg) => invalid(path, value, msg));
}

export function validateDNS1123Subdomain(value: string | undefined, path: FieldPath): FieldError[] {
  if (!value) return [required(path)];
  return dns1123SubdomainErrors(value).map((msg) => invalid(path, value, msg));
}

/** A qualified name (label and annotation keys): optional DNS subdomain prefix, '/', name of at most 63 characters. */
export function qualifiedNameErrors(value: string): string[] {
  const parts = value.split('/');
  let name = value;
  const errors: string[] = [];
  if (parts.length === 2) {
    const [prefix] = parts;
    name = parts[1];
    if (prefix.length === 0) errors.push('prefix part must be non-empty');
    else errors.push(...dns1123SubdomainErrors(prefix).map((e) => `prefix part ${e}`));
  } else if (parts.length > 2) {
    return [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', with an optional DNS subdomain prefix and '/'",
    ];
  }
  if (name.length === 0) errors.push('name part must be non-empty');
  else if (name.length > 63) errors.push('name part must be no more than 63 characters');
  if (name.length > 0 && !qualifiedNamePart.test(name)) {
    errors.push(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
    );
  }
  return errors;
}

/** Problems of a label value, empty when valid (kube's `IsValidLabelValue`). */
export function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push('must be no more than 63 characters');
  if (!labelValue.test(value)) {
    errors.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
    );
  }
  return errors;
}

export function validateLabels(labels: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    errors.push(...qualifiedNameErrors(key).map((msg) => invalid(path, key, msg)));
    errors.push(...labelValueErrors(value).map((msg) => invalid(path.key(key), value, msg)));
  }
  return errors;
}

const totalAnnotationSizeLimit = 256 * 1024;

export function validateAnnotations(annotations: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(annotations ?? {})) {
    errors.push(...qualifiedNameErrors(key.toLowerCase()).map((msg) => invalid(path, key, msg)));
    size += key.length + value.length;
  }
  if (size > totalAnnotationSizeLimit) errors.push(tooLong(path, '', totalAnnotationSizeLimit));
  return errors;
}

export interface ObjectMetaRules {
  namespaced: boolean;
  /** Validates metadata.name; DNS-1123 subdomain unless stated otherwise. */
  name?: (name: string, path: FieldPath) => FieldError[];
}

export function validateObjectMeta(meta: ObjectMeta | undefined, rules: ObjectMetaRules): FieldError[] {
  const path = FieldPath.root('metadata');
  const errors: FieldError[] = [];
  const name = meta?.name;
  if (!name && !meta?.generateName) errors.push(required(path.child('name'), 'name or generateName is required'));
  if (name) errors.push(...(rules.name ?? validateDNS1123Subdomain)(name, path.child('name')));
  if (rules.namespaced) {
    if (!meta?.namespace) errors.push(required(path.child('namespace')));
    else errors.push(...validateDNS1123Label(meta.namespace, path.child('namespace')));
  } else if (meta?.namespace) {
    errors.push(forbidden(path.child('namespace'), 'not allowed on this type'));
  }
  errors.push(...validateLabels(meta?.labels, path.child('labels')));
  errors.push(...validateAnnotations(meta?.annotations, path.child('annotations')));
  return errors;
}

/** Metadata fields that may not change on update. */
export function validateObjectMetaUpdate(meta: ObjectMeta | undefined, old: ObjectMeta | undefined): FieldError[] {
  const path = FieldPath.root('metadata');
  const errors: FieldError[] = [];
  if (old?.name && meta?.name !== old.name) errors.push(invalid(path.child('name'), meta?.name, 'field is immutable'));
  if (old?.namespace && meta?.namespace !== old.namespace) {
    errors.push(invalid(path.child('namespace'), meta?.namespace, 'field is immutable'));
  }
  return errors;
}
