// kube's validation of a metav1.LabelSelector (apimachinery's metav1validation.ValidateLabelSelector): `matchLabels`
// as labels (ValidateLabels: keys are qualified names, values label values, both reported on `matchLabels`), every
// `matchExpressions` entry with one of the four operators, values where In/NotIn need them and none for
// Exists/DoesNotExist, a qualified-name key and valid label values. The one implementation, used by Gardener's
// validation here and by the local API server for built-in kinds.
import { type FieldError, type FieldPath, forbidden, invalid, required } from './field.js';
import { labelValueErrors, qualifiedNameErrors } from './names.js';

/** metav1validation.LabelSelectorValidationOptions. */
export interface LabelSelectorValidationOptions {
  /** Accept invalid label values in `matchExpressions` (kube allows them on update when the old object had them). */
  allowInvalidLabelValueInSelector?: boolean;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object';
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** metav1validation.ValidateLabels for the label map at `path`: every error on `path` itself, as kube reports it. */
function labelErrors(labels: unknown, path: FieldPath): FieldError[] {
  if (!isObject(labels)) return [];
  return Object.entries(labels).flatMap(([key, value]) => [
    ...qualifiedNameErrors(key).map((msg) => invalid(path, key, msg)),
    ...(typeof value === 'string'
      ? labelValueErrors(value).map((msg) => invalid(path, value, msg))
      : [invalid(path, value, 'must be a string')]),
  ]);
}

/** metav1validation.ValidateLabelSelectorRequirement. */
function requirementErrors(requirement: unknown, path: FieldPath, options: LabelSelectorValidationOptions) {
  const r = isObject(requirement) ? requirement : {};
  const values = listOf(r.values);
  const errors: FieldError[] = [];
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0)
        errors.push(required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0)
        errors.push(
          forbidden(path.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        );
      break;
    default:
      errors.push(invalid(path.child('operator'), r.operator ?? '', 'not a valid selector operator'));
  }
  const key = typeof r.key === 'string' ? r.key : '';
  errors.push(...qualifiedNameErrors(key).map((msg) => invalid(path.child('key'), key, msg)));
  if (!options.allowInvalidLabelValueInSelector) {
    values.forEach((value, i) => {
      errors.push(...labelValueErrors(String(value)).map((msg) => invalid(path.child('values').index(i), value, msg)));
    });
  }
  return errors;
}

/**
 * metav1validation.ValidateLabelSelector: the errors of the selector at `path`, none for an absent one. Takes the
 * selector as decoded JSON, so a malformed one (a non-string value, a missing key) is reported, not thrown on.
 */
export function validateLabelSelector(
  selector: unknown,
  path: FieldPath,
  options: LabelSelectorValidationOptions = {},
): FieldError[] {
  if (!isObject(selector)) return [];
  return [
    ...labelErrors(selector.matchLabels, path.child('matchLabels')),
    ...listOf(selector.matchExpressions).flatMap((requirement, i) =>
      requirementErrors(requirement, path.child('matchExpressions').index(i), options),
    ),
  ];
}

/** Whether any `matchExpressions` value of the selector is not a valid label value (kube's update leniency). */
export function hasInvalidLabelValueInSelector(selector: unknown): boolean {
  if (!isObject(selector)) return false;
  return listOf(selector.matchExpressions).some(
    (r) => isObject(r) && listOf(r.values).some((v) => labelValueErrors(String(v)).length > 0),
  );
}
