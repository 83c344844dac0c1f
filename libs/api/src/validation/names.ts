// Name, label and annotation rules of Kubernetes object metadata: kube's syntax checks
// (k8s.io/apimachinery/pkg/util/validation) worded exactly as kube-apiserver and Gardener's API server print them (regex
// and examples included). The one implementation for libs/api's validation and the local API server.
import type { ObjectMeta } from '../schema/meta.js';
import { type FieldError, FieldPath, forbidden, invalid, required, tooLong } from './field.js';

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const QUALIFIED_NAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MAX = 63;

const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";

const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const DNS1035_LABEL_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

/** kube's `MaxLenError`. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** kube's `RegexError`: the message, examples and the regex (with kube's doubled space after each example's comma). */
export function regexError(message: string, format: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${format}')`;
  return `${message} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${format}')`;
}

/** Problems of a DNS-1123 label (kube's `IsDNS1123Label`: at most 63 characters), empty when valid. */
export function dns1123LabelErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push(maxLenError(63));
  if (!DNS1123_LABEL.test(value)) errors.push(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  return errors;
}

/** Problems of a DNS-1123 subdomain (kube's `IsDNS1123Subdomain`: at most 253 characters), empty when valid. */
export function dns1123SubdomainErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 253) errors.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN.test(value))
    errors.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errors;
}

/** Problems of a DNS-1035 label (kube's `IsDNS1035Label`, Service names), empty when valid. */
export function dns1035LabelErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push(maxLenError(63));
  if (!DNS1035_LABEL.test(value)) errors.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errors;
}

/** Whether `value` is a DNS-1123 label. */
export const isDNS1123Label = (value: string) => dns1123LabelErrors(value).length === 0;
/** Whether `value` is a DNS-1123 subdomain. */
export const isDNS1123Subdomain = (value: string) => dns1123SubdomainErrors(value).length === 0;

/** Field errors of a required DNS-1123 label. */
export function validateDNS1123Label(value: string | undefined, path: FieldPath): FieldError[] {
  if (!value) return [required(path)];
  return dns1123LabelErrors(value).map((msg) => invalid(path, value, msg));
}

/** Field errors of a required DNS-1123 subdomain. */
export function validateDNS1123Subdomain(value: string | undefined, path: FieldPath): FieldError[] {
  if (!value) return [required(path)];
  return dns1123SubdomainErrors(value).map((msg) => invalid(path, value, msg));
}

/**
 * Problems of a qualified name (label and annotation keys; kube's `IsQualifiedName`): an optional DNS subdomain
 * prefix and '/', then a name of at most 63 alphanumerics, '-', '_' or '.'. Empty when valid.
 */
export function qualifiedNameErrors(value: string): string[] {
  const parts = value.split('/');
  let name: string;
  const errors: string[] = [];
  if (parts.length === 1) name = parts[0];
  else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errors.push('prefix part must be non-empty');
    else errors.push(...dns1123SubdomainErrors(prefix).map((e) => `prefix part ${e}`));
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errors.push('name part must be non-empty');
  else if (name.length > QUALIFIED_NAME_MAX) errors.push(`name part ${maxLenError(QUALIFIED_NAME_MAX)}`);
  if (!QUALIFIED_NAME.test(name))
    errors.push(`name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errors;
}

/** Problems of a label value, empty when valid (kube's `IsValidLabelValue`). */
export function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push(maxLenError(63));
  if (!LABEL_VALUE.test(value))
    errors.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
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
