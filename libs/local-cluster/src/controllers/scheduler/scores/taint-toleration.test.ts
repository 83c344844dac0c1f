import { describe, expect, it } from 'vitest';
import { node, pod, scoreInput } from '../testing.js';
import { intolerablePreferNoSchedule, taintTolerationScore } from './taint-toleration.js';

const soft = (key: string) => ({ key, effect: 'PreferNoSchedule' });

describe('TaintToleration score', () => {
  it('counts the PreferNoSchedule taints the pod does not tolerate', () => {
    const n = node('n', { taints: [soft('a'), soft('b'), { key: 'c', effect: 'NoSchedule' }] });
    expect(intolerablePreferNoSchedule(pod(), n)).toBe(2);
    expect(intolerablePreferNoSchedule(pod({ tolerations: [{ key: 'a', operator: 'Exists' }] }), n)).toBe(1);
    expect(
      intolerablePreferNoSchedule(pod({ tolerations: [{ key: 'a', operator: 'Exists', effect: 'NoSchedule' }] }), n),
    ).toBe(2);
  });

  it('scores untainted nodes highest', () => {
    const nodes = [node('two', { taints: [soft('a'), soft('b')] }), node('one', { taints: [soft('a')] }), node('none')];
    expect(taintTolerationScore(scoreInput(pod(), nodes))).toEqual([0, 50, 100]);
    expect(taintTolerationScore(scoreInput(pod(), [node('x'), node('y')]))).toEqual([100, 100]);
  });
});
