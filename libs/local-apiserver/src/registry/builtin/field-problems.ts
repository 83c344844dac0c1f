// kube's field.Error constructors (k8s.io/apimachinery/pkg/util/validation/field) as FieldProblems, worded as kube
// prints them: `Required value`, `Invalid value: "x": detail`, `Forbidden: detail`, `Duplicate value`, `Not found`.
import type { FieldProblem } from '../../schema/types.js';

/** field.Required. */
export const required = (field: string, detail = ''): FieldProblem => ({
  field,
  reason: 'FieldValueRequired',
  message: `Required value${detail ? `: ${detail}` : ''}`,
});

/** field.Invalid. */
export const invalid = (field: string, value: unknown, detail: string): FieldProblem => ({
  field,
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${JSON.stringify(value)}: ${detail}`,
});

/** field.Forbidden. */
export const forbidden = (field: string, detail: string): FieldProblem => ({
  field,
  reason: 'FieldValueForbidden',
  message: `Forbidden: ${detail}`,
});

/** field.Duplicate. */
export const duplicate = (field: string, value: unknown): FieldProblem => ({
  field,
  reason: 'FieldValueDuplicate',
  message: `Duplicate value: ${JSON.stringify(value)}`,
});

/** field.NotFound. */
export const notFound = (field: string, value: unknown): FieldProblem => ({
  field,
  reason: 'FieldValueNotFound',
  message: `Not found: ${JSON.stringify(value)}`,
});
