import { describe, expect, it } from 'vitest';
import { compileCondition } from './match-conditions.js';

describe('match condition compilation', () => {
  it('knows the Kubernetes CEL libraries, as kube-apiserver does', () => {
    for (const expression of [
      "isURL('https://example.com/x')",
      "quantity('1Gi').isGreaterThan(quantity('512Mi'))",
      '[1, 2, 3].isSorted()',
      "object.metadata.name.find('[0-9]+') != ''",
    ]) {
      expect(compileCondition(expression), expression).toEqual({ program: expect.any(Function) });
    }
  });

  it('refuses expressions that do not compile or do not return bool, in kube words', () => {
    expect(compileCondition('object.metadata.name ==')).toEqual({
      error: expect.stringMatching(/^compilation failed: ERROR: <input>: /),
    });
    expect(compileCondition("'a' + 'b'")).toEqual({ error: 'must evaluate to bool' });
  });
});
