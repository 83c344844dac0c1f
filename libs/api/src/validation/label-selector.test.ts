import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FieldPath } from './field.js';
import { hasInvalidLabelValueInSelector, validateLabelSelector } from './label-selector.js';
import { labelValueErrors, qualifiedNameErrors } from './names.js';

const at = FieldPath.root('spec', 'selector');
const messages = (selector: unknown, options = {}) =>
  validateLabelSelector(selector, at, options).map((e) => e.message);

describe('validateLabelSelector', () => {
  it('accepts valid and absent selectors', () => {
    expect(messages(undefined)).toEqual([]);
    expect(messages(null)).toEqual([]);
    expect(
      messages({
        matchLabels: { app: 'web', 'gardener.cloud/role': 'controlplane' },
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['a', 'b'] },
          { key: 'env', operator: 'NotIn', values: [''] },
          { key: 'legacy', operator: 'DoesNotExist' },
          { key: 'zone', operator: 'Exists', values: [] },
        ],
      }),
    ).toEqual([]);
  });

  // kube's messages and field paths (apimachinery's metav1validation tests).
  const cases: [string, unknown, string[]][] = [
    [
      'In without values',
      { matchExpressions: [{ key: 'a', operator: 'In' }] },
      [
        "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      ],
    ],
    [
      'NotIn with empty values',
      { matchExpressions: [{ key: 'a', operator: 'NotIn', values: [] }] },
      [
        "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      ],
    ],
    [
      'Exists with values',
      { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] },
      [
        "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      ],
    ],
    [
      'an operator that is not one of the four',
      { matchExpressions: [{ key: 'a', operator: 'Equals', values: ['x'] }] },
      ['spec.selector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator'],
    ],
    [
      'an operator of the string syntax',
      { matchExpressions: [{ key: 'a', operator: 'in', values: ['x'] }] },
      ['spec.selector.matchExpressions[0].operator: Invalid value: "in": not a valid selector operator'],
    ],
    [
      'a missing operator',
      { matchExpressions: [{ key: 'a' }] },
      ['spec.selector.matchExpressions[0].operator: Invalid value: "": not a valid selector operator'],
    ],
    [
      'a value that is not a label value',
      { matchExpressions: [{ key: 'a', operator: 'In', values: ['ok', '-bad-'] }] },
      [`spec.selector.matchExpressions[0].values[1]: Invalid value: "-bad-": ${labelValueErrors('-bad-')[0]}`],
    ],
    [
      'a value longer than 63 characters',
      { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['x'.repeat(64)] }] },
      [
        `spec.selector.matchExpressions[0].values[0]: Invalid value: "${'x'.repeat(64)}": must be no more than 63 characters`,
      ],
    ],
    [
      'a key that is not a qualified name',
      { matchExpressions: [{ key: 'a/b/c', operator: 'Exists' }] },
      [`spec.selector.matchExpressions[0].key: Invalid value: "a/b/c": ${qualifiedNameErrors('a/b/c')[0]}`],
    ],
    [
      'matchLabels errors on matchLabels itself, as ValidateLabels',
      { matchLabels: { 'a/b/c': 'x', ok: '-bad-' } },
      [
        `spec.selector.matchLabels: Invalid value: "a/b/c": ${qualifiedNameErrors('a/b/c')[0]}`,
        `spec.selector.matchLabels: Invalid value: "-bad-": ${labelValueErrors('-bad-')[0]}`,
      ],
    ],
    [
      'matchLabels before matchExpressions',
      { matchExpressions: [{ key: 'a', operator: 'Is' }], matchLabels: { ok: '-bad-' } },
      [
        `spec.selector.matchLabels: Invalid value: "-bad-": ${labelValueErrors('-bad-')[0]}`,
        'spec.selector.matchExpressions[0].operator: Invalid value: "Is": not a valid selector operator',
      ],
    ],
  ];
  it.each(cases)('%s', (_name, selector, want) => {
    expect(messages(selector)).toEqual(want);
  });

  it('accepts invalid values when asked to, as kube does on update', () => {
    const selector = { matchExpressions: [{ key: 'a', operator: 'In', values: ['-bad-'] }] };
    expect(hasInvalidLabelValueInSelector(selector)).toBe(true);
    expect(messages(selector, { allowInvalidLabelValueInSelector: true })).toEqual([]);
    expect(hasInvalidLabelValueInSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: ['ok'] }] })).toBe(
      false,
    );
  });

  const operators = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;
  const labelValue = fc.stringMatching(/^([a-z0-9]([-a-z0-9_.]{0,20}[a-z0-9])?)?$/);
  const anyValue = fc.oneof(labelValue, fc.string({ maxLength: 70 }));

  it('reports exactly the operator, value-count and value errors kube does (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom(...operators), fc.string({ maxLength: 12 })),
        fc.array(anyValue, { maxLength: 4 }),
        (operator, values) => {
          const fields = validateLabelSelector(
            { matchExpressions: [{ key: 'app', operator, values }] },
            FieldPath.root('s'),
          ).map((e) => `${e.field} ${e.type}`);
          const takesValues = operator === 'In' || operator === 'NotIn';
          const takesNone = operator === 'Exists' || operator === 'DoesNotExist';
          const want = [
            ...(takesValues && values.length === 0 ? ['s.matchExpressions[0].values FieldValueRequired'] : []),
            ...(takesNone && values.length > 0 ? ['s.matchExpressions[0].values FieldValueForbidden'] : []),
            ...(!takesValues && !takesNone ? ['s.matchExpressions[0].operator FieldValueInvalid'] : []),
            ...values.flatMap((v, i) =>
              labelValueErrors(v).map(() => `s.matchExpressions[0].values[${i}] FieldValueInvalid`),
            ),
          ];
          expect(fields).toEqual(want);
        },
      ),
    );
  });
});
