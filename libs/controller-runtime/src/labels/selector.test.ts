import { describe, expect, it } from 'vitest';
import { SelectorError, labelSelectorMatcher, parseLabelSelector } from './selector.js';

describe('label selectors', () => {
  const web = { app: 'web', tier: 'front' };
  const db = { app: 'db' };

  it('parses equality, set and existence terms', () => {
    expect(parseLabelSelector('app=web')(web)).toBe(true);
    expect(parseLabelSelector('app==web,tier=front')(web)).toBe(true);
    expect(parseLabelSelector('app!=web')(db)).toBe(true);
    expect(parseLabelSelector('app!=web')(web)).toBe(false);
    expect(parseLabelSelector('app in (web, api)')(web)).toBe(true);
    expect(parseLabelSelector('app notin (web,api)')(db)).toBe(true);
    expect(parseLabelSelector('tier')(db)).toBe(false);
    expect(parseLabelSelector('!tier')(db)).toBe(true);
    expect(parseLabelSelector('app in (web),!canary,tier')(web)).toBe(true);
    expect(parseLabelSelector('')(undefined)).toBe(true);
  });

  it('rejects malformed selectors', () => {
    expect(() => parseLabelSelector('app=(')).toThrow(SelectorError);
    expect(() => parseLabelSelector('=x')).toThrow("found '=', expected: !, identifier, or 'end of string'");
  });

  it('matches LabelSelector objects like the API does', () => {
    const s = labelSelectorMatcher({
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }],
    });
    expect(s(web)).toBe(true);
    expect(s({ app: 'web' })).toBe(false);
    expect(labelSelectorMatcher({})(undefined)).toBe(true);
    expect(labelSelectorMatcher({ matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] })(web)).toBe(true);
  });
});
