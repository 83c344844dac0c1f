// The server's own admission steps, in kube's order: drop unknown fields (reporting them per fieldValidation),
// default, add the CRD cleanup finalizer; then validate against the schema and its CEL rules (x-kubernetes-validations,
// compiled when a CRD is written).
import { ApiError, errors } from '../api/errors.js';
import { validateLabelsAndAnnotations } from '../api/meta.js';
import { CRD_FINALIZER } from '../controllers/crd-controller.js';
import { validateCRDConversion } from '../controllers/crd-conversion.js';
import { blockingProblem, hasValidationRules, validateCRDRules, validateRules } from '../schema/cel.js';
import { applyDefaults } from '../schema/defaults.js';
import { pruneUnknown } from '../schema/prune.js';
import type { FieldProblem } from '../schema/types.js';
import { validateValue } from '../schema/validate.js';
import type { Pipeline, WriteRequest } from './pipeline.js';
import type { Schemas } from './schemas.js';

const isWrite = (r: WriteRequest) => r.operation === 'CREATE' || r.operation === 'UPDATE';

export function defaultPipeline(schemas: Schemas): Pipeline {
  return {
    mutating: [
      // kube's decoding into the internal type and the strategy's PrepareFor*: before anything else sees the object.
      (r) => {
        if (isWrite(r)) r.definition.prepareForWrite?.(r.object, r.oldObject);
      },
      (r) => {
        if (!isWrite(r)) return;
        const view = schemas.patchSchema(r.definition) ?? schemas.objectMeta;
        const unknown =
          view === schemas.objectMeta
            ? pruneUnknown(view, view.root, r.object.metadata, 'metadata')
            : pruneUnknown(view, view.root, r.object);
        reportUnknown(r, unknown);
      },
      (r) => {
        if (!isWrite(r)) return;
        r.definition.defaulter?.(r.object);
        const view = schemas.patchSchema(r.definition);
        if (r.definition.custom && view) applyDefaults(view, view.root, r.object);
      },
      (r) => {
        const d = r.definition;
        if (
          r.operation !== 'CREATE' ||
          d.group !== 'apiextensions.k8s.io' ||
          d.resource !== 'customresourcedefinitions'
        )
          return;
        const finalizers: string[] = (r.object.metadata.finalizers ??= []);
        if (!finalizers.includes(CRD_FINALIZER)) finalizers.push(CRD_FINALIZER);
      },
    ],
    validating: [
      // kube's ObjectMeta validation of every create and update (main resource and subresources alike).
      (r) => {
        if (!isWrite(r)) return;
        const problems = validateLabelsAndAnnotations(r.object.metadata ?? {});
        if (problems.length > 0) throw errors.invalid(r.definition.kind, r.definition.group, r.name, problems);
      },
      (r) => {
        if (!isWrite(r) || !r.definition.validator || r.subresource !== '') return;
        const problems = r.definition.validator(r.object, r.oldObject);
        if (problems.length > 0) throw errors.invalid(r.definition.kind, r.definition.group, r.name, problems);
      },
      (r) => {
        if (!isWrite(r) || !r.definition.custom) return;
        const view = schemas.patchSchema(r.definition);
        if (!view) return;
        const root = view.resolve(view.root);
        const problems: FieldProblem[] = [];
        for (const field of root.required ?? []) {
          if (field !== 'metadata' && r.object[field] === undefined)
            problems.push({ field, reason: 'FieldValueRequired', message: 'Required value' });
        }
        for (const [field, value] of Object.entries(r.object)) {
          const schema = root.properties?.[field];
          if (field === 'metadata' || field === 'apiVersion' || field === 'kind' || !schema || value === undefined)
            continue;
          problems.push(...validateValue(view, schema, value, field));
        }
        const rules = r.definition.schema;
        if (rules && hasValidationRules(rules)) {
          const blocking = blockingProblem(problems);
          if (blocking) problems.push(blocking);
          else {
            const scope =
              r.subresource === 'status'
                ? 'status'
                : r.operation === 'UPDATE' && r.definition.subresources.status
                  ? 'main'
                  : 'all';
            const result = validateRules(rules, r.object, r.operation === 'UPDATE' ? r.oldObject : undefined, scope);
            problems.push(...result.problems);
            r.ctx.warnings.push(...result.warnings);
          }
        }
        if (problems.length > 0) throw errors.invalid(r.definition.kind, r.definition.group, r.name, problems);
      },
      (r) => {
        const d = r.definition;
        if (
          !isWrite(r) ||
          r.subresource !== '' ||
          d.group !== 'apiextensions.k8s.io' ||
          d.resource !== 'customresourcedefinitions'
        )
          return;
        const problems = [...validateCRDConversion(r.object), ...validateCRDRules(r.object)];
        if (problems.length > 0) throw errors.invalid(d.kind, d.group, r.name, problems);
      },
    ],
  };
}

/** kube's server-side field validation: Strict refuses, Warn adds Warning headers, Ignore drops silently. */
function reportUnknown(r: WriteRequest, unknown: string[]): void {
  if (unknown.length === 0 || r.ctx.fieldValidation === 'Ignore') return;
  // Only fields the client sent count; what the server itself prunes on an update of old data does not.
  const fields = unknown.filter((f) => !(r.oldObject && has(r.oldObject, f)));
  if (fields.length === 0) return;
  if (r.ctx.fieldValidation === 'Strict') {
    const strict = `strict decoding error: ${fields.map((f) => `unknown field "${f}"`).join(', ')}`;
    // kube's decoder names the kind it could not decode the body of on creates and updates.
    const { kind, version } = r.definition;
    const decoding =
      r.operation === 'CREATE' || r.operation === 'UPDATE'
        ? `${kind} in version "${version}" cannot be handled as a ${kind}: `
        : '';
    throw new ApiError(400, 'BadRequest', `${decoding}${strict}`);
  }
  for (const f of fields) r.ctx.warnings.push(`unknown field "${f}"`);
}

function has(object: unknown, path: string): boolean {
  let current: unknown = object;
  for (const part of path.split(/\.|\[|\]/).filter(Boolean)) {
    if (typeof current !== 'object' || current === null) return false;
    current = (current as Record<string, unknown>)[part];
  }
  return current !== undefined;
}
