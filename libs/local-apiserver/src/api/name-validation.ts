// kube's name and label syntax checks with its exact messages (k8s.io/apimachinery/pkg/util/validation):
// qualified names (label and annotation keys), label values, DNS-1123 labels and subdomains. Each returns the
// problems as kube words them, empty when valid; callers add the field path and value.

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

/** kube's `MaxLenError`. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** kube's `RegexError`: the message, examples and the regex (with kube's doubled space after each example's comma). */
export function regexError(message: string, format: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${format}')`;
  return `${message} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${format}')`;
}

/** kube's IsQualifiedName: `[prefix/]name`, prefix a DNS subdomain, name ≤ 63 alphanumerics, '-', '_', '.'. */
export function isQualifiedName(value: string): string[] {
  const parts = value.split('/');
  let name: string;
  const problems: string[] = [];
  if (parts.length === 1) name = parts[0];
  else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) problems.push('prefix part must be non-empty');
    else problems.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) problems.push('name part must be non-empty');
  else if (name.length > QUALIFIED_NAME_MAX) problems.push(`name part ${maxLenError(QUALIFIED_NAME_MAX)}`);
  if (!QUALIFIED_NAME.test(name))
    problems.push(`name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return problems;
}

/** kube's IsValidLabelValue: empty, or ≤ 63 alphanumerics, '-', '_', '.' starting and ending alphanumeric. */
export function isValidLabelValue(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push(maxLenError(63));
  if (!LABEL_VALUE.test(value))
    problems.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return problems;
}

/** kube's IsDNS1123Label (≤ 63). */
export function isDNS1123Label(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push(maxLenError(63));
  if (!DNS1123_LABEL.test(value)) problems.push(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  return problems;
}

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const DNS1035_LABEL_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

/** kube's IsDNS1035Label (≤ 63; Service names). */
export function isDNS1035Label(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push(maxLenError(63));
  if (!DNS1035_LABEL.test(value)) problems.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return problems;
}

/** kube's IsDNS1123Subdomain (≤ 253). */
export function isDNS1123Subdomain(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 253) problems.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN.test(value))
    problems.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return problems;
}
