import { describe, expect, it } from 'vitest';
import { expandReferences } from './env.js';

describe('$(VAR) references', () => {
  const lookup = (name: string) => ({ A: 'x', B: 'y' })[name];

  it('replaces defined variables, keeps unknown references and unescapes $$', () => {
    expect(expandReferences('$(A)-$(B)', lookup)).toBe('x-y');
    expect(expandReferences('$(MISSING) stays', lookup)).toBe('$(MISSING) stays');
    expect(expandReferences('$$(A) is literal, $$ too', lookup)).toBe('$(A) is literal, $ too');
  });
});
