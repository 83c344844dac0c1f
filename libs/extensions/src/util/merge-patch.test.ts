import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyMergePatch, deepEqual, mergePatchFor } from './merge-patch.js';

// JSON without nulls (a merge patch cannot set a null).
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.boolean(),
    fc.integer(),
    fc.string(),
    fc.array(tie('value'), { maxLength: 3 }),
    tie('object'),
  ),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'machines', 'state'), tie('value'), { maxKeys: 4 }),
})).object;

describe('mergePatchFor', () => {
  it('applied to the old value gives the new value', () => {
    fc.assert(
      fc.property(json, json, (from, to) => {
        const patch = mergePatchFor(from, to);
        return deepEqual(patch === undefined ? from : applyMergePatch(from, patch), to);
      }),
    );
  });

  it('removes keys of a saved state that the new state no longer has', () => {
    const patch = mergePatchFor({ machines: [{ name: 'a' }], keys: { old: 'x' } }, { machines: [{ name: 'b' }] });
    expect(patch).toEqual({ machines: [{ name: 'b' }], keys: null });
    expect(mergePatchFor({ a: 1 }, { a: 1 })).toBeUndefined();
  });
});
