// CRD validation rules (x-kubernetes-validations), evaluated as kube-apiserver's apiextensions CEL validator does:
// each rule runs at the schema node that carries it with `self` bound to the value there (rules on list items run per
// item); `oldSelf` is the old value at the same path, correlated through object properties, map keys and the keys of
// `x-kubernetes-list-type: map` lists (not through atomic/set list items). Rules that refer to `oldSelf` (transition
// rules) run only on update when there is a correlated old value, unless `optionalOldSelf` makes `oldSelf` an optional.
// A failed rule is a field error at the node's path (or `fieldPath`), typed by `reason`, with `message`, the
// `messageExpression` result or `failed rule: <rule>`; unchanged values ratchet (failures of rules without oldSelf
// become warnings). Rules are compiled when the CRD is written (validateCRDRules) and cached per schema node.
import { Optional } from '@marcbachmann/cel-js';
import { compileExpression, firstLine, refersTo, type Program } from './cel-env.js';
import { isPlainObject } from './navigate.js';
import type { FieldProblem, OpenAPISchema } from './types.js';

export type ValidationRule = NonNullable<OpenAPISchema['x-kubernetes-validations']>[number] & {
  optionalOldSelf?: boolean;
};

interface CompiledRule {
  rule: ValidationRule;
  program?: Program;
  error?: string;
  usesOldSelf: boolean;
  messageProgram?: Program;
  /** The rule's fieldPath, resolved against the schema (`a.b`, `m[key]`), relative to the node. */
  fieldPath?: string;
}

const compiled = new WeakMap<OpenAPISchema, CompiledRule[]>();

function compileRules(schema: OpenAPISchema): CompiledRule[] {
  let rules = compiled.get(schema);
  if (rules) return rules;
  rules = (schema['x-kubernetes-validations'] ?? []).map((rule: ValidationRule) => {
    const text = String(rule.rule ?? '').trim();
    const { program, error } = text ? compileExpression(text) : { program: undefined, error: 'rule is not specified' };
    const messageExpression = String(rule.messageExpression ?? '').trim();
    return {
      rule,
      program,
      error,
      usesOldSelf: refersTo(text, 'oldSelf'),
      messageProgram: messageExpression ? compileExpression(messageExpression).program : undefined,
      fieldPath: rule.fieldPath ? resolveFieldPath(rule.fieldPath, schema).path : undefined,
    };
  });
  compiled.set(schema, rules);
  return rules;
}

// ---- field paths (kube's ValidFieldPath: `.a.b`, `['a.b']`, additionalProperties keys as `[key]`) ----

export function resolveFieldPath(fieldPath: string, schema: OpenAPISchema): { path?: string; error?: string } {
  const tokens = fieldPath.match(/'(?:\\.|[^'\\])*'|[.[\]]|[^.[\]']+/g) ?? [];
  let s: OpenAPISchema | undefined = schema;
  let path = '';
  const step = (name: string): string | undefined => {
    if (s?.properties) {
      s = s.properties[name];
      if (!s) return 'does not refer to a valid field';
      path += path ? `.${name}` : name;
    } else if (s && typeof s.additionalProperties === 'object') {
      s = s.additionalProperties;
      path += `[${name}]`;
    } else return 'does not refer to a valid field';
    return undefined;
  };
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    let err: string | undefined;
    if (tok === '.') {
      const name = tokens[++i];
      if (name === undefined) return { error: 'unexpected end of JSON path' };
      err = step(name);
    } else if (tok === '[') {
      const quoted = tokens[++i];
      if (quoted === undefined) return { error: 'unexpected end of JSON path' };
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'"))
        return { error: `expected single quoted string but got ${quoted}` };
      err = step(quoted.slice(1, -1).replace(/\\(.)/g, '$1'));
      if (tokens[++i] !== ']') return { error: `expected ] but got ${tokens[i] ?? ''}` };
    } else return { error: `expected [ or . but got: ${tok}` };
    if (err) return { error: err };
  }
  return { path };
}

// ---- values as CEL sees them ----

/** JSON to CEL: integers (and integral int-or-string values) as int, `number` fields as double; the resource root
 * exposes only apiVersion, kind, metadata.name and metadata.generateName of the object's metadata. */
function toCel(value: unknown, schema: OpenAPISchema | undefined, root = false): unknown {
  if (typeof value === 'number') {
    if (schema?.type === 'number' || !Number.isInteger(value)) return value;
    return BigInt(value);
  }
  if (Array.isArray(value)) return value.map((v) => toCel(v, schema?.items));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (root && k === 'metadata' && isPlainObject(v)) {
        out.metadata = Object.fromEntries(Object.entries(v).filter(([mk]) => mk === 'name' || mk === 'generateName'));
        continue;
      }
      const child =
        schema?.properties?.[k] ??
        (typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      out[k] = toCel(v, child);
    }
    return out;
  }
  return value;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** kube's field.Path rendering of a child property. */
const child = (path: string, name: string) => (path ? `${path}.${name}` : name);

// ---- evaluation ----

export interface RuleResult {
  problems: FieldProblem[];
  /** Ratcheted failures (unchanged values), as kube's warnings: `<field>: <message>`. */
  warnings: string[];
}

/**
 * Which rules run: `all` (create), `main` (main-resource update of a kind with a status subresource: every rule
 * outside `status`), `status` (status subresource update: only the rules under `status`).
 */
export type RuleScope = 'all' | 'main' | 'status';

/** Evaluates the x-kubernetes-validations of a custom resource's schema (the CRD version's openAPIV3Schema). */
export function validateRules(
  schema: OpenAPISchema,
  object: unknown,
  oldObject: unknown,
  scope: RuleScope = 'all',
): RuleResult {
  const out: RuleResult = { problems: [], warnings: [] };
  if (!hasRules(schema)) return out;
  if (scope === 'status') {
    const status = schema.properties?.status;
    const obj = isPlainObject(object) ? object.status : undefined;
    const old = isPlainObject(oldObject) ? oldObject.status : undefined;
    if (status) walk(status, obj, old, 'status', out, false);
    return out;
  }
  walk(schema, object, oldObject, '', out, true, scope === 'main' ? 'status' : undefined);
  return out;
}

/** Whether a schema has x-kubernetes-validations anywhere. */
export const hasValidationRules = (schema: OpenAPISchema): boolean => hasRules(schema);

const hasRulesCache = new WeakMap<OpenAPISchema, boolean>();
function hasRules(s: OpenAPISchema | undefined): boolean {
  if (!s) return false;
  const cached = hasRulesCache.get(s);
  if (cached !== undefined) return cached;
  const found =
    (s['x-kubernetes-validations']?.length ?? 0) > 0 ||
    hasRules(s.items) ||
    (typeof s.additionalProperties === 'object' && hasRules(s.additionalProperties)) ||
    Object.values(s.properties ?? {}).some(hasRules);
  hasRulesCache.set(s, found);
  return found;
}

function walk(
  s: OpenAPISchema,
  value: unknown,
  old: unknown,
  path: string,
  out: RuleResult,
  root: boolean,
  skip?: string,
): void {
  // Only non-null values are validated; rules on optional or nullable values belong on the surrounding schema.
  if (value === undefined || value === null || !hasRules(s)) return;
  if (old === null) old = undefined;
  evaluateNode(s, value, old, path, out, root);
  if (Array.isArray(value) && s.items) {
    const oldItems = Array.isArray(old) && s['x-kubernetes-list-type'] === 'map' ? old : [];
    const keys = s['x-kubernetes-list-map-keys'] ?? [];
    const keyOf = (item: unknown) =>
      isPlainObject(item) ? JSON.stringify(keys.map((k) => item[k] ?? null)) : undefined;
    const byKey = new Map<string, unknown>();
    for (const item of oldItems) {
      const key = keyOf(item);
      if (key !== undefined) byKey.set(key, item);
    }
    value.forEach((item, i) => {
      const key = keyOf(item);
      walk(s.items!, item, key === undefined ? undefined : byKey.get(key), `${path}[${i}]`, out, false);
    });
  } else if (isPlainObject(value)) {
    const oldMap = isPlainObject(old) ? old : {};
    for (const [k, v] of Object.entries(value)) {
      if (k === skip) continue;
      const property = s.properties?.[k];
      if (property) walk(property, v, oldMap[k], child(path, k), out, false);
      else if (typeof s.additionalProperties === 'object')
        walk(s.additionalProperties, v, oldMap[k], `${path}[${k}]`, out, false);
    }
  }
}

const ruleErrorString = (rule: ValidationRule) => (rule.message ? rule.message.trim() : String(rule.rule ?? '').trim());
const ruleMessageOrDefault = (rule: ValidationRule) =>
  rule.message ? rule.message.trim() : `failed rule: ${ruleErrorString(rule)}`;

function evaluateNode(
  s: OpenAPISchema,
  value: unknown,
  old: unknown,
  path: string,
  out: RuleResult,
  root: boolean,
): void {
  const rules = compileRules(s);
  if (rules.length === 0) return;
  const type = JSON.stringify(s.type ?? '');
  const invalid = (field: string, detail: string): FieldProblem => ({
    field,
    reason: 'FieldValueInvalid',
    message: `Invalid value: ${type}: ${detail}`,
  });
  const self = toCel(value, s, root);
  const oldSelf = old === undefined ? undefined : toCel(old, s, root);
  const ctx = { self, oldSelf: oldSelf ?? null };
  const optionalCtx = { self, oldSelf: oldSelf === undefined ? Optional.none() : Optional.of(oldSelf) };
  for (const r of rules) {
    if (r.error || !r.program) {
      if (r.error && r.error !== 'rule is not specified')
        out.problems.push(invalid(path, `rule compile error: ${r.error}`));
      continue;
    }
    const optional = r.rule.optionalOldSelf === true;
    if (r.usesOldSelf && oldSelf === undefined && !optional) continue;
    let result: unknown;
    try {
      result = r.program(optional ? optionalCtx : ctx);
    } catch (err) {
      const message = firstLine((err as Error).message);
      out.problems.push(
        invalid(
          path,
          /no (such|matching) overload/i.test(message)
            ? `'${message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(r.rule)}`
            : `${message} evaluating rule: ${ruleErrorString(r.rule)}`,
        ),
      );
      continue;
    }
    if (result === true) continue;
    const field = r.fieldPath
      ? r.fieldPath.startsWith('[')
        ? `${path}${r.fieldPath}`
        : child(path, r.fieldPath)
      : path;
    const problem = fieldError(field, type, messageOf(r, ctx), r.rule.reason);
    // Ratcheting: a value that did not change keeps passing (the failure becomes a warning) unless the rule is a transition rule.
    if (!r.usesOldSelf && old !== undefined && sameJson(value, old))
      out.warnings.push(`${problem.field}: ${problem.message}`);
    else out.problems.push(problem);
  }
}

function messageOf(r: CompiledRule, ctx: Record<string, unknown>): string {
  if (r.messageProgram) {
    try {
      const message = r.messageProgram(ctx);
      if (typeof message === 'string') {
        const trimmed = message.trim();
        if (trimmed && !trimmed.includes('\n') && trimmed.length <= 5 * 1024) return trimmed;
      }
    } catch {
      // kube logs the failure and falls back to the message.
    }
  }
  return ruleMessageOrDefault(r.rule);
}

function fieldError(field: string, type: string, detail: string, reason: string | undefined): FieldProblem {
  switch (reason) {
    case 'FieldValueForbidden':
      return { field, reason, message: `Forbidden: ${detail}` };
    case 'FieldValueRequired':
      return { field, reason, message: `Required value: ${detail}` };
    case 'FieldValueDuplicate':
      return { field, reason, message: `Duplicate value: ${type}` };
    default:
      return { field, reason: 'FieldValueInvalid', message: `Invalid value: ${type}: ${detail}` };
  }
}

/** kube does not run the rules when the object has type errors or unsupported values: this error stands in for them. */
export function blockingProblem(problems: FieldProblem[]): FieldProblem | undefined {
  if (!problems.some((p) => p.reason === 'FieldValueTypeInvalid' || p.reason === 'FieldValueNotSupported'))
    return undefined;
  return {
    field: '<nil>',
    reason: 'FieldValueInvalid',
    message:
      'Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
  };
}

// ---- CRD create/update: every rule must compile ----

const REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

/** The rule as kube prints it in field errors (Go's %#v of apiextensions.ValidationRule). */
function goRule(rule: ValidationRule): string {
  const q = (v: unknown) => JSON.stringify(String(v ?? ''));
  const reason = rule.reason
    ? '(*apiextensions.FieldValueErrorReason)(0xc000a3c010)'
    : '(*apiextensions.FieldValueErrorReason)(nil)';
  const optional = rule.optionalOldSelf === undefined ? '(*bool)(nil)' : '(*bool)(0xc000a3c018)';
  return `apiextensions.ValidationRule{Rule:${q(rule.rule)}, Message:${q(rule.message)}, MessageExpression:${q(rule.messageExpression)}, Reason:${reason}, FieldPath:${q(rule.fieldPath)}, OptionalOldSelf:${optional}}`;
}

function checkSchemaRules(s: unknown, path: string, out: FieldProblem[]): void {
  if (!isPlainObject(s)) return;
  const schema = s as OpenAPISchema;
  const rules = schema['x-kubernetes-validations'];
  if (Array.isArray(rules)) {
    rules.forEach((rule: ValidationRule, i) => {
      const at = `${path}.x-kubernetes-validations[${i}]`;
      const text = String(rule?.rule ?? '').trim();
      if (!text) {
        out.push({
          field: `${at}.rule`,
          reason: 'FieldValueRequired',
          message: 'Required value: rule is not specified',
        });
        return;
      }
      const message = String(rule.message ?? '');
      if (message && !message.trim())
        out.push({
          field: `${at}.message`,
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(message)}: message must be non-empty if specified`,
        });
      else if (message.trim().includes('\n'))
        out.push({
          field: `${at}.message`,
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(message)}: message must not contain line breaks`,
        });
      else if (!message && text.includes('\n'))
        out.push({
          field: `${at}.message`,
          reason: 'FieldValueRequired',
          message: 'Required value: message must be specified if rule contains line breaks',
        });
      const compiledRule = compileExpression(text);
      if (compiledRule.error)
        out.push({
          field: `${at}.rule`,
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${goRule(rule)}: ${compiledRule.error}`,
        });
      else if (compiledRule.type !== 'bool' && compiledRule.type !== 'dyn')
        out.push({
          field: `${at}.rule`,
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${goRule(rule)}: cel expression must evaluate to a bool`,
        });
      const messageExpression = String(rule.messageExpression ?? '').trim();
      if (messageExpression) {
        const m = compileExpression(messageExpression);
        if (m.error)
          out.push({
            field: `${at}.messageExpression`,
            reason: 'FieldValueInvalid',
            message: `Invalid value: ${goRule(rule)}: messageExpression ${m.error}`,
          });
        else if (m.type !== 'string' && m.type !== 'dyn')
          out.push({
            field: `${at}.messageExpression`,
            reason: 'FieldValueInvalid',
            message: `Invalid value: ${goRule(rule)}: messageExpression must evaluate to a string`,
          });
      }
      if (rule.reason !== undefined && !REASONS.includes(String(rule.reason))) {
        out.push({
          field: `${at}.reason`,
          reason: 'FieldValueNotSupported',
          message: `Unsupported value: ${JSON.stringify(rule.reason)}: supported values: ${REASONS.map((r) => JSON.stringify(r)).join(', ')}`,
        });
      }
      if (rule.fieldPath) {
        const { error } = resolveFieldPath(String(rule.fieldPath), schema);
        if (error)
          out.push({
            field: `${at}.fieldPath`,
            reason: 'FieldValueInvalid',
            message: `Invalid value: ${JSON.stringify(rule.fieldPath)}: fieldPath must be a valid path: ${error}`,
          });
      }
    });
  }
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    checkSchemaRules(property, `${path}.properties[${name}]`, out);
  if (schema.items) checkSchemaRules(schema.items, `${path}.items`, out);
  if (isPlainObject(schema.additionalProperties))
    checkSchemaRules(schema.additionalProperties, `${path}.additionalProperties`, out);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const)
    schema[key]?.forEach((sub, i) => checkSchemaRules(sub, `${path}.${key}[${i}]`, out));
  if (schema.not) checkSchemaRules(schema.not, `${path}.not`, out);
}

/**
 * The rule checks of a CustomResourceDefinition create/update, at kube's paths: `spec.validation.openAPIV3Schema...`
 * when every version has the same schema (kube's internal form), else `spec.versions[i].schema.openAPIV3Schema...`.
 */
export function validateCRDRules(crd: {
  spec?: { versions?: { schema?: { openAPIV3Schema?: unknown } }[] };
}): FieldProblem[] {
  const versions = Array.isArray(crd?.spec?.versions) ? crd.spec.versions : [];
  const schemas = versions.map((v) => v?.schema?.openAPIV3Schema);
  const out: FieldProblem[] = [];
  if (schemas.length > 0 && schemas.every((s) => s !== undefined && sameJson(s, schemas[0]))) {
    checkSchemaRules(schemas[0], 'spec.validation.openAPIV3Schema', out);
  } else {
    schemas.forEach((s, i) => checkSchemaRules(s, `spec.versions[${i}].schema.openAPIV3Schema`, out));
  }
  return out;
}
