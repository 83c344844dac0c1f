import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LabelSelectorError,
  Selector,
  labelSelectorAsSelector,
  labelSelectorMatches,
  newRequirement,
  nodeSelectorRequirementsAsSelector,
  nodeSelectorTermMatches,
  parseSelector,
  selectorFromSet,
} from './selector.js';

/** The message of the LabelSelectorError `fn` throws. */
function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(LabelSelectorError);
    return (err as Error).message;
  }
  throw new Error('no error thrown');
}

describe('parseSelector (labels.Parse)', () => {
  it.each([
    ['', ''],
    ['x=a', 'x=a'],
    ['x=a,y=b,z=c', 'x=a,y=b,z=c'],
    ['z=c,x=a', 'x=a,z=c'],
    ['x==a', 'x==a'],
    ['x!=a', 'x!=a'],
    [' x = a , y != b ', 'x=a,y!=b'],
    ['x=', 'x='],
    ['x=,z= ', 'x=,z='],
    ['x in (foo,,baz),y,z notin ()', 'x in (,baz,foo),y,z notin ()'],
    ['x in (b,a)', 'x in (a,b)'],
    ['x in (a,a)', 'x in (a)'],
    ['x notin (in)', 'x notin (in)'],
    ['!x', '!x'],
    ['! x', '!x'],
    ['x>1', 'x>1'],
    ['x<5', 'x<5'],
    ['example.com/role=web', 'example.com/role=web'],
    ['app=web,tier!=db,env in (a,b),!legacy', 'app=web,env in (a,b),!legacy,tier!=db'],
  ])('%j parses and prints as %j', (text, printed) => {
    expect(parseSelector(text).toString()).toBe(printed);
  });

  it.each([
    [
      'x=a||y=b',
      "unable to parse requirement: values[0][x]: Invalid value: \"a||y\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
    // Label values cannot start with '-', so Gt/Lt take no negative numbers.
    [
      'x<-5',
      "unable to parse requirement: values[0][x]: Invalid value: \"-5\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
    ['x=a,', "found '', expected: identifier after ','"],
    [',x=a', "found ',', expected: !, identifier, or 'end of string'"],
    ['x in', "unable to parse requirement: found '' expected: '('"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x (a)', "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['x=a=b', "found '=', expected: ',' or 'end of string'"],
    [
      'x>a',
      "unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, the value must be an integer",
    ],
    [
      '-x=a',
      "unable to parse requirement: <nil>: Invalid value: \"-x\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ],
    ['x=a b', "found 'b', expected: ',' or 'end of string'"],
    [
      'x=-a',
      "unable to parse requirement: values[0][x]: Invalid value: \"-a\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
  ])('%j is rejected with %j', (text, message) => {
    expect(failure(() => parseSelector(text))).toBe(message);
  });

  it('matches as kube does', () => {
    const labels = { app: 'web', tier: 'frontend', replicas: '3' };
    const cases: [string, boolean][] = [
      ['', true],
      ['app=web', true],
      ['app==web', true],
      ['app=db', false],
      ['app!=db', true],
      ['missing!=x', true],
      ['tier in (frontend,backend)', true],
      ['tier notin (frontend)', false],
      ['missing notin (a)', true],
      ['missing in (a)', false],
      ['app', true],
      ['!app', false],
      ['!missing', true],
      ['replicas>2', true],
      ['replicas<3', false],
      ['app>2', false],
      ['missing>2', false],
      ['app=web,tier=backend', false],
      // No prototype keys: an object's "constructor" is not a label.
      ['constructor', false],
      ['!toString', true],
    ];
    for (const [text, expected] of cases) expect(parseSelector(text).matches(labels), text).toBe(expected);
    expect(parseSelector('!app').matches(undefined)).toBe(true);
  });
});

describe('labelSelectorAsSelector (metav1.LabelSelectorAsSelector)', () => {
  it('converts matchLabels and matchExpressions, nil selecting nothing and {} everything', () => {
    const selector = labelSelectorAsSelector({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'canary'] },
        { key: 'legacy', operator: 'DoesNotExist' },
        { key: 'zone', operator: 'Exists' },
      ],
    });
    expect(selector.toString()).toBe('app=web,env in (canary,prod),!legacy,zone');
    expect(selector.matches({ app: 'web', env: 'prod', zone: 'a' })).toBe(true);
    expect(selector.matches({ app: 'web', env: 'prod', zone: 'a', legacy: 'x' })).toBe(false);
    expect(labelSelectorAsSelector(undefined).matches({})).toBe(false);
    expect(labelSelectorAsSelector(null).isNothing()).toBe(true);
    expect(labelSelectorAsSelector({}).matches({ any: 'thing' })).toBe(true);
    expect(labelSelectorMatches({ matchLabels: {} }, undefined)).toBe(true);
  });

  it('rejects what NewRequirement rejects, with kube messages', () => {
    expect(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] })).toThrow(
      '"Gt" is not a valid label selector operator',
    );
    expect(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).toThrow(
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    );
    expect(() =>
      labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }),
    ).toThrow('values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist');
    expect(() => labelSelectorAsSelector({ matchLabels: { 'a/b/c': 'x' } })).toThrow(
      /^key: Invalid value: "a\/b\/c": a qualified name must consist of/,
    );
    expect(() => labelSelectorAsSelector({ matchLabels: { a: 'x y' } })).toThrow(
      /^values\[0\]\[a\]: Invalid value: "x y"/,
    );
  });

  it('reports several problems in one aggregate', () => {
    expect(() => newRequirement('-a', 'in', [], 'spec.selector')).toThrow(
      /^\[spec\.selector\.key: Invalid value: "-a": .*, spec\.selector\.values: Invalid value: \[\]string\{\}: /,
    );
  });
});

describe('node selector terms (node affinity)', () => {
  const labels = { 'kubernetes.io/os': 'linux', 'node.kubernetes.io/instance-type': 'm5', cores: '8' };
  const fields = { 'metadata.name': 'node-1' };

  it('matches expressions on labels, including Gt and Lt, and In/NotIn on metadata.name', () => {
    const term = (matchExpressions: object[], matchFields: object[] = []) =>
      nodeSelectorTermMatches({ matchExpressions, matchFields } as never, labels, fields);
    expect(term([{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }])).toBe(true);
    expect(term([{ key: 'cores', operator: 'Gt', values: ['4'] }])).toBe(true);
    expect(term([{ key: 'cores', operator: 'Lt', values: ['8'] }])).toBe(false);
    expect(term([{ key: 'gpu', operator: 'DoesNotExist' }])).toBe(true);
    expect(term([], [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }])).toBe(true);
    expect(term([], [{ key: 'metadata.name', operator: 'NotIn', values: ['node-1'] }])).toBe(false);
    expect(
      term([{ key: 'cores', operator: 'Exists' }], [{ key: 'metadata.name', operator: 'In', values: ['x'] }]),
    ).toBe(false);
  });

  it('matches no node with an empty term or one kube cannot convert', () => {
    expect(nodeSelectorTermMatches({}, labels, fields)).toBe(false);
    // Gt takes one integer that is also a valid label value: "-1" is neither matched nor accepted.
    expect(
      nodeSelectorTermMatches({ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['-1'] }] }, labels, fields),
    ).toBe(false);
    expect(
      nodeSelectorTermMatches(
        { matchExpressions: [{ key: 'cores', operator: 'Equal', values: ['8'] }] },
        labels,
        fields,
      ),
    ).toBe(false);
    expect(() => nodeSelectorRequirementsAsSelector([{ key: 'a', operator: 'In', values: [] }])).toThrow(
      "[0].values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty",
    );
  });
});

describe('selectorFromSet', () => {
  it('requires every label of the set, sorted by key', () => {
    const selector = selectorFromSet({ tier: 'db', app: 'web' });
    expect(selector.toString()).toBe('app=web,tier=db');
    expect(selector.requiresExactMatch('app')).toBe('web');
    expect(selector.matches({ app: 'web', tier: 'db', extra: 'x' })).toBe(true);
    expect(selector.matches({ app: 'web' })).toBe(false);
    expect(selectorFromSet({}).empty()).toBe(true);
  });
});

// ---- properties ----

const name = fc.stringMatching(/^[a-z0-9]([a-z0-9._-]{0,8}[a-z0-9])?$/);
const key = fc
  .tuple(fc.option(fc.constantFrom('example.com/', 'gardener.cloud/'), { nil: undefined }), name)
  .map(([p, n]) => `${p ?? ''}${n}`);
const value = fc.oneof(fc.constant(''), name);
const requirement = fc.oneof(
  fc.record({ key, operator: fc.constantFrom('=', '==', '!='), values: fc.tuple(value) }),
  fc.record({
    key,
    operator: fc.constantFrom('in', 'notin'),
    values: fc.uniqueArray(value, { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ key, operator: fc.constantFrom('exists', '!'), values: fc.constant([] as string[]) }),
  fc.record({
    key,
    operator: fc.constantFrom('gt', 'lt'),
    values: fc.tuple(fc.integer({ min: 0, max: 100 }).map(String)),
  }),
);
const labels = fc.dictionary(key, value, { maxKeys: 6 });

describe('selector properties', () => {
  it('String() parses back to a selector that prints the same and matches the same labels', () => {
    fc.assert(
      fc.property(fc.array(requirement, { maxLength: 5 }), labels, (reqs, set) => {
        const selector = Selector.of(reqs.map((r) => newRequirement(r.key, r.operator, r.values)));
        const reparsed = parseSelector(selector.toString());
        expect(reparsed.toString()).toBe(selector.toString());
        expect(reparsed.matches(set)).toBe(selector.matches(set));
      }),
    );
  });

  it('matches when every requirement alone matches', () => {
    fc.assert(
      fc.property(fc.array(requirement, { maxLength: 5 }), labels, (reqs, set) => {
        const requirements = reqs.map((r) => newRequirement(r.key, r.operator, r.values));
        expect(Selector.of(requirements).matches(set)).toBe(requirements.every((r) => Selector.of([r]).matches(set)));
      }),
    );
  });

  it('a set selects exactly the label sets that contain it', () => {
    fc.assert(
      fc.property(labels, labels, (wanted, set) => {
        const contained = Object.entries(wanted).every(([k, v]) => Object.hasOwn(set, k) && set[k] === v);
        expect(selectorFromSet(wanted).matches(set)).toBe(contained);
        expect(parseSelector(selectorFromSet(wanted).toString()).matches(set)).toBe(contained);
      }),
    );
  });

  it('never fails other than with LabelSelectorError', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'ab1 =!(),<>-./'.split('')) }), (text) => {
        try {
          parseSelector(text);
        } catch (err) {
          expect(err).toBeInstanceOf(LabelSelectorError);
        }
      }),
    );
  });
});
