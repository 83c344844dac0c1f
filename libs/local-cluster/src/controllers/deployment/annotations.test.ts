import { describe, expect, it } from 'vitest';
import { newReplicaSetAnnotations } from './annotations.js';

describe('revision annotations', () => {
  it('gives a new ReplicaSet the revision and the Deployment’s own annotations, not its bookkeeping', () => {
    const a = newReplicaSetAnnotations(
      undefined,
      { 'kubernetes.io/change-cause': 'v2', 'deployment.kubernetes.io/revision': '7' },
      2,
      3,
      4,
    );
    expect(a).toEqual({
      'kubernetes.io/change-cause': 'v2',
      'deployment.kubernetes.io/revision': '2',
      'deployment.kubernetes.io/desired-replicas': '3',
      'deployment.kubernetes.io/max-replicas': '4',
    });
  });

  it('moves a rolled-back ReplicaSet to the next revision and remembers the old ones', () => {
    const once = newReplicaSetAnnotations({ 'deployment.kubernetes.io/revision': '1' }, {}, 3, 1, 2);
    expect(once['deployment.kubernetes.io/revision']).toBe('3');
    expect(once['deployment.kubernetes.io/revision-history']).toBe('1');
    const twice = newReplicaSetAnnotations(once, {}, 5, 1, 2);
    expect(twice['deployment.kubernetes.io/revision-history']).toBe('1,3');
  });

  it('keeps the revision of a ReplicaSet that is already the newest', () => {
    expect(
      newReplicaSetAnnotations({ 'deployment.kubernetes.io/revision': '3' }, {}, 3, 1, 2)[
        'deployment.kubernetes.io/revision-history'
      ],
    ).toBeUndefined();
  });
});
